import { z } from 'zod';
import { ReplySchema as Reply } from './envelope.ts';

/** Whether this server can process videos (admin): when it cannot, why, and what it uses when it can. */
export const VideoStatusResponseSchema = Reply.extend({
  available: z.boolean(),
  /** Why processing is off (no ffmpeg could run); null when it is on. */
  reason: z.string().nullable(),
  /** The ffmpeg in use, e.g. "ffmpeg 5.1.9 (Debian, /usr/bin/ffmpeg)"; null when off. */
  ffmpeg: z.string().nullable(),
  /** Why that ffmpeg should be replaced, and how (the npm package's old build); null when it need not be. */
  ffmpegWarning: z.string().nullable(),
});
export type VideoStatusResponse = z.infer<typeof VideoStatusResponseSchema>;
