import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

/** The ffmpeg the server would use: on PATH, else the npm package's. */
export function ffmpegBinary(): string {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return 'ffmpeg';
  } catch {
    return (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  }
}

/** A 1080p test picture with a tone, `seconds` long, in H.264/AAC at `videoBitrate` (ffmpeg's `-b:v`), written to `file`. */
export function writeTestClip(file: string, { seconds, videoBitrate, faststart = false }: { seconds: number; videoBitrate: string; faststart?: boolean }) {
  execFileSync(ffmpegBinary(), [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', videoBitrate, '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', ...(faststart ? ['-movflags', '+faststart'] : []), '-shortest', file],
  ]);
}
