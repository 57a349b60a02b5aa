import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { LEARNER_STATE_LABELS } from '@lms/contract/learners';
import type { Context } from '../../context.ts';
import { csvCell } from '../stats/revenue-export.ts';
import { filterSql, listedColumns, rowsOf, stateOfRow, type LearnerFilter, type ListedRow } from './learners-list.service.ts';

/**
 * The administrator's CSV of learners, with the list's search and state: read in keyset pages of
 * users_signed_up (newest first, as the list shows them) and streamed, so a million rows never sit
 * in memory; the next page is read only once the client has taken the last (Readable.from pulls
 * as the response drains). RFC 4180 quoting, and no cell a spreadsheet would run as a formula (csvCell).
 */

const PAGE = 1000;
const HEADER = ['Name', 'Email', 'State', 'Plan', 'Signed up', 'Last active', 'Lifetime paid (₹)'];

const csvLine = (cells: (string | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;
const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

export function learnersExport(ctx: Context, filter: LearnerFilter): { fileName: string; body: Readable } {
  const now = new Date();
  const fileName = `learners-${now.toISOString().slice(0, 10)}.csv`;
  const where = filterSql(filter, now);
  async function* lines() {
    yield csvLine(HEADER);
    let after: { k: string; id: string } | undefined;
    for (;;) {
      const page = rowsOf<ListedRow>(
        await ctx.db.execute(sql`
          select ${listedColumns(sql`u.created_at`)} from users as u
          where ${where} ${after ? sql`and (u.created_at, u.id) < (${after.k}::timestamptz, ${after.id}::uuid)` : sql``}
          order by u.created_at desc, u.id desc
          limit ${PAGE}`),
      );
      // One string a page: a million rows are a thousand writes, not a million.
      yield page
        .map((row) =>
          csvLine([
            row.full_name,
            row.email,
            LEARNER_STATE_LABELS[stateOfRow(row, now)],
            row.plan,
            iso(row.created_at),
            iso(row.last_active_at),
            (Number(row.paid_paise) / 100).toFixed(2),
          ]),
        )
        .join('');
      if (page.length < PAGE) return;
      const last = page.at(-1)!;
      after = { k: last.sort_key!, id: last.id };
    }
  }
  return { fileName, body: Readable.from(lines()) };
}
