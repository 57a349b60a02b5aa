import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { certificateCodeForDisplay } from '@lms/contract/certificates';
import type { Context } from '../../context.ts';
import { csvCell } from '../stats/revenue-export.ts';

/**
 * The administrator's CSV of certificates issued, every one or one course's: read in keyset pages
 * and streamed, RFC 4180 quoting, and no cell a spreadsheet would run as a formula (csvCell).
 */

const PAGE = 2000;
const HEADER = ['Code', 'Name', 'Email', 'Course', 'Instructor', 'Issued at', 'Issued by', 'Revoked at'];

interface ExportRow {
  id: string;
  code: string;
  name: string;
  email: string;
  course_title: string;
  instructor: string;
  issued_at: Date | string;
  issued_by: string | null;
  revoked_at: Date | string | null;
}

const csvLine = (cells: (string | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;
const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

export function certificatesExport(ctx: Context, { courseId }: { courseId?: string | undefined }): { fileName: string; body: Readable } {
  const fileName = `certificates-${new Date().toISOString().slice(0, 10)}.csv`;
  async function* lines() {
    yield csvLine(HEADER);
    // Oldest first, a page at a time after the last row's (issued_at, id): rows issued meanwhile come last.
    let after: { at: string; id: string } | undefined;
    for (;;) {
      const result = await ctx.db.execute(sql`
        select c.id, c.code, c.name, u.email, c.course_title, c.instructor, c.issued_at, i.full_name as issued_by, c.revoked_at
        from certificates as c
        join users as u on u.id = c.user_id
        left join users as i on i.id = c.issued_by
        where (${courseId ?? null}::uuid is null or c.course_id = ${courseId ?? null}::uuid)
          ${after ? sql`and (c.issued_at, c.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : sql``}
        order by c.issued_at, c.id
        limit ${PAGE}`);
      const rows = (result as unknown as { rows: ExportRow[] }).rows;
      for (const row of rows)
        yield csvLine([
          certificateCodeForDisplay(row.code),
          row.name,
          row.email,
          row.course_title,
          row.instructor,
          iso(row.issued_at),
          row.issued_by,
          iso(row.revoked_at),
        ]);
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1]!;
      after = { at: iso(last.issued_at)!, id: last.id };
    }
  }
  return { fileName, body: Readable.from(lines()) };
}
