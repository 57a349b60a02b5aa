import fs from 'node:fs/promises';
import path from 'node:path';
import type { VideoTools } from './ffmpeg.ts';
import { input } from './input-limits.ts';
import type { ProbedAudio, ProbedVideo } from './probe.ts';
import { ChildFailed, lastLine, runChild } from './run-child.ts';

/** A video transcoded into an HLS ladder: the steps it gets, ffmpeg's arguments for them, and the master playlist. */

/** One step of the HLS ladder. */
export interface Rendition {
  height: number;
  videoKbps: number;
  audioKbps: number;
}

/** The ladder's steps, lowest first; a video gets those not above its own height, since scaling up adds bytes and no detail. */
export const LADDER: readonly Rendition[] = [
  { height: 360, videoKbps: 800, audioKbps: 96 },
  { height: 720, videoKbps: 2800, audioKbps: 128 },
  { height: 1080, videoKbps: 5000, audioKbps: 128 },
];
export const SEGMENT_SECONDS = 6;
/**
 * x264's speed against quality per bit. A 20 s 1080p clip's three-step ladder took 8.5 s with
 * superfast and 13.0 s with veryfast on this 2-core machine (busy): only superfast keeps a
 * transcode within half the video's length. At these bit rates the difference is hard to see;
 * ultrafast (no CABAC) would be. `npm run bench -- --only=video` measures it.
 */
export const X264_PRESET = 'superfast';

/**
 * Whether a step carries the upload's sound as it is rather than encoding it again: AAC-LC, mono or
 * stereo at 44.1 or 48 kHz, which every HLS player plays, at a bit rate not much above the step's
 * own. Encoding AAC costs about a tenth of a second of CPU per second of sound, single-threaded,
 * for each step; most uploads (phones, screen recorders) have such sound already.
 */
export function keepsSound(audio: ProbedAudio, step: Rendition): boolean {
  return (
    audio.codec === 'aac' &&
    audio.profile === 'LC' &&
    (audio.channels === 1 || audio.channels === 2) &&
    (audio.sampleRate === 44_100 || audio.sampleRate === 48_000) &&
    audio.kbps !== null &&
    audio.kbps <= step.audioKbps * 1.25
  );
}

/** The steps of LADDER for a video `height` tall: never above it; a video below the lowest gets one step at its own height. */
export function ladderFor(height: number): Rendition[] {
  const steps = LADDER.filter((step) => step.height <= height);
  if (steps.length > 0) return steps;
  const even = Math.max(2, height - (height % 2));
  return [{ ...LADDER[0]!, height: even }];
}

/** A rendition transcoded into a work folder: its files, segments first and playlist last, and its line in the master playlist. */
export interface TranscodedRendition {
  index: number;
  segments: string[];
  playlist: string;
  streamInf: string;
}

/**
 * How the ladder is made: its lowest step alone first, so that it can be stored and played while
 * the rest follows in one more run (the picture decoded once and scaled for each of them).
 */
export function ladderRuns(renditions: Rendition[]): { firstIndex: number; renditions: Rendition[] }[] {
  const [lowest, ...rest] = renditions;
  if (!lowest) return [];
  return rest.length > 0
    ? [
        { firstIndex: 0, renditions: [lowest] },
        { firstIndex: 1, renditions: rest },
      ]
    : [{ firstIndex: 0, renditions: [lowest] }];
}

/**
 * Transcodes `file` into some steps of an HLS ladder in `outDir` (a folder of its own): a playlist
 * per rendition (`<index>.m3u8`, the index counted in the whole ladder from `firstIndex`) of
 * SEGMENT_SECONDS-long H.264/AAC segments (`<index>_00000.ts`…). The picture is decoded once and
 * scaled for every rendition of the run. `onProgress` gets the share done (0–1) as ffmpeg reports it.
 */
