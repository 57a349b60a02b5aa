import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Context } from '../../context.ts';
import { addressBlockOf } from '../protection/devices.ts';

/**
 * A session's last sight (time and address block), which the list of devices shows, is written
 * at most once every SIGHT_INTERVAL_MS per session by each instance: a signed-in request never
 * waits on it, and a busy learner costs one small write every few minutes, not one per request.
 * No instance keeps a copy of these columns, so the database announces no change (migration 0016).
 * The account's last activity (users.last_active_at, the administrator's learners list) is
 * written with it, in the same statement: as often, and no more (migration 0020 keeps that write
 * from announcing a change of the account).
 */
export const SIGHT_INTERVAL_MS = 5 * 60_000;
/** Past this many sessions remembered, those not seen within the interval are dropped. */
const MAX_REMEMBERED = 50_000;

/** Per instance (its Context): when each session's sight was last written, in ms. */
const written = new WeakMap<Context, Map<string, number>>();

function writtenOf(ctx: Context): Map<string, number> {
  let map = written.get(ctx);
  if (!map) written.set(ctx, (map = new Map()));
  return map;
}

/** A session just written, with its sight: the next write waits its interval. Signing in is the account's activity. */
export function noteSignIn(ctx: Context, sessionId: string, log: Pick<FastifyBaseLogger, 'error'>, now = Date.now()): void {
  writtenOf(ctx).set(sessionId, now);
  write(ctx, sessionId, null, log, now);
}

/** The session's last sight (and address block, when given) and its account's last activity, in one statement. Never throws, never waits. */
function write(ctx: Context, sessionId: string, ip: string | null, log: Pick<FastifyBaseLogger, 'error'>, now: number): void {
  const at = new Date(now).toISOString();
  const block = ip === null ? null : addressBlockOf(ip);
  ctx.db
    .execute(
      sql`
      with seen as (
        update sessions set last_seen_at = ${at}::timestamptz, address_block = coalesce(${block}::text, address_block)
        where id = ${sessionId}::uuid returning user_id
      )
      update users set last_active_at = ${at}::timestamptz from seen
      where users.id = seen.user_id and (users.last_active_at is null or users.last_active_at < ${at}::timestamptz)`,
    )
    .then(
      () => {},
      (error: unknown) => log.error({ err: error, sessionId }, "a session's last sight not written"),
    );
}

/** The session is in use from `ip`: its last sight is written unless it was within the interval. Never throws, never waits. */
export function noteSight(ctx: Context, sessionId: string, ip: string, log: Pick<FastifyBaseLogger, 'error'>, now = Date.now()): void {
  const map = writtenOf(ctx);
  const last = map.get(sessionId);
  if (last !== undefined && now - last < SIGHT_INTERVAL_MS) return;
  if (map.size >= MAX_REMEMBERED) {
    for (const [id, at] of map) if (now - at >= SIGHT_INTERVAL_MS) map.delete(id);
  }
  map.set(sessionId, now);
  write(ctx, sessionId, ip, log, now);
}
