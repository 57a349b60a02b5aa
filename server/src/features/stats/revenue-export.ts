import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { INDIAN_STATES, isStateCode } from '@lms/contract/billing';
import type { RevenueExportQuery } from '@lms/contract/stats';
import type { Context } from '../../context.ts';

/**
 * The accountant's CSV: every payment, or every invoice and credit note, of a range of
 * days in India's calendar. Read in keyset pages and streamed, so a year of payments never sits in
 * memory; one row per line, RFC 4180 quoting, and no cell a spreadsheet would run as a formula.
 */

const PAGE = 2000;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A CSV cell: quoted when it holds a comma, quote or line break; a leading = + - @ (a formula to a spreadsheet) is defused with a '. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
const csvLine = (cells: (string | number | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

const amount = (paise: number | null) => (paise === null ? '' : (paise / 100).toFixed(2));
const indiaTime = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
/** `2026-11-25 14:05:09`, India's time: what a spreadsheet reads as a date and time. */
const when = (date: Date | string | null) => (date === null ? '' : indiaTime.format(new Date(date)));
const stateName = (code: string | null) => (code && isStateCode(code) ? `${code} ${INDIAN_STATES[code]}` : (code ?? ''));

interface PaymentRow {
  id: string;
  paid_at: string;
  provider_payment_id: string;
  full_name: string;
  email: string;
  amount_paise: number;
  currency: string;
  status: string;
  refunded_paise: number;
  refunded_at: string | null;
  invoice: string | null;
  credit_note: string | null;
}

interface DocumentRow {
  id: string;
  issued_at: string;
  number: string;
  kind: string;
  document_type: string;
  invoice_number: string | null;
  buyer: { name: string; email: string; businessName: string | null; gstin: string | null };
  place_of_supply: string;
  tax_rate: number;
  taxable_paise: number;
  cgst_paise: number;
  sgst_paise: number;
  igst_paise: number;
  total_paise: number;
}

/** The export as a stream of CSV text, and the file name it is saved under. */
export function revenueExport(ctx: Context, query: RevenueExportQuery): { fileName: string; body: Readable } {
  const start = sql`(${query.from}::date::timestamp at time zone 'Asia/Kolkata')`;
  const end = sql`((${query.to}::date + 1)::timestamp at time zone 'Asia/Kolkata')`;
  const fileName = `lms-${query.kind}-${query.from}-to-${query.to}.csv`;

  async function* payments() {
    yield csvLine(['Date (IST)', 'Payment ID', 'Name', 'Email', 'Amount', 'Currency', 'Status', 'Refunded', 'Refunded on (IST)', 'Invoice', 'Credit note']);
    let after: { paidAt: string; id: string } | null = null;
    for (;;) {
      const page: PaymentRow[] = rowsOf<PaymentRow>(
        await ctx.db.execute(sql`
          select p.id, p.paid_at, p.provider_payment_id, u.full_name, u.email, p.amount_paise, p.currency, p.status, p.refunded_paise, p.refunded_at,
                 (select number from billing_documents d where d.payment_id = p.id and d.kind = 'invoice') as invoice,
                 (select number from billing_documents d where d.payment_id = p.id and d.kind = 'credit_note') as credit_note
          from payments p join users u on u.id = p.user_id
          where p.paid_at >= ${start} and p.paid_at < ${end}
            ${after ? sql`and (p.paid_at, p.id) > (${after.paidAt}::timestamptz, ${after.id}::uuid)` : sql``}
          order by p.paid_at, p.id
          limit ${PAGE}`),
      );
      for (const row of page) {
        yield csvLine([
          when(row.paid_at),
          row.provider_payment_id,
          row.full_name,
          row.email,
          amount(row.amount_paise),
          row.currency,
          row.status,
          row.refunded_paise ? amount(row.refunded_paise) : '',
          when(row.refunded_at),
          row.invoice,
          row.credit_note,
        ]);
      }
      if (page.length < PAGE) return;
      const last = page.at(-1)!;
      after = { paidAt: new Date(last.paid_at).toISOString(), id: last.id };
    }
  }

  async function* documents() {
    yield csvLine([
      'Number',
      'Document',
      'Date (IST)',
      'Against invoice',
      'Buyer',
      'Business name',
      'Buyer GSTIN',
      'Email',
      'Place of supply',
      'Rate %',
      'Taxable',
      'CGST',
      'SGST',
      'IGST',
      'Total',
    ]);
    let after: { issuedAt: string; id: string } | null = null;
    for (;;) {
      const page: DocumentRow[] = rowsOf<DocumentRow>(
        await ctx.db.execute(sql`
          select d.id, d.issued_at, d.number, d.kind, d.document_type, i.number as invoice_number, d.buyer, d.place_of_supply, d.tax_rate,
                 d.taxable_paise, d.cgst_paise, d.sgst_paise, d.igst_paise, d.total_paise
          from billing_documents d left join billing_documents i on i.id = d.invoice_id
          where d.issued_at >= ${start} and d.issued_at < ${end}
            ${after ? sql`and (d.issued_at, d.id) > (${after.issuedAt}::timestamptz, ${after.id}::uuid)` : sql``}
          order by d.issued_at, d.id
          limit ${PAGE}`),
      );
      for (const row of page) {
        const title = row.kind === 'credit_note' ? 'Credit Note' : row.document_type === 'tax_invoice' ? 'Tax Invoice' : 'Receipt';
        yield csvLine([
          row.number,
          title,
          when(row.issued_at),
          row.invoice_number,
          row.buyer.name,
          row.buyer.businessName,
          row.buyer.gstin,
          row.buyer.email,
          stateName(row.place_of_supply),
          row.tax_rate,
          amount(row.taxable_paise),
          amount(row.cgst_paise),
          amount(row.sgst_paise),
          amount(row.igst_paise),
          amount(row.total_paise),
        ]);
      }
      if (page.length < PAGE) return;
      const last = page.at(-1)!;
      after = { issuedAt: new Date(last.issued_at).toISOString(), id: last.id };
    }
  }

  return { fileName, body: Readable.from(query.kind === 'payments' ? payments() : documents()) };
}