export async function transcodeToHls(
  tools: VideoTools,
  {
    file,
    outDir,
    video,
    renditions,
    firstIndex = 0,
    onProgress,
    signal,
  }: {
    file: string;
    outDir: string;
    video: ProbedVideo;
    renditions: Rendition[];
    firstIndex?: number;
    onProgress: (done: number) => void;
    signal?: AbortSignal;
  },
): Promise<TranscodedRendition[]> {
  const split = `[0:v]split=${renditions.length}${renditions.map((_, index) => `[s${index}]`).join('')}`;
  // Bilinear, not swscale's default bicubic: a third of the scaling's CPU, and the same picture once x264 has encoded it
  // (SSIM 0.997 to a Lanczos reference before encoding). A step at the source's own height is passed through unscaled.
  const scales = renditions.map((step, index) => `[s${index}]scale=-2:${step.height}:flags=bilinear[v${index}]`);
  const args = ['-hide_banner', '-v', 'error', '-nostdin', '-y', ...input(file), '-filter_complex', [split, ...scales].join(';')];
  renditions.forEach((step, index) => {
    args.push('-map', `[v${index}]`, `-c:v:${index}`, 'libx264', `-b:v:${index}`, `${step.videoKbps}k`);
    args.push(`-maxrate:v:${index}`, `${Math.round(step.videoKbps * 1.07)}k`, `-bufsize:v:${index}`, `${step.videoKbps * 1.5}k`);
  });
  const { audio } = video;
  if (audio) {
    renditions.forEach((step, index) => {
      args.push('-map', '0:a:0');
      if (keepsSound(audio, step)) args.push(`-c:a:${index}`, 'copy');
      else args.push(`-c:a:${index}`, 'aac', `-b:a:${index}`, `${step.audioKbps}k`, `-ac:a:${index}`, '2');
    });
  }
  const streamMap = renditions.map((_, index) => (audio ? `v:${index},a:${index}` : `v:${index}`)).join(' ');
  args.push(
    // No B-frames: x264 spends a sixth less CPU on 1080p (superfast decides where to put them), for the same SSIM at these bit rates.
    ...['-preset', X264_PRESET, '-bf', '0', '-pix_fmt', 'yuv420p', '-sc_threshold', '0'],
    // A key frame every SEGMENT_SECONDS, whatever the frame rate: every segment starts with one, and all renditions switch at the same points.
    ...['-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`],
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments'],
    // No -master_pl_name: the static ffmpeg 4.1 of the npm package crashes (SIGSEGV) writing it; masterPlaylist does.
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
  // Highest first: a file's new name is a step higher than its own, and is free only once that step's files have moved on.
  const made: TranscodedRendition[] = [];
  for (let runIndex = renditions.length - 1; runIndex >= 0; runIndex--) {
    made.unshift(await renamedRendition(outDir, video, renditions[runIndex]!, runIndex, firstIndex + runIndex));
  }
  return made;
}

/**
 * ffmpeg numbers a run's renditions from 0: the files of its `runIndex` get their `index` in the
 * ladder (the playlist rewritten to name them), and the rendition its line in the master playlist,
 * with its size and its BANDWIDTH as HLS defines it, the peak bit rate of its segments
 * (AVERAGE-BANDWIDTH beside it), measured from the segments written.
 */
async function renamedRendition(outDir: string, video: ProbedVideo, step: Rendition, runIndex: number, index: number): Promise<TranscodedRendition> {
  const written = await fs.readFile(path.join(outDir, `${runIndex}.m3u8`), 'utf8');
  const segments: string[] = [];
  let seconds = 0;
  let peak = 0;
  let bits = 0;
  let total = 0;
  const lines = [];
  for (const line of written.split('\n')) {
    if (line.startsWith('#EXTINF:')) seconds = Number.parseFloat(line.slice('#EXTINF:'.length));
    if (!line.trim().endsWith('.ts')) {
      lines.push(line);
      continue;
    }
    const name = line.trim().replace(/^\d+_/, `${index}_`);
    if (name !== line.trim()) await fs.rename(path.join(outDir, line.trim()), path.join(outDir, name));
    segments.push(name);
    lines.push(name);
    if (seconds > 0) {
      const segmentBits = (await fs.stat(path.join(outDir, name))).size * 8;
      peak = Math.max(peak, segmentBits / seconds);
      bits += segmentBits;
      total += seconds;
    }
  }
  const playlist = `${index}.m3u8`;
  if (runIndex !== index) {
    await fs.writeFile(path.join(outDir, playlist), lines.join('\n'));
    await fs.rm(path.join(outDir, `${runIndex}.m3u8`));
  }
  // As scale=-2:<height> makes it: the source's shape, rounded to an even width.
  const width = 2 * Math.round((video.width * step.height) / video.height / 2);
  const streamInf = `#EXT-X-STREAM-INF:BANDWIDTH=${Math.ceil(peak)},AVERAGE-BANDWIDTH=${Math.ceil(total > 0 ? bits / total : 0)},RESOLUTION=${width}x${step.height}\n${playlist}`;
  return { index, segments, playlist, streamInf };
}

/** `master.m3u8` of the renditions stored so far, lowest first: a player offers only those. */
export function masterPlaylist(stored: readonly TranscodedRendition[]): string {
  const entries = [...stored].sort((a, b) => a.index - b.index).map((rendition) => rendition.streamInf);
  return `${['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS', ...entries].join('\n')}\n`;
}
