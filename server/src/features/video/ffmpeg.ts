import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { answers } from '@lms/contract/answers';

/**
 * ffmpeg and ffprobe, run as child processes: a transcode keeps every core busy for minutes,
 * and none of it may run on the event loop. The children run at a lower priority (nice 10),
 * so requests keep their turn on the CPU while a video is processed.
 */
export interface VideoTools {
  ffmpeg: string;
  ffprobe: string;
  /** Which ffmpeg this is, found once at start, for the admin (describeFfmpeg) and the log. */
  build: FfmpegBuild;
}

/** What `ffmpeg -version` and the binary's place tell of an ffmpeg. */
export interface FfmpegBuild {
  /** Its release, e.g. "5.1.9"; a build from between releases has only its own name. */
  version: string;
  /** The binary that runs; absolute when it was found on PATH. */
  path: string;
  /**
   * Who built it: a distribution that names itself in the version (Debian's "5.1.9-0+deb12u1"),
   * the static build that comes in the @ffmpeg-installer npm package, or unknown.
   */
  origin: 'Debian' | 'Ubuntu' | 'npm' | null;
  /** The year of its sources, from its copyright line. */
  year: number | null;
}

export type VideoToolsStatus = { available: true; tools: VideoTools } | { available: false; reason: string };

/** What ffprobe found in a video. */
export interface ProbedVideo {
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
  /** Null for a video without sound. */
  audioCodec: string | null;
}

/** One step of the HLS ladder. */
export interface Rendition {
  height: number;
  videoKbps: number;
  audioKbps: number;
}

/** The file is not a video ffprobe can read, or has no picture: retrying will not help. */
export class UnreadableVideo extends Error {
  constructor(
    message: string,
    /** ffprobe's own words, for the admin's reason. */
    readonly detail: string,
  ) {
    super(message);
  }
}

/** The ladder's steps, lowest first; a video gets those not above its own height (DESIGN §5). */
export const LADDER: readonly Rendition[] = [
  { height: 360, videoKbps: 800, audioKbps: 96 },
  { height: 720, videoKbps: 2800, audioKbps: 128 },
  { height: 1080, videoKbps: 5000, audioKbps: 128 },
];
export const SEGMENT_SECONDS = 6;
/**
 * x264's speed against quality per bit. A 20 s 1080p clip's three-step ladder took 8.5 s with
 * superfast and 13.0 s with veryfast on this 2-core machine (busy): only superfast keeps within
 * DESIGN §11's 0.5 × the video's length. At these bit rates the difference is hard to see;
 * ultrafast (no CABAC) would be. `npm run bench -- --only=video` measures it.
 */
export const X264_PRESET = 'superfast';
/**
 * The demuxers an upload may be read with: those of the containers the upload check lets in
 * (lectures.service: a video/* type by the first bytes): mov (MP4, MOV, M4V, 3GP), matroska
 * (MKV, WebM), avi, mpeg (program streams), mpegts, flv, ogg and asf (WMV). None of them opens
 * another file.
 */
const UPLOAD_DEMUXERS = ['mov', 'matroska', 'avi', 'mpeg', 'mpegts', 'flv', 'ogg', 'asf'];
/**
 * Given before every input of ffmpeg and ffprobe. They judge a file by its content, not by the
 * first bytes the upload check saw nor by its name: a playlist (HLS, DASH) or a concat list that
 * reached them would have them open every file and URL it names, another lecture's video
 * among them. Only local files (an upload on S3 is downloaded first), and only through the
 * demuxers above; the playlist demuxers, and any reached from inside a container, are refused.
 */
export const INPUT_LIMITS: readonly string[] = ['-protocol_whitelist', 'file', '-format_whitelist', UPLOAD_DEMUXERS.join(',')];
/** `file` as the input of an ffmpeg or ffprobe run: the limits, then `-i`. */
const input = (file: string) => [...INPUT_LIMITS, '-i', file];
const CHILD_PRIORITY = 10;
/** What is kept of a child's stderr for an error message. */
const STDERR_KEEP = 4096;
const VERSION_TIMEOUT_MS = 10_000;

/**
 * The tools to use: FFMPEG_PATH/FFPROBE_PATH when set (and nothing else: an explicit choice that
 * does not run is reported, not replaced), else ffmpeg and ffprobe on PATH (Debian's, kept current
 * by its security updates), else the binaries shipped in the @ffmpeg-installer/@ffprobe-installer
 * packages (DESIGN §10), a static build of 2018 that gets no fixes: the admin is told to replace
 * it (ffmpegWarning). Each is run once (`-version`) to prove it works here.
 */
