import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** The ffmpeg the server would use (on PATH, else the npm package's), and the first line of its `-version`. */
function ffmpegAndVersion(): { ffmpeg: string; version: string } {
  const versionOf = (ffmpeg: string) => ({ ffmpeg, version: execFileSync(ffmpeg, ['-version'], { encoding: 'utf8' }).split('\n')[0]! });
  try {
    return versionOf('ffmpeg');
  } catch {
    return versionOf((createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path);
  }
}

/** Generated clips, kept between runs: a 60 s 1080p clip takes ffmpeg a quarter of a minute to make. */
const CLIP_CACHE = path.join(os.homedir(), '.cache', 'lms-bench');

/** A 1080p test picture with a tone, `seconds` long, in H.264/AAC at `videoBitrate` (ffmpeg's `-b:v`), written to `file`. */
export function writeTestClip(file: string, { seconds, videoBitrate, faststart = false }: { seconds: number; videoBitrate: string; faststart?: boolean }) {
  const { ffmpeg, version } = ffmpegAndVersion();
  const args = [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', videoBitrate, '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', ...(faststart ? ['-movflags', '+faststart'] : [])],
  ];
  // Named after what makes it, the ffmpeg included: another version writes other bytes.
  const kept = path.join(
    CLIP_CACHE,
    `${createHash('sha256')
      .update(JSON.stringify([version, args]))
      .digest('hex')
      .slice(0, 16)}.mp4`,
  );
  if (!fs.existsSync(kept)) {
    fs.mkdirSync(CLIP_CACHE, { recursive: true });
    const partial = `${kept}.${process.pid}.partial.mp4`;
    execFileSync(ffmpeg, [...args, '-shortest', partial]);
    fs.renameSync(partial, kept);
  }
  fs.copyFileSync(kept, file);
}
