import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { HEARTBEAT_SECONDS, LEASE_SECONDS, WATERMARK_CODE_LENGTH, type Playback, type Stream, type StreamLimit } from '@lms/contract/protection';
import type { Context } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { courses, lectures, playbacks, streamRefusals } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { randomCode } from '../../random-code.ts';
import type { SignedInSession } from '../auth/session-cache.ts';
import { protectionOf } from '../settings/site-settings.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { addressBlockOf, describeDevice } from './devices.ts';

/**
 * Playbacks: a device playing an account's lectures holds a lease, renewed by the player's
 * heartbeat every HEARTBEAT_SECONDS and lapsing LEASE_SECONDS after the last one. An account plays
 * on at most `maxStreams` sessions at once (administrators are not limited); a session is a
 * device, so the tabs of one browser share its place. The media routes serve a learner's lecture
 * only to a session holding a lease (hasLiveLease). Each playback has a watermark code, shown over
 * the video and kept with the account, session, lecture, time and address block: a code read off a
 * leaked clip leads back to the account (trace.service.ts).
 */

const live = (now = sql`now()`) => and(isNull(playbacks.stoppedAt), gt(playbacks.endsAt, now));
const leaseEnd = sql`now() + make_interval(secs => ${LEASE_SECONDS})`;

export interface Viewer {
  session: SignedInSession;
  userAgent: string | undefined;
  address: string;
}