export async function findVideoTools(settings: { ffmpegPath?: string; ffprobePath?: string }): Promise<VideoToolsStatus> {
  if (settings.ffmpegPath || settings.ffprobePath) {
    const pair = { ffmpeg: await onPath(settings.ffmpegPath ?? 'ffmpeg'), ffprobe: await onPath(settings.ffprobePath ?? 'ffprobe') };
    const checked = await check(pair);
    return typeof checked === 'string' ? { available: false, reason: checked } : { available: true, tools: checked };
  }
  const reasons: string[] = [];
  for (const candidate of [{ ffmpeg: await onPath('ffmpeg'), ffprobe: await onPath('ffprobe') }, shippedTools()]) {
    if (!candidate) continue;
    const checked = await check(candidate);
    if (typeof checked !== 'string') return { available: true, tools: checked };
    reasons.push(checked);
  }
  return { available: false, reason: reasons.join('; ') || 'no ffmpeg found' };
}

/** The paths inside the npm packages, when they are installed for this platform. */
function shippedTools(): { ffmpeg: string; ffprobe: string } | undefined {
  const require = createRequire(import.meta.url);
  try {
    const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    const ffprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
    return { ffmpeg, ffprobe };
  } catch {
    // No binary for this platform (the packages throw), or not installed.
    return undefined;
  }
}

/** A command's path as the system would find it on PATH (spawn does the same); `name` itself when it has a slash or is not there. */
async function onPath(name: string): Promise<string> {
  if (name.includes('/')) return name;
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.resolve(folder, name);
    if (await fs.access(candidate, fs.constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return name;
}

/** The pair as VideoTools if both run; otherwise why not. */
async function check(pair: { ffmpeg: string; ffprobe: string }): Promise<VideoTools | string> {
  const versions: string[] = [];
  for (const binary of [pair.ffmpeg, pair.ffprobe]) {
    // npm 11 skips the packages' `chmod u+x` install scripts; the files may need it still.
    if (binary.includes('/')) await fs.chmod(binary, 0o755).catch(() => undefined);
    const run = await runChild(binary, ['-hide_banner', '-version'], { timeoutMs: VERSION_TIMEOUT_MS }).catch((error: Error) => error);
    if (run instanceof Error) return `${binary} could not run (${run.message})`;
    versions.push(run.stdout.split('\n', 1)[0] ?? '');
  }
  return { ...pair, build: await buildOf(pair.ffmpeg, versions[0]!) };
}

/** What the first line of `ffmpeg -version` ("ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 …") and the binary's place tell. */
async function buildOf(binary: string, versionLine: string): Promise<FfmpegBuild> {
  const named = /version (\S+)/.exec(versionLine)?.[1] ?? 'unknown version';
  const year = Number(/Copyright \(c\) (?:\d{4}-)?(\d{4})/.exec(versionLine)?.[1]) || null;
  // The npm package's build calls itself by a git snapshot ("N-47683-g0e8eb07980-static"); its package says which release that is.
  const shipped = await shippedPackageOf(binary);
  if (shipped) return { version: shipped.version.replace(/\.0$/, ''), path: binary, origin: 'npm', year };
  return {
    version: /^n?(\d+(?:\.\d+)+)/.exec(named)?.[1] ?? named,
    path: binary,
    origin: /ubuntu/i.test(named) ? 'Ubuntu' : /deb\d|debian/i.test(named) ? 'Debian' : null,
    year,
  };
}

/** The @ffmpeg-installer package `binary` came in (its package.json lies beside it), if it did. */
async function shippedPackageOf(binary: string): Promise<{ version: string } | undefined> {
  if (!binary.includes('/')) return undefined;
  const text = await fs.readFile(path.join(path.dirname(binary), 'package.json'), 'utf8').catch(() => undefined);
  try {
    const manifest = JSON.parse(text ?? 'null') as { name?: unknown; version?: unknown } | null;
    if (typeof manifest?.name === 'string' && manifest.name.startsWith('@ffmpeg-installer/') && typeof manifest.version === 'string') return { version: manifest.version };
  } catch {
    // Not a package's manifest: not the npm build.
  }
  return undefined;
}

/** The ffmpeg in words, for the admin and the log: "ffmpeg 5.1.9 (Debian, /usr/bin/ffmpeg)", "ffmpeg 4.1 (bundled npm build, 2018)". */
export function describeFfmpeg(build: FfmpegBuild): string {
  const details = build.origin === 'npm' ? [answers.videoFfmpegBundled(build.year)] : [build.origin, build.path].filter((part) => part !== null);
  return answers.videoFfmpeg(build.version, details.join(', '));
}

/** Why the admin should replace the ffmpeg in use, and how; null when it gets security fixes from whoever installed it. */
export function ffmpegWarning(build: FfmpegBuild): string | null {
  return build.origin === 'npm' ? answers.videoFfmpegOutdated(build.year) : null;
}

/** Duration, size and codecs of the video at `file`; UnreadableVideo when it is not one. */
export async function probeVideo(tools: VideoTools, file: string, signal?: AbortSignal): Promise<ProbedVideo> {
  const run = await runChild(tools.ffprobe, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...input(file)], { signal }).catch(
    (error: ChildFailed | Error) => {
      if (error instanceof ChildFailed) throw new UnreadableVideo(`ffprobe could not read ${file}`, lastLine(error.stderr) || `exit code ${error.code}`);
      throw error;
    },
  );
  const found = JSON.parse(run.stdout) as {
    format?: { duration?: string };
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string; disposition?: { attached_pic?: number } }[];
  };
  const streams = found.streams ?? [];
  // A cover image in an audio file is a "video" stream too; it is not a picture to play.
  const picture = streams.find((stream) => stream.codec_type === 'video' && !stream.disposition?.attached_pic && stream.width && stream.height);
  if (!picture) throw new UnreadableVideo('no picture', 'no video stream');
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const durationSeconds = Number(found.format?.duration ?? picture.duration);
  if (!(durationSeconds > 0)) throw new UnreadableVideo('no duration', 'the length of the video is unknown');
  return {
    durationSeconds,
    width: picture.width!,
    height: picture.height!,
    videoCodec: picture.codec_name ?? 'unknown',
    audioCodec: audio?.codec_name ?? null,
  };
}

