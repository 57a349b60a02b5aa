import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { makeClip, testVideoTools } from '../../test/video.ts';
import { describeFfmpeg, ffmpegWarning, findVideoTools, type VideoTools } from './ffmpeg.ts';
import { keepsSound, ladderFor, ladderRuns, masterPlaylist, transcodeToHls } from './hls-transcode.ts';
import { grabFrame, probeVideo, UnreadableVideo, type ProbedVideo } from './probe.ts';

let tools: VideoTools;
let dir: string;
let clip: string;

beforeAll(async () => {
  tools = await testVideoTools();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-ffmpeg-'));
  clip = await makeClip(tools, path.join(dir, 'clip.mp4'), { seconds: 3, width: 640, height: 360 });
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('findVideoTools', () => {
  it('uses the binaries shipped in the npm packages, which a fresh machine without ffmpeg has, and says they are the old build to replace', async () => {
    const require = createRequire(import.meta.url);
    const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    const ffprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
    const found = await findVideoTools({ ffmpegPath: ffmpeg, ffprobePath: ffprobe });
    expect(found).toMatchObject({ available: true, tools: { ffmpeg, ffprobe } });
    const { build } = (found as { tools: VideoTools }).tools;
    // The package's ffmpeg calls itself by a git snapshot of December 2018, between 4.1 and 4.2.
    expect(build).toEqual({ version: '4.1', path: ffmpeg, origin: 'npm', year: 2018 });
    expect(describeFfmpeg(build)).toBe('ffmpeg 4.1 (bundled npm build, 2018)');
    expect(ffmpegWarning(build)).toBe(answers.videoFfmpegOutdated(2018));
    // And they do the work: the shipped ffprobe reads the clip.
    expect(found.available && (await probeVideo(found.tools, clip)).height).toBe(360);
  });

  describe('on PATH', () => {
    let path0: string | undefined;
    /** ffmpeg and ffprobe in a folder of their own, answering -version with `firstLine`. */
    async function toolsSaying(firstLine: string): Promise<string> {
      const folder = await fs.mkdtemp(path.join(dir, 'on-path-'));
      for (const name of ['ffmpeg', 'ffprobe']) {
        await fs.writeFile(path.join(folder, name), `#!/bin/sh\necho '${firstLine.replace('ffmpeg', name)}'\n`, { mode: 0o755 });
      }
      process.env.PATH = `${folder}${path.delimiter}${path0}`;
      return folder;
    }
    beforeAll(() => {
      path0 = process.env.PATH;
    });
    afterEach(() => {
      process.env.PATH = path0;
    });

    it.each([
      [
        'Debian',
        'ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 the FFmpeg developers',
        { version: '5.1.9', origin: 'Debian', year: 2026 },
        'ffmpeg 5.1.9 (Debian, <folder>/ffmpeg)',
      ],
      [
        'Ubuntu',
        'ffmpeg version 6.1.1-3ubuntu5 Copyright (c) 2000-2023 the FFmpeg developers',
        { version: '6.1.1', origin: 'Ubuntu', year: 2023 },
        'ffmpeg 6.1.1 (Ubuntu, <folder>/ffmpeg)',
      ],
      [
        'its own build',
        'ffmpeg version n7.1 Copyright (c) 2000-2024 the FFmpeg developers',
        { version: '7.1', origin: null, year: 2024 },
        'ffmpeg 7.1 (<folder>/ffmpeg)',
      ],
      [
        'a snapshot',
        'ffmpeg version N-113000-gabcdef0123 Copyright (c) 2000-2024 the FFmpeg developers',
        { version: 'N-113000-gabcdef0123', origin: null, year: 2024 },
        'ffmpeg N-113000-gabcdef0123 (<folder>/ffmpeg)',
      ],
    ] as const)("is preferred to the npm package's, and named for the admin: %s", async (_, firstLine, build, description) => {
      const folder = await toolsSaying(firstLine);
      const found = await findVideoTools({});
      expect(found).toEqual({
        available: true,
        tools: { ffmpeg: path.join(folder, 'ffmpeg'), ffprobe: path.join(folder, 'ffprobe'), build: { ...build, path: path.join(folder, 'ffmpeg') } },
      });
      const { build: named } = (found as { tools: VideoTools }).tools;
      expect(describeFfmpeg(named)).toBe(description.replace('<folder>', folder));
      expect(ffmpegWarning(named)).toBeNull();
    });
  });

  it('reports an explicit FFMPEG_PATH that cannot run, rather than quietly using another', async () => {
    const found = await findVideoTools({ ffmpegPath: '/nowhere/ffmpeg', ffprobePath: '/nowhere/ffprobe' });
    expect(found.available).toBe(false);
    expect(!found.available && found.reason).toContain('/nowhere/ffmpeg could not run');
  });
});

describe('probeVideo', () => {
  it('reads the duration, size and codecs', async () => {
    const video = await probeVideo(tools, clip);
    expect(video.durationSeconds).toBeCloseTo(3, 0);
    expect(video).toMatchObject({ width: 640, height: 360, videoCodec: 'h264', audio: { codec: 'aac', profile: 'LC', sampleRate: 44_100 } });
  });

  it('says a file is no video it can read, with ffprobe’s words', async () => {
    const junk = path.join(dir, 'junk.mp4');
    // An MP4's first bytes (as the upload check sees them), then noise.
    await fs.writeFile(junk, Buffer.concat([Buffer.from('000000206674797069736f6d', 'hex'), randomBytes(5000)]));
    const error = await probeVideo(tools, junk).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnreadableVideo);
    expect((error as UnreadableVideo).detail.length).toBeGreaterThan(0);
  });

  it('refuses sound without a picture', async () => {
    const sound = path.join(dir, 'sound.m4a');
    await fs.copyFile(await makeClip(tools, path.join(dir, 'with-sound.mp4'), { seconds: 1 }), path.join(dir, 'copy.mp4'));
    const { execFile } = await import('node:child_process');
    await new Promise<void>((resolve, reject) =>
      execFile(tools.ffmpeg, ['-v', 'error', '-y', '-i', path.join(dir, 'copy.mp4'), '-vn', '-c:a', 'copy', sound], (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    await expect(probeVideo(tools, sound)).rejects.toMatchObject({ detail: 'no video stream' });
  });
});

describe('grabFrame', () => {
  it('cuts a frame as a PNG no wider than asked', async () => {
    const png = await grabFrame(tools, clip, 1, 320);
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 320, height: 180 });
  });
});

describe('ladderFor', () => {
  it('never goes above the source, and gives a small video one step of its own height', () => {
    expect(ladderFor(1080).map((step) => step.height)).toEqual([360, 720, 1080]);
    expect(ladderFor(2160).map((step) => step.height)).toEqual([360, 720, 1080]);
    expect(ladderFor(719).map((step) => step.height)).toEqual([360]);
    expect(ladderFor(240).map((step) => step.height)).toEqual([240]);
    expect(ladderFor(241).map((step) => step.height)).toEqual([240]);
  });
});

describe('transcodeToHls', () => {
  it('makes a master playlist naming each rendition with its size, playlists of ≤ 6 s segments, and reports progress to the end', async () => {
    const source = await makeClip(tools, path.join(dir, 'tall.mp4'), { seconds: 8, width: 1280, height: 720 });
    const outDir = path.join(dir, 'hls');
    await fs.mkdir(outDir);
    const progress: number[] = [];
    const video = await probeVideo(tools, source);
    const runs = ladderRuns(ladderFor(video.height));
    // The lowest step alone, then the rest: each run's files numbered in the whole ladder.
    expect(runs.map((run) => run.renditions.map((step) => step.height))).toEqual([[360], [720]]);
    const made = [];
    // Each run in a folder of its own, as the pipeline gives it: ffmpeg numbers every run's files from 0.
    const runDir = (firstIndex: number) => path.join(outDir, `run-${firstIndex}`);
    for (const run of runs) {
      await fs.mkdir(runDir(run.firstIndex));
      made.push(
        ...(await transcodeToHls(tools, {
          file: source,
          outDir: runDir(run.firstIndex),
          video,
          renditions: run.renditions,
          firstIndex: run.firstIndex,
          onProgress: (done) => progress.push(done),
        })),
      );
    }
    expect(masterPlaylist(made.slice(0, 1)).match(/RESOLUTION=\d+x\d+/g)).toEqual(['RESOLUTION=640x360']);
    const master = masterPlaylist(made);
    expect(master).toContain('#EXTM3U');
    expect(master.match(/RESOLUTION=\d+x\d+/g)).toEqual(['RESOLUTION=640x360', 'RESOLUTION=1280x720']);
    // The peak bit rate of each rendition's segments: the higher rendition needs more.
    const bandwidths = [...master.matchAll(/[^-]BANDWIDTH=(\d+)/g)].map((match) => Number(match[1]));
    expect(bandwidths).toHaveLength(2);
    expect(bandwidths[0]).toBeGreaterThan(100_000);
    expect(bandwidths[1]).toBeGreaterThan(bandwidths[0]!);
    expect(master.split('\n').filter((line) => line.endsWith('.m3u8'))).toEqual(['0.m3u8', '1.m3u8']);

    for (const rendition of [0, 1]) {
      const folder = runDir(rendition);
      const playlist = await fs.readFile(path.join(folder, `${rendition}.m3u8`), 'utf8');
      expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(playlist).toContain('#EXT-X-ENDLIST');
      const segments = playlist.split('\n').filter((line) => line.endsWith('.ts'));
      // 8 s in 6 s segments: two.
      expect(segments).toEqual([`${rendition}_00000.ts`, `${rendition}_00001.ts`]);
      const lengths = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((match) => Number(match[1]));
      expect(Math.max(...lengths)).toBeLessThanOrEqual(6.1);
      for (const segment of segments) expect((await fs.stat(path.join(folder, segment))).size).toBeGreaterThan(1000);
    }
    expect(progress.at(-1)).toBeGreaterThan(0.9);
  });

  it('numbers the files of a run of several steps in the whole ladder, each step keeping its own', async () => {
    const source = await makeClip(tools, path.join(dir, 'steps.mp4'), { seconds: 3, width: 640, height: 360 });
    const video = await probeVideo(tools, source);
    const outDir = path.join(dir, 'hls-steps');
    await fs.mkdir(outDir);
    // As the second run of a 1080p ladder: its two steps become the ladder's 1 and 2.
    const steps = [
      { height: 180, videoKbps: 200, audioKbps: 64 },
      { height: 360, videoKbps: 600, audioKbps: 64 },
    ];
    const made = await transcodeToHls(tools, { file: source, outDir, video, renditions: steps, firstIndex: 1, onProgress: () => undefined });
    expect(made.map((rendition) => rendition.playlist)).toEqual(['1.m3u8', '2.m3u8']);
    expect((await fs.readdir(outDir)).filter((name) => name.endsWith('.m3u8')).sort()).toEqual(['1.m3u8', '2.m3u8']);
    for (const [index, rendition] of made.entries()) {
      const playlist = await fs.readFile(path.join(outDir, rendition.playlist), 'utf8');
      const segments = playlist.split('\n').filter((line) => line.endsWith('.ts'));
      expect(segments).toEqual(rendition.segments);
      expect(segments.every((name) => name.startsWith(`${index + 1}_`))).toBe(true);
      // Each playlist's segments are its own step's picture, not the other's.
      const frame = await sharp(await grabFrame(tools, path.join(outDir, segments[0]!), 0, 2000)).metadata();
      expect(frame.height).toBe(steps[index]!.height);
    }
  });

  it('gives every step sound: the upload’s AAC as it is where its bit rate suits the step, AAC encoded for it where not', async () => {
    // Stereo AAC-LC at about 128 kb/s: too much for a 64 kb/s step, right for a 128 kb/s one.
    const source = path.join(dir, 'loud.mp4');
    await promisify(execFile)(tools.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25'],
      ...['-f', 'lavfi', '-i', 'anoisesrc=sample_rate=48000:amplitude=0.5', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ac', '2', '-b:a', '128k', '-shortest', source],
    ]);
    const video = await probeVideo(tools, source);
    expect(video.audio).toMatchObject({ codec: 'aac', profile: 'LC', channels: 2, sampleRate: 48_000 });
    const steps = [
      { height: 180, videoKbps: 200, audioKbps: 64 },
      { height: 360, videoKbps: 600, audioKbps: 128 },
    ];
    expect(steps.map((step) => keepsSound(video.audio!, step))).toEqual([false, true]);
    const outDir = path.join(dir, 'hls-sound');
    await fs.mkdir(outDir);
    const made = await transcodeToHls(tools, { file: source, outDir, video, renditions: steps, onProgress: () => undefined });
    const bitRates = [];
    for (const rendition of made) {
      const sound = await probeVideo(tools, path.join(outDir, rendition.segments[0]!));
      expect(sound.audio).toMatchObject({ codec: 'aac', channels: 2, sampleRate: 48_000 });
      const bytes = await Promise.all(rendition.segments.map(async (name) => (await fs.stat(path.join(outDir, name))).size));
      bitRates.push(bytes.reduce((sum, size) => sum + size, 0));
    }
    // The step at 64 kb/s is lighter than its picture alone would make it: its sound was encoded to its own rate.
    expect(bitRates[0]).toBeLessThan(bitRates[1]!);
  });

  it('keeps only sound every HLS player plays, at a rate near the step’s', () => {
    const step = { height: 360, videoKbps: 800, audioKbps: 96 };
    const aac = { codec: 'aac', profile: 'LC', channels: 2, sampleRate: 44_100, kbps: 96 };
    expect(keepsSound(aac, step)).toBe(true);
    expect(keepsSound({ ...aac, channels: 1, sampleRate: 48_000, kbps: 64 }, step)).toBe(true);
    for (const other of [
      { ...aac, kbps: 192 },
      { ...aac, kbps: null },
      { ...aac, profile: 'HE-AAC' },
      { ...aac, channels: 6 },
      { ...aac, sampleRate: 22_050 },
      { ...aac, codec: 'mp3' },
      { ...aac, codec: 'opus', profile: null },
    ])
      expect(keepsSound(other, step)).toBe(false);
  });

  it('stops ffmpeg when asked to', async () => {
    const outDir = path.join(dir, 'stopped');
    await fs.mkdir(outDir);
    const video = await probeVideo(tools, clip);
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    await expect(
      transcodeToHls(tools, { file: clip, outDir, video, renditions: ladderFor(360), onProgress: () => undefined, signal: controller.signal }),
    ).rejects.toThrow();
  });
});

describe('what ffmpeg and ffprobe may open', () => {
  /** A stand-in for `binary` that appends its arguments to `log` (one a line, a blank line after each run), then runs it. */
  async function recording(binary: string, log: string): Promise<string> {
    const script = path.join(dir, `recording-${path.basename(binary)}-${randomBytes(4).toString('hex')}`);
    await fs.writeFile(script, `#!/bin/sh\n{ for arg in "$@"; do printf '%s\\n' "$arg"; done; echo; } >> "${log}"\nexec "${binary}" "$@"\n`, { mode: 0o755 });
    return script;
  }

  it('every input of every run is a local file, read only through the demuxers of video containers', async () => {
    const log = path.join(dir, `arguments-${randomBytes(4).toString('hex')}.log`);
    const recorded: VideoTools = { ...tools, ffmpeg: await recording(tools.ffmpeg, log), ffprobe: await recording(tools.ffprobe, log) };
    const outDir = path.join(dir, 'recorded-hls');
    await fs.mkdir(outDir);
    const video = await probeVideo(recorded, clip);
    await grabFrame(recorded, clip, 1, 320);
    await transcodeToHls(recorded, { file: clip, outDir, video, renditions: ladderFor(video.height), onProgress: () => undefined });

    const runs = (await fs.readFile(log, 'utf8'))
      .split('\n\n')
      .filter(Boolean)
      .map((run) => run.split('\n'));
    expect(runs).toHaveLength(3);
    for (const args of runs) {
      // The upload is named once, as the value of the one -i (ffprobe would also take a bare name as its input).
      expect(
        args.filter((arg) => arg === clip),
        args.join(' '),
      ).toHaveLength(1);
      const at = args.indexOf('-i');
      expect(args[at + 1]).toBe(clip);
      expect(args.slice(at - 4, at)).toEqual(['-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,avi,mpeg,mpegts,flv,ogg,asf']);
    }
  });

  describe('a playlist or a list dressed as a video', () => {
    let other: string;
    let server: http.Server;
    let origin: string;
    const asked: string[] = [];
    beforeAll(async () => {
      // Another lecture's video, which the crafted files name.
      other = await makeClip(tools, path.join(dir, 'other-lecture.mp4'), { seconds: 2, width: 320, height: 240, audio: false });
      const bytes = await fs.readFile(other);
      server = http.createServer((request, response) => {
        asked.push(request.url ?? '');
        response.end(bytes);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise((resolve) => server?.close(resolve)));

    const hls = (uri: string) => `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${uri}\n#EXT-X-ENDLIST\n`;
    const dash = (uri: string) =>
      `<?xml version="1.0"?>\n<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT1S">` +
      `<Period><AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" width="320" height="240" codecs="avc1.64000d"><BaseURL>${uri}</BaseURL></Representation></AdaptationSet></Period></MPD>\n`;
    const crafted: [string, () => string][] = [
      ['an HLS playlist naming another video on this machine', () => hls(other)],
      ['a DASH manifest naming another video on this machine', () => dash(other)],
      ['a concat list naming a video beside it', () => `ffconcat version 1.0\nfile ${path.basename(other)}\n`],
      ['an HLS playlist naming a URL', () => hls(`${origin}/segment.ts`)],
      ['a DASH manifest naming a URL', () => dash(`${origin}/video.mp4`)],
    ];

    it.each(crafted)('%s is no video: ffprobe and ffmpeg refuse it and open nothing it names', async (_, content) => {
      const file = path.join(dir, `crafted-${randomBytes(4).toString('hex')}.mp4`);
      await fs.writeFile(file, content());
      // Had ffprobe followed the file, it would have found the other video's 320×240 picture.
      await expect(probeVideo(tools, file)).rejects.toBeInstanceOf(UnreadableVideo);
      await expect(grabFrame(tools, file, 0, 320)).rejects.toThrow();
      const outDir = path.join(dir, `crafted-hls-${randomBytes(4).toString('hex')}`);
      await fs.mkdir(outDir);
      const claimed: ProbedVideo = { durationSeconds: 2, width: 320, height: 240, videoCodec: 'h264', audio: null };
      await expect(transcodeToHls(tools, { file, outDir, video: claimed, renditions: ladderFor(240), onProgress: () => undefined })).rejects.toThrow();
      expect(await fs.readdir(outDir)).toEqual([]);
      expect(asked).toEqual([]);
    });
  });
});
