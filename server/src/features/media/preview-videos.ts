/**
 * Anyone may play a free preview, so its signed URL names no viewer (ANY_VIEWER); what keeps
 * it from opening other lectures is that the media route checks, per request, that the video
 * still belongs to a preview lecture. A player asks for a range every few seconds, so a video
 * found to be a preview is trusted for PREVIEW_TRUST_MS.
 *
 * Any change to the catalogue forgets them all on every instance (changes.ts): turning a preview
 * off, or deleting it, stops its links within milliseconds.
 */
export const PREVIEW_TRUST_MS = 10_000;
/** Previews being watched at once are few; past this many the list starts over rather than grow. */
const MAX_VIDEOS = 10_000;

export interface PreviewVideos {
  /** Whether the video at `key` was found to be a preview within PREVIEW_TRUST_MS. */
  isTrusted(key: string): boolean;
  remember(key: string): void;
  forgetAll(): void;
}

export function createPreviewVideos({ trustMs = PREVIEW_TRUST_MS, now = Date.now } = {}): PreviewVideos {
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