/** A PNG of the frame at `atSeconds`, at most `maxWidth` wide (the caller re-encodes it to WebP). */
export async function grabFrame(tools: VideoTools, file: string, atSeconds: number, maxWidth: number, signal?: AbortSignal): Promise<Buffer> {
  const run = await runChild(
    tools.ffmpeg,
    [
      ...['-hide_banner', '-v', 'error', '-nostdin', '-ss', atSeconds.toFixed(3), ...input(file)],
      ...['-frames:v', '1', '-vf', `scale='min(${maxWidth},iw)':-2`, '-f', 'image2pipe', '-c:v', 'png', '-'],
    ],
    { signal, binary: true },
  );
  if (run.stdoutBytes.length === 0) throw new Error(`ffmpeg made no frame at ${atSeconds} s`);
  return run.stdoutBytes;
}

/** The steps of LADDER for a video `height` tall: never above it; a video below the lowest gets one step at its own height. */
export function ladderFor(height: number): Rendition[] {
  const steps = LADDER.filter((step) => step.height <= height);
  if (steps.length > 0) return steps;
  const even = Math.max(2, height - (height % 2));
  return [{ ...LADDER[0]!, height: even }];
}

/**
 * Transcodes `file` into an HLS ladder in `outDir`: a playlist per rendition (`0.m3u8`, lowest
 * first) of SEGMENT_SECONDS-long H.264/AAC segments (`0_00000.ts`…) and `master.m3u8`. The
 * picture is decoded once and scaled for every rendition in the same run. `onProgress` gets
 * the share done (0–1) as ffmpeg reports it.
 */
