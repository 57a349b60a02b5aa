/**
 * What the media routes have found out about a video, kept a few seconds: a player asks for a
 * segment or a range every few seconds, and each request would otherwise ask the database again.
 *
 * A video is found by its key (the upload, or the HLS folder) among the lectures of published
 * courses: whether its lecture is a free preview now, and whether the lecture's HLS ladder is
 * ready (from then on learners are given the ladder only, and its upload answers them 403).
 *
 * - Anyone may play a free preview, so its signed URL names no viewer (ANY_VIEWER); what keeps it
 *   from opening other lectures is that the video still belongs to a preview lecture.
 * - A learner's signed URL is theirs alone, and plays while the video's course is published:
 *   a course made a draft again stops its links, not only its pages.
 *
 * Any change to the catalogue forgets them all on every instance (changes.ts): turning a preview
 * off, unpublishing or deleting stops the links within milliseconds.
 */
export const VIDEO_TRUST_MS = 10_000;
/** Videos being watched at once are few; past this many the list starts over rather than grow. */
const MAX_VIDEOS = 10_000;

/** A video of a published course's lecture. */
export interface PublishedVideo {
  preview: boolean;
  /** The lecture's HLS ladder is ready: what learners are given to play. */
  ladderReady: boolean;
}

export interface VideoTrust {
  /** What was found about the video at `key` within VIDEO_TRUST_MS, if anything. */
  factsOf(key: string): PublishedVideo | undefined;
  remember(key: string, facts: PublishedVideo): void;
  forgetAll(): void;
}

export function createVideoTrust({ trustMs = VIDEO_TRUST_MS, now = Date.now } = {}): VideoTrust {
  const videos = new Map<string, { facts: PublishedVideo; until: number }>();
  return {
    factsOf(key) {
      const entry = videos.get(key);
      return entry && entry.until > now() ? entry.facts : undefined;
    },
    remember(key, facts) {
      if (videos.size >= MAX_VIDEOS) videos.clear();
      videos.set(key, { facts, until: now() + trustMs });
    },
    forgetAll: () => videos.clear(),
  };
}
