import type { VideoTools } from './ffmpeg.ts';
import { input } from './input-limits.ts';
import { ChildFailed, lastLine, runChild } from './run-child.ts';

/** What is in a video: its length, size and codecs (ffprobe), and a frame of it (ffmpeg). */

/** What ffprobe found in a video. */
export interface ProbedVideo {
  durationSeconds: number;
  width: number;
  height: number;
  videoCodec: string;
  /** Its sound (the first audio stream), as far as whether HLS can carry it unchanged; null for a video without sound. */
  audio: ProbedAudio | null;
}

export interface ProbedAudio {
  codec: string;
  /** AAC's profile ("LC", "HE-AAC"…), when ffprobe names one. */
  profile: string | null;
  channels: number;
  sampleRate: number;
  /** Null when the container does not say (Matroska). */
  kbps: number | null;
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
    streams?: {
      codec_type?: string;
      codec_name?: string;
      profile?: string;
      width?: number;
      height?: number;
      channels?: number;
      sample_rate?: string;
      bit_rate?: string;
      duration?: string;
      disposition?: { attached_pic?: number };
    }[];
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
    audio: audio
      ? {
          codec: audio.codec_name ?? 'unknown',
          profile: audio.profile ?? null,
          channels: audio.channels ?? 0,
          sampleRate: Number(audio.sample_rate) || 0,
          kbps: Number(audio.bit_rate) > 0 ? Number(audio.bit_rate) / 1000 : null,
        }
      : null,
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
