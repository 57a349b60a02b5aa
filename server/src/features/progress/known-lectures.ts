import { eq } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import { lectures } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { canWatchLectures } from '../users/users.service.ts';

/**
 * Lectures this instance has lately seen exist, and whether each is a free preview: what a save
 * needs to know before it is held (held-saves.ts), without asking the database on every save of a
 * flood. A save within the rate learns it for free (its statement reads the lecture); a held save
 * of a lecture not seen costs one lookup by primary key.
 *
 * Trusted for TRUST_MS only, and never about a lecture that does not exist. Being out of date
 * costs little: a held save is written by the same statement as any other, which reads the lecture
 * again and drops the save of a lecture deleted or made private meanwhile.
 */
const TRUST_MS = 60_000;
/** Lectures watched at once on one instance are far fewer; past this many the list starts over rather than grow. */
const MAX_LECTURES = 20_000;

export interface KnownLectures {
  /** Whether the lecture is a free preview, as last seen within TRUST_MS; undefined when not seen. */
  isPreview(lectureId: string): boolean | undefined;
  remember(lectureId: string, isPreview: boolean): void;
}

export function createKnownLectures({ trustMs = TRUST_MS, now = Date.now } = {}): KnownLectures {
  const seen = new Map<string, { isPreview: boolean; until: number }>();
  return {
    isPreview(lectureId) {
      const entry = seen.get(lectureId);
      return entry && entry.until > now() ? entry.isPreview : undefined;
    },
    remember(lectureId, isPreview) {
      if (seen.size >= MAX_LECTURES) seen.clear();
      seen.set(lectureId, { isPreview, until: now() + trustMs });
    },
  };
}

/**
 * Refuses, before anything is held, a save the statement would refuse anyway: 404 for a lecture
 * that does not exist, 403 for one the learner may not watch (free previews are anyone's).
 */
export async function checkSaveMayBeHeld(ctx: Context, known: KnownLectures, user: UserRow, lectureId: string): Promise<void> {
  // A subscriber or an admin may save any lecture that exists; others only previews.
  let isPreview = known.isPreview(lectureId);
  if (isPreview === undefined) {
    const [lecture] = await ctx.db.select({ isPreview: lectures.isPreview }).from(lectures).where(eq(lectures.id, lectureId));
    if (!lecture) throw new AppError(404, answers.lectureNotFound);
    known.remember(lectureId, lecture.isPreview);
    isPreview = lecture.isPreview;
  }
  if (!isPreview && !canWatchLectures(user)) throw new AppError(403, answers.subscribeToWatch);
}