/** A lease to play `lectureId` here, or a refusal naming the devices already playing (`refused`). */
export async function startPlayback(
  ctx: Context,
  { session, userAgent, address }: Viewer,
  lectureId: string,
): Promise<{ playback: Playback } | { refused: StreamLimit }> {
  const { user } = session;
  const [lecture] = await ctx.db
    .select({ id: lectures.id, isPreview: lectures.isPreview, courseStatus: courses.status })
    .from(lectures)
    .innerJoin(courses, eq(courses.id, lectures.courseId))
    .where(eq(lectures.id, lectureId));
  const isAdmin = user.role === 'ADMIN';
  if (!lecture || (lecture.courseStatus !== 'published' && !isAdmin)) throw new AppError(404, answers.lectureNotFound);
  if (!canWatchLectures(user) && !lecture.isPreview) throw new AppError(403, answers.notAllowed);

  const protection = await protectionOf(ctx);
  const addressBlock = addressBlockOf(address);
  const device = describeDevice(userAgent).summary;
  const outcome = await ctx.db.transaction(async (tx) => {
    // One start at a time per account: two devices starting at once cannot both take the last place.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('playback'), hashtext(${user.id}))`);
    if (!isAdmin) {
      const [others] = await tx
        .select({ sessions: sql<number>`count(DISTINCT ${playbacks.sessionId})::int` })
        .from(playbacks)
        .where(and(eq(playbacks.userId, user.id), ne(playbacks.sessionId, session.id), live()));
      if (others!.sessions >= protection.maxStreams) {
        await tx.insert(streamRefusals).values({ userId: user.id, addressBlock });
        return { refused: true as const };
      }
    }
    // A code is 40 random bits: a clash is rare, and a second draw settles it.
    for (let attempt = 0; ; attempt++) {
      try {
        const [row] = await tx.transaction((savepoint) =>
          savepoint
            .insert(playbacks)
            .values({ code: newCode(), userId: user.id, sessionId: session.id, lectureId, addressBlock, device, endsAt: leaseEnd })
            .returning(),
        );
        return { row: row! };
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
  });
  if ('refused' in outcome) {
    return {
      refused: { success: false, message: answers.streamLimit(protection.maxStreams), limit: protection.maxStreams, streams: await liveStreams(ctx, session) },
    };
  }
  const { row } = outcome;
  ctx.leases.beginRead()(session.id, row.endsAt);
  return {
    playback: {
      id: row.id,
      watermark: { text: maskEmail(user.email), code: row.code, opacity: protection.watermarkOpacity, size: protection.watermarkSize },
      heartbeatSeconds: HEARTBEAT_SECONDS,
      endsAt: row.endsAt.toISOString(),
    },
  };
}

/**
 * Moves the lease's end on. Only from the session that holds it: a heartbeat replayed from
 * anywhere else, or for another account's lease, is 403; a lease stopped or lapsed is 410 (the
 * player says so, and may start again, which the limit may refuse).
 */
export async function renewPlayback(ctx: Context, session: SignedInSession, playbackId: string): Promise<Date> {
  const keep = ctx.leases.beginRead();
  const [renewed] = await ctx.db
    .update(playbacks)
    .set({ lastBeatAt: sql`now()`, endsAt: leaseEnd })
    .where(and(eq(playbacks.id, playbackId), eq(playbacks.userId, session.user.id), eq(playbacks.sessionId, session.id), live()))
    .returning({ endsAt: playbacks.endsAt });
  if (renewed) {
    keep(session.id, renewed.endsAt);
    return renewed.endsAt;
  }
  const [found] = await ctx.db
    .select({ sessionId: playbacks.sessionId, userId: playbacks.userId, stoppedAt: playbacks.stoppedAt })
    .from(playbacks)
    .where(eq(playbacks.id, playbackId));
  if (!found || found.userId !== session.user.id || found.sessionId !== session.id) throw new AppError(403, answers.notAllowed);
  throw new AppError(410, found.stoppedAt ? answers.playbackEnded : answers.playbackLapsed);
}

/** Stops a lease of the account's, here or on another of its devices; stopping one already over is no error. */
export async function stopPlayback(ctx: Context, session: SignedInSession, playbackId: string): Promise<void> {
  const [found] = await ctx.db.select({ userId: playbacks.userId }).from(playbacks).where(eq(playbacks.id, playbackId));
  if (!found || found.userId !== session.user.id) throw new AppError(403, answers.notAllowed);
  await ctx.db
    .update(playbacks)
    .set({ stoppedAt: sql`now()` })
    .where(and(eq(playbacks.id, playbackId), isNull(playbacks.stoppedAt)));
  // Every instance drops the session's lease before the answer: the slot is free at once.
  await ctx.changes.caughtUp();
}

/** The account's devices playing now, one per session (its latest playback), the most recent first. */
export async function liveStreams(ctx: Context, session: SignedInSession): Promise<Stream[]> {
  const rows = await ctx.db
    .selectDistinctOn([playbacks.sessionId], {
      id: playbacks.id,
      sessionId: playbacks.sessionId,
      device: playbacks.device,
      place: playbacks.addressBlock,
      lectureTitle: lectures.title,
      lastSeenAt: playbacks.lastBeatAt,
    })
    .from(playbacks)
    .leftJoin(lectures, eq(lectures.id, playbacks.lectureId))
    .where(and(eq(playbacks.userId, session.user.id), live()))
    .orderBy(playbacks.sessionId, desc(playbacks.lastBeatAt));
  return rows
    .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
    .map((row) => ({
      id: row.id,
      device: row.device,
      place: row.place,
      lectureTitle: row.lectureTitle,
      lastSeenAt: row.lastSeenAt.toISOString(),
      thisSession: row.sessionId === session.id,
    }));
}

/** Whether the session holds a lease now: asked by every segment a learner's player fetches. */
export async function hasLiveLease(ctx: Context, sessionId: string): Promise<boolean> {
  if (ctx.leases.isLive(sessionId)) return true;
  const keep = ctx.leases.beginRead();
  const [row] = await ctx.db
    .select({ endsAt: sql<Date>`max(${playbacks.endsAt})`.mapWith(playbacks.endsAt) })
    .from(playbacks)
    .where(and(eq(playbacks.sessionId, sessionId), live()));
  if (!row?.endsAt) return false;
  keep(sessionId, row.endsAt);
  return true;
}

const newCode = () => randomCode(WATERMARK_CODE_LENGTH);

/** "ra•••@gmail.com": enough for the viewer to see it is theirs, and for a leaked clip to worry them. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const shown = Array.from(local)
    .slice(0, local.length > 3 ? 2 : 1)
    .join('');
  return `${shown}•••${email.slice(at)}`;
}

/**
 * How long a playback is kept once its lease is over: a clip surfaces months after it was
 * recorded, so its code must still lead somewhere; after a year the trace has done its work.
 * Refused streams count only for the last day's sharing risk: a week is plenty.
 */
export const PLAYBACK_HISTORY_DAYS = 365;
export const REFUSAL_HISTORY_DAYS = 7;

/** Forgets playbacks and refusals past their time: the hourly `playback-history` job. */
export async function forgetOldPlaybacks(ctx: Context): Promise<void> {
  // By the start's index: a lease is over within a day of its start (it lapses without heartbeats).
  await ctx.db
    .delete(playbacks)
    .where(
      and(
        lt(playbacks.startedAt, sql`now() - make_interval(days => ${PLAYBACK_HISTORY_DAYS + 1})`),
        lt(playbacks.endsAt, sql`now() - make_interval(days => ${PLAYBACK_HISTORY_DAYS})`),
      ),
    );
  await ctx.db.delete(streamRefusals).where(lt(streamRefusals.at, sql`now() - make_interval(days => ${REFUSAL_HISTORY_DAYS})`));
}