export async function transcodeToHls(
  tools: VideoTools,
  { file, outDir, video, renditions, onProgress, signal }: {
    file: string;
    outDir: string;
    video: ProbedVideo;
    renditions: Rendition[];
    onProgress: (done: number) => void;
    signal?: AbortSignal;
  },
): Promise<void> {
  const split = `[0:v]split=${renditions.length}${renditions.map((_, index) => `[s${index}]`).join('')}`;
  const scales = renditions.map((step, index) => `[s${index}]scale=-2:${step.height}[v${index}]`);
  const args = ['-hide_banner', '-v', 'error', '-nostdin', '-y', ...input(file), '-filter_complex', [split, ...scales].join(';')];
  renditions.forEach((step, index) => {
    args.push('-map', `[v${index}]`, `-c:v:${index}`, 'libx264', `-b:v:${index}`, `${step.videoKbps}k`);
    args.push(`-maxrate:v:${index}`, `${Math.round(step.videoKbps * 1.07)}k`, `-bufsize:v:${index}`, `${step.videoKbps * 1.5}k`);
  });
  if (video.audioCodec) {
    renditions.forEach((step, index) => args.push('-map', '0:a:0', `-c:a:${index}`, 'aac', `-b:a:${index}`, `${step.audioKbps}k`));
    args.push('-ac', '2');
  }
  const streamMap = renditions.map((_, index) => (video.audioCodec ? `v:${index},a:${index}` : `v:${index}`)).join(' ');
  args.push(
    ...['-preset', X264_PRESET, '-pix_fmt', 'yuv420p', '-sc_threshold', '0'],
    // A key frame every SEGMENT_SECONDS, whatever the frame rate: every segment starts with one, and all renditions switch at the same points.
    ...['-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`],
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments'],
    // No -master_pl_name: the static ffmpeg 4.1 of the npm package crashes (SIGSEGV) writing it; writeMasterPlaylist does.
    ...['-hls_segment_filename', `${outDir}/%v_%05d.ts`, '-var_stream_map', streamMap],
    ...['-progress', 'pipe:1', '-nostats'],
    `${outDir}/%v.m3u8`,
  );
  await runChild(tools.ffmpeg, args, {
    signal,
    onStdoutLine(line) {
      // `out_time_us` (ffmpeg ≥ 4.2) and `out_time_ms` (older, but also microseconds) are how far it has got.
      const [name, value] = line.split('=', 2);
      if ((name === 'out_time_us' || name === 'out_time_ms') && value && /^\d+$/.test(value)) {
        onProgress(Math.min(1, Number(value) / 1e6 / video.durationSeconds));
      }
    },
  }).catch((error: ChildFailed | Error) => {
    if (error instanceof ChildFailed) throw new Error(`ffmpeg failed: ${lastLine(error.stderr) || `exit code ${error.code}`}`);
    throw error;
  });
  await writeMasterPlaylist(outDir, video, renditions);
}

/**
 * `master.m3u8`: one entry per rendition playlist (`0.m3u8`, lowest first) with its size and its
 * BANDWIDTH as HLS defines it, the peak bit rate of its segments (AVERAGE-BANDWIDTH beside it),
 * measured from the segments written.
 */
async function writeMasterPlaylist(outDir: string, video: ProbedVideo, renditions: Rendition[]): Promise<void> {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const [index, step] of renditions.entries()) {
    const playlist = await fs.readFile(path.join(outDir, `${index}.m3u8`), 'utf8');
    let seconds = 0;
    let peak = 0;
    let bits = 0;
    let total = 0;
    for (const line of playlist.split('\n')) {
      if (line.startsWith('#EXTINF:')) seconds = Number.parseFloat(line.slice('#EXTINF:'.length));
      else if (line.endsWith('.ts') && seconds > 0) {
        const segmentBits = (await fs.stat(path.join(outDir, line.trim()))).size * 8;
        peak = Math.max(peak, segmentBits / seconds);
        bits += segmentBits;
        total += seconds;
      }
    }
    // As scale=-2:<height> makes it: the source's shape, rounded to an even width.
    const width = 2 * Math.round((video.width * step.height) / video.height / 2);
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${Math.ceil(peak)},AVERAGE-BANDWIDTH=${Math.ceil(total > 0 ? bits / total : 0)},RESOLUTION=${width}x${step.height}`,
      `${index}.m3u8`,
    );
  }
  await fs.writeFile(path.join(outDir, 'master.m3u8'), `${lines.join('\n')}\n`);
}

/** A child that exited with an error. */
class ChildFailed extends Error {
  constructor(
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`exited with ${code}: ${lastLine(stderr)}`);
  }
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)?.trim().slice(0, 300) ?? '';

interface ChildOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Keep stdout as bytes (a frame), rather than text. */
  binary?: boolean;
  /** Called per line of stdout as it arrives, instead of keeping it. */
  onStdoutLine?: (line: string) => void;
}

/** Runs `binary` with `args` (no shell) at a lower priority; resolves with its output, rejects with ChildFailed on a non-zero exit. */
function runChild(binary: string, args: string[], options: ChildOptions = {}): Promise<{ stdout: string; stdoutBytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal, timeout: options.timeoutMs, killSignal: 'SIGKILL' });
    if (child.pid) {
      try {
        os.setPriority(child.pid, CHILD_PRIORITY);
      } catch {
        // Not allowed here: it runs at the server's priority.
      }
    }
    const chunks: Buffer[] = [];
    let pending = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (!options.onStdoutLine) return void chunks.push(chunk);
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) options.onStdoutLine(line.trim());
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) {
        const bytes = Buffer.concat(chunks);
        return resolve({ stdout: options.binary ? '' : bytes.toString('utf8'), stdoutBytes: bytes });
      }
      if (options.signal?.aborted) return reject(options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted'));
      reject(signal ? new Error(`killed by ${signal}`) : new ChildFailed(code, stderr));
    });
  });
}
