import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findVideoTools, type VideoTools } from '../features/video/ffmpeg.ts';

/** The ffmpeg the server would use here (PATH, else the npm packages'); tests of the pipeline need one. */
export async function testVideoTools(): Promise<VideoTools> {
  const found = await findVideoTools({});
  if (!found.available) throw new Error(`The video pipeline's tests need ffmpeg: ${found.reason}`);
  return found.tools;
}

/** Makes a test pattern clip (H.264, with a tone unless `audio` is false) at `file`. */
export async function makeClip(
  tools: VideoTools,
  file: string,
  { seconds = 3, width = 640, height = 360, audio = true }: { seconds?: number; width?: number; height?: number; audio?: boolean } = {},
): Promise<string> {
  await promisify(execFile)(tools.ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25`],
    ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'] : []),
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...(audio ? ['-c:a', 'aac', '-shortest'] : []),
    ...['-movflags', '+faststart', file],
  ]);
  return file;
}
