/**
 * What the media route has found out about a video, kept a few seconds: a player asks for a range
 * every few seconds, and each request would otherwise ask the database again.
 *
 * - Anyone may play a free preview, so its signed URL names no viewer (ANY_VIEWER); what keeps it
 *   from opening other lectures is that the video still belongs to a preview lecture of a
 *   published course (`previewVideos`).
 * - A learner's signed URL is theirs alone, and plays while the video's course is published
 *   (`publishedVideos`): a course made a draft again stops its links, not only its pages.
 *
 * Any change to the catalogue forgets them all on every instance (changes.ts): turning a preview
 * off, unpublishing or deleting stops the links within milliseconds.
 */
export const VIDEO_TRUST_MS = 10_000;
/** Videos being watched at once are few; past this many the list starts over rather than grow. */
const MAX_VIDEOS = 10_000;

export interface VideoTrust {
  /** Whether the video at `key` was found to pass within VIDEO_TRUST_MS. */
  isTrusted(key: string): boolean;
  remember(key: string): void;
  forgetAll(): void;
}

export function createVideoTrust({ trustMs = VIDEO_TRUST_MS, now = Date.now } = {}): VideoTrust {
  const videos = new Map<string, number>();
  return {
    isTrusted(key) {
      const until = videos.get(key);
      return until !== undefined && until > now();
    },
    remember(key) {
      if (videos.size >= MAX_VIDEOS) videos.clear();
      videos.set(key, now() + trustMs);
    },
    forgetAll: () => videos.clear(),
  };
}
