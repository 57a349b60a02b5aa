import { desc, eq, sql } from 'drizzle-orm';
import type { AccountSummary, SharingRisk, TracedPlayback } from '@lms/contract/protection';
import type { Context } from '../../context.ts';
import { courses, lectures, playbacks, users } from '../../db/schema.ts';
import { protectionOf } from '../settings/site-settings.ts';

/**
 * What an administrator reads about shared accounts and leaked clips: the playbacks a watermark
 * code seen in a clip belongs to, and the accounts that look shared (seen from many address
 * blocks, or refused many streams, in the last day).
 */

/** The most playbacks a trace lists: a code of four characters may match many, the newest matter. */
export const TRACE_LIMIT = 20;
/** The most accounts the sharing-risk list shows, the worst first. */
export const SHARING_RISK_LIMIT = 50;
export const SHARING_RISK_WINDOW_HOURS = 24;

/** An account's signed-in sessions now: those not yet expired. */
const activeSessionsOf = (userId: unknown) => sql<number>`(select count(*) from sessions s where s.user_id = ${userId} and s.expires_at > now())::int`;

/**
 * The playbacks whose code contains `code` (normalised by the contract: alphabet characters only),
 * anywhere in it, newest first. Codes are read off a clip in part: the start may be cropped out.
 */
export async function tracePlaybacks(ctx: Context, code: string): Promise<TracedPlayback[]> {
  const rows = await ctx.db
    .select({
      code: playbacks.code,
      startedAt: playbacks.startedAt,
      lastBeatAt: playbacks.lastBeatAt,
      place: playbacks.addressBlock,
      device: playbacks.device,
      userId: users.id,
      fullName: users.fullName,
      email: users.email,
      role: users.role,
      suspendedAt: users.suspendedAt,
      activeSessions: activeSessionsOf(users.id).mapWith(Number),
      lectureId: lectures.id,
      lectureTitle: lectures.title,
      courseId: courses.id,
      courseTitle: courses.title,
    })
    .from(playbacks)
    .innerJoin(users, eq(users.id, playbacks.userId))
    .leftJoin(lectures, eq(lectures.id, playbacks.lectureId))
    .leftJoin(courses, eq(courses.id, lectures.courseId))
    // position(), not LIKE: nothing in the code is a pattern, whatever it holds.
    .where(sql`position(${code} in ${playbacks.code}) > 0`)
    .orderBy(desc(playbacks.startedAt), desc(playbacks.id))
    .limit(TRACE_LIMIT);
  return rows.map((row) => ({
    code: row.code,
    account: {
      _id: row.userId,
      fullName: row.fullName,
      email: row.email,
      role: row.role,
      suspended: row.suspendedAt !== null,
      activeSessions: row.activeSessions,
    },
    lecture:
      row.lectureId && row.lectureTitle !== null && row.courseId && row.courseTitle !== null
        ? { _id: row.lectureId, title: row.lectureTitle, courseId: row.courseId, courseTitle: row.courseTitle }
        : null,
    startedAt: row.startedAt.toISOString(),
    lastSeenAt: row.lastBeatAt.toISOString(),
    place: row.place,
    device: row.device,
  }));
}

export interface SharingRiskList {
  windowHours: number;
  addressBlocks: number;
  refusals: number;
  accounts: SharingRisk[];
}

interface RiskRow {
  user_id: string;
  full_name: string;
  email: string;
  role: AccountSummary['role'];
  suspended: boolean;
  active_sessions: number;
  address_blocks: number;
  refusals: number;
  last_seen_ms: number | string | null;
}

/**
 * Accounts seen from more than `riskAddressBlocks` distinct address blocks in the window (a
 * sign-in's last sight, a playback started, a stream refused), or refused a stream more than
 * `riskRefusals` times. One query over the window's rows (each table has an index on its time);
 * the worst first: the one furthest past either threshold, in proportion to it.
 */
export async function sharingRisk(ctx: Context): Promise<SharingRiskList> {
  const { riskAddressBlocks, riskRefusals } = await protectionOf(ctx);
  const since = sql`now() - make_interval(hours => ${SHARING_RISK_WINDOW_HOURS})`;
  const result = await ctx.db.execute(sql`
    with sightings as (
      select user_id, address_block, last_seen_at as seen_at from sessions where last_seen_at > ${since} and address_block is not null
      union all
      select user_id, address_block, greatest(started_at, last_beat_at) from playbacks where started_at > ${since}
      union all
      select user_id, address_block, at from stream_refusals where at > ${since}
    ),
    blocks as (
      select user_id, count(distinct address_block)::int as address_blocks, max(seen_at) as last_seen_at from sightings group by user_id
    ),
    refused as (
      select user_id, count(*)::int as refusals from stream_refusals where at > ${since} group by user_id
    ),
    risky as (
      select b.user_id, b.address_blocks, coalesce(r.refusals, 0) as refusals, b.last_seen_at
      from blocks b left join refused r on r.user_id = b.user_id
      where b.address_blocks > ${riskAddressBlocks} or coalesce(r.refusals, 0) > ${riskRefusals}
    )
    select u.id as user_id, u.full_name, u.email, u.role, u.suspended_at is not null as suspended,
           ${activeSessionsOf(sql`u.id`)} as active_sessions,
           k.address_blocks, k.refusals, (extract(epoch from k.last_seen_at) * 1000)::float8 as last_seen_ms
    -- Administrators are not limited, and sign in from wherever they work: only learners' accounts are shared.
    from risky k join users u on u.id = k.user_id and u.role = 'USER'
    order by greatest(k.address_blocks::float8 / ${riskAddressBlocks}, k.refusals::float8 / ${riskRefusals}) desc,
             k.address_blocks desc, k.refusals desc, u.id
    limit ${SHARING_RISK_LIMIT}`);
  const rows = (result as unknown as { rows: RiskRow[] }).rows;
  return {
    windowHours: SHARING_RISK_WINDOW_HOURS,
    addressBlocks: riskAddressBlocks,
    refusals: riskRefusals,
    accounts: rows.map((row) => ({
      account: {
        _id: row.user_id,
        fullName: row.full_name,
        email: row.email,
        role: row.role,
        suspended: row.suspended,
        activeSessions: Number(row.active_sessions),
      },
      addressBlocks: Number(row.address_blocks),
      refusals: Number(row.refusals),
      lastSeenAt: row.last_seen_ms === null ? null : new Date(Number(row.last_seen_ms)).toISOString(),
    })),
  };
}
