import { Readable } from 'node:stream';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ActivityExportQuerySchema, ActivityQuerySchema, AUDIT_ACTIONS, AUDIT_AREA_LABELS, type AuditArea } from '@lms/contract/audit';
import type { Context } from '../../context.ts';
import { auditLog } from '../../db/schema.ts';
import { csvCell } from '../stats/revenue-export.ts';
import { auditEntryJson } from './entries.ts';

/**
 * The Activity page's reading of the audit trail: newest first, by area, action, administrator,
 * what was acted on and days of India's calendar; a page at a time after the cursor (an entry's
 * id, which only grows), and the same as CSV streamed in keyset pages.
 */

type Filter = z.output<typeof ActivityExportQuerySchema>;

/** The conditions of the filter; each has an index of its own, read newest first. */
function conditions(filter: Filter): SQL[] {
  const where: SQL[] = [];
  if (filter.area) where.push(eq(auditLog.area, filter.area));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.actorId) where.push(eq(auditLog.actorId, filter.actorId));
  if (filter.targetId) where.push(eq(auditLog.targetId, filter.targetId));
  // Whole days of India's calendar, both included.
  if (filter.from) where.push(gte(auditLog.at, sql`(${filter.from}::date::timestamp at time zone 'Asia/Kolkata')`));
  if (filter.to) where.push(lt(auditLog.at, sql`((${filter.to}::date + 1)::timestamp at time zone 'Asia/Kolkata')`));
  return where;
}

interface ActorRow {
  id: string;
  full_name: string;
  email: string;
}

/**
 * The administrators who appear in the trail, for the filter: the distinct actors read by hopping
 * along the (actor, id) index from one actor to the next, so a long trail costs one probe per
 * administrator, not a scan.
 */
async function actorsOfTrail(ctx: Context) {
  const result = await ctx.db.execute(sql`
    with recursive actors(id) as (
      (select actor_id from audit_log where actor_id is not null order by actor_id limit 1)
      union all
      select (select a.actor_id from audit_log a where a.actor_id > actors.id order by a.actor_id limit 1) from actors where actors.id is not null
    )
    select u.id, u.full_name, u.email from actors join users u on u.id = actors.id order by u.full_name, u.id`);
  return (result as unknown as { rows: ActorRow[] }).rows.map((row) => ({ _id: row.id, name: row.full_name, email: row.email }));
}

export async function listActivity(ctx: Context, query: z.output<typeof ActivityQuerySchema>) {
  const where = conditions(query);
  if (query.cursor) where.push(lt(auditLog.id, BigInt(query.cursor)));
  const rows = await ctx.db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(desc(auditLog.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    entries: page.map(auditEntryJson),
    nextCursor: rows.length > query.limit ? String(page.at(-1)!.id) : null,
    actors: await actorsOfTrail(ctx),
  };
}

const PAGE = 2000;
const HEADER = ['When (IST)', 'Administrator', 'Email', 'Area', 'Action', 'Target', 'Reason', 'Summary'];
const csvLine = (cells: (string | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;
const indiaTime = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const actionLabel = (action: string) => (action in AUDIT_ACTIONS ? AUDIT_ACTIONS[action as keyof typeof AUDIT_ACTIONS].label : action);

/** The trail the filter finds as CSV, newest first, read a page at a time before the last id sent. */
export function activityExport(ctx: Context, filter: Filter): { fileName: string; body: Readable } {
  const fileName = `activity-${new Date().toISOString().slice(0, 10)}.csv`;
  async function* lines() {
    yield csvLine(HEADER);
    let before: bigint | undefined;
    for (;;) {
      const where = conditions(filter);
      if (before !== undefined) where.push(lt(auditLog.id, before));
      const rows = await ctx.db
        .select()
        .from(auditLog)
        .where(and(...where))
        .orderBy(desc(auditLog.id))
        .limit(PAGE);
      for (const row of rows)
        yield csvLine([
          indiaTime.format(row.at),
          row.actorName ?? '',
          row.actorEmail ?? '',
          AUDIT_AREA_LABELS[row.area as AuditArea] ?? row.area,
          actionLabel(row.action),
          row.targetLabel,
          row.reason,
          row.summary,
        ]);
      if (rows.length < PAGE) return;
      before = rows.at(-1)!.id;
    }
  }
  return { fileName, body: Readable.from(lines()) };
}
