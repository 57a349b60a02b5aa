import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Context } from '../../../server/src/context.ts';
import * as schema from '../../../server/src/db/schema.ts';
import { renderDocumentPdf } from '../../../server/src/features/billing/billing-pdf.ts';
import { issueInvoice } from '../../../server/src/features/billing/billing.service.ts';
import { revenueExport } from '../../../server/src/features/stats/revenue-export.ts';
import { getRevenue } from '../../../server/src/features/stats/revenue.service.ts';
import type { Bench } from '../bench.ts';
import { recreateDatabase } from '../postgres.ts';
import { startProduct } from '../product.ts';
import { recordingDb, timeAndExplain } from '../queries.ts';
import { median, ms, thousands, type Measurement, type SectionResult } from '../report.ts';

const BUDGET_MS = 100;
/** Invoice numbering under this many captures at once, each in its own transaction. */
const CONCURRENT_CAPTURES = 50;
const PDF_RUNS = 20;
const SELLER = { name: 'LMS Learning Pvt Ltd', address: 'MG Road, Bengaluru 560001', stateCode: '29', gstin: '29AAACL1234C1Z1', sac: '999293', gstRate: 18 };

/**
 * Users (three in ten with access, most of them renewing), a subscription each, payments spread over
 * two years (one in 33 refunded, the day after), an invoice for every payment and a credit note for
 * every refund, and a cancellation for one user in twenty.
 */
const BULK_LOAD = [
  `INSERT INTO users (id, full_name, email, password_hash, role, subscription_ends_at, subscription_cancelled_at, first_paid_at, created_at, updated_at)
   SELECT md5('user' || i)::uuid, 'Learner ' || i, 'learner' || i || '@bench.example', 'no password', 'USER',
          CASE WHEN i % 10 < 3 THEN now() + (i % 30 + 1) * interval '1 day' WHEN i % 10 < 6 THEN now() - (i % 365) * interval '1 day' END,
          CASE WHEN i % 10 = 2 THEN now() - interval '3 days' END,
          now() - (i % 730) * interval '1 day', now() - (i % 1000) * interval '1 day', now()
   FROM generate_series(1, $1::int) AS i`,
  // The default plan (made when the product started) and a yearly one with a price each; one subscriber in seven is yearly.
  `WITH yearly AS (INSERT INTO plans (id, name, interval) VALUES (md5('yearly plan')::uuid, 'Yearly', 'yearly') RETURNING id)
   INSERT INTO plan_prices (id, plan_id, list_price_paise, amount_paise) SELECT md5('yearly price')::uuid, id, 99900, 99900 FROM yearly`,
  `INSERT INTO subscriptions (id, user_id, provider_subscription_id, provider_plan_id, status, current_end, plan_id, plan_price_id, paid_count, next_charge_paise, monthly_value_paise)
   SELECT md5('subscription' || i)::uuid, md5('user' || i)::uuid, 'sub_bench' || i, CASE WHEN i % 7 = 0 THEN 'plan_bench_yearly' ELSE 'plan_bench' END,
          CASE WHEN i % 10 < 3 THEN 'active' ELSE 'cancelled' END, now() + interval '10 days',
          CASE WHEN i % 7 = 0 THEN md5('yearly plan')::uuid ELSE (SELECT id FROM plans WHERE is_default) END,
          CASE WHEN i % 7 = 0 THEN md5('yearly price')::uuid ELSE (SELECT id FROM plan_prices WHERE plan_id = (SELECT id FROM plans WHERE is_default) LIMIT 1) END,
          1, CASE WHEN i % 7 = 0 THEN 99900 ELSE 9900 END, CASE WHEN i % 7 = 0 THEN 8325 ELSE 9900 END
   FROM generate_series(1, $1::int) AS i`,
  `INSERT INTO payment_plans (period, amount_paise, provider_plan_id) VALUES ('monthly', 9900, 'plan_bench'), ('yearly', 99900, 'plan_bench_yearly') ON CONFLICT DO NOTHING`,
  `INSERT INTO payments (id, user_id, subscription_id, provider_payment_id, amount_paise, status, refunded_paise, refunded_at, paid_at)
   SELECT md5('payment' || i)::uuid, md5('user' || (i % $1::int + 1))::uuid, md5('subscription' || (i % $1::int + 1))::uuid, 'pay_bench' || i, 9900,
          CASE WHEN i % 33 = 0 THEN 'refunded' ELSE 'captured' END, CASE WHEN i % 33 = 0 THEN 9900 ELSE 0 END,
          CASE WHEN i % 33 = 0 THEN now() - (i % 730) * interval '1 day' + interval '1 day' END,
          now() - (i % 730) * interval '1 day' - (i % 86400) * interval '1 second'
   FROM generate_series(1, $2::int) AS i`,
  `INSERT INTO billing_documents (kind, number, payment_id, user_id, issued_at, document_type, seller, buyer, place_of_supply, description, tax_rate,
                                  taxable_paise, cgst_paise, sgst_paise, igst_paise, total_paise, pdf_key)
   SELECT 'invoice', 'BENCH/' || i, md5('payment' || i)::uuid, md5('user' || (i % $1::int + 1))::uuid, now() - (i % 730) * interval '1 day' - (i % 86400) * interval '1 second',
          'tax_invoice', '{"name":"LMS","address":"Bengaluru","stateCode":"29","gstin":null,"sac":"999293"}'::jsonb,
          jsonb_build_object('name', 'Learner ' || i, 'email', 'learner' || i || '@bench.example', 'businessName', null, 'gstin', null, 'stateCode', '27', 'address', null),
          '27', 'Subscription Bundle', 18, 8390, 0, 0, 1510, 9900, 'documents/bench.pdf'
   FROM generate_series(1, $2::int) AS i`,
  `INSERT INTO billing_documents (kind, number, payment_id, user_id, invoice_id, issued_at, document_type, seller, buyer, place_of_supply, description, tax_rate,
                                  taxable_paise, cgst_paise, sgst_paise, igst_paise, total_paise, pdf_key)
   SELECT 'credit_note', 'BENCHCN/' || d.number, d.payment_id, d.user_id, d.id, d.issued_at + interval '1 day', d.document_type, d.seller, d.buyer, d.place_of_supply,
          'Refund', 18, 8390, 0, 0, 1510, 9900, 'documents/bench.pdf'
   FROM billing_documents d JOIN payments p ON p.id = d.payment_id WHERE p.status = 'refunded'`,
  `INSERT INTO cancellations (key, user_id, reason, refunded, access_until, created_at)
   SELECT 'bench:' || i, md5('user' || i)::uuid, (ARRAY['too_expensive','not_using','finished','missing_content','technical','other'])[i % 6 + 1], i % 3 = 0,
          now() + interval '5 days', now() - (i % 365) * interval '1 day'
   FROM generate_series(1, $1::int, 20) AS i`,
];

/** Each query of the revenue figures and of one page of each export, as the services send them, timed and explained. */
async function timeQueries(databaseUrl: string, runs: number): Promise<{ rows: Measurement[]; notes: string[] }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const { db, recorder } = recordingDb(pool);
  const ctx = { db, config: { payments: { pricePaise: 9900 } } } as unknown as Context;
  try {
    recorder.label = 'GET /admin/revenue';
    await getRevenue(ctx);
    const names = [
      'MRR and renewing subscribers by plan',
      'active subscribers',
      "this month's new, cancelled, active at start, refunds, gross",
      '12 months of new vs cancelled',
      'latest 20 payments',
      'the plans',
      'their documents',
    ];
    // Each export of the last 31 days streamed whole; of its queries only the first page's is timed below (the rest are the same, further along).
    const to = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kolkata' }).format(new Date());
    const from = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kolkata' }).format(new Date(Date.now() - 30 * 86_400_000));
    const streamed: Measurement[] = [];
    for (const kind of ['payments', 'documents'] as const) {
      recorder.label = `GET /admin/revenue/export?kind=${kind} (31 days)`;
      const before = recorder.queries.length;
      const started = performance.now();
      let bytes = 0;
      let lines = 0;
      for await (const chunk of revenueExport(ctx, { kind, from, to }).body) {
        bytes += Buffer.byteLength(chunk as string);
        lines += 1;
      }
      const seconds = (performance.now() - started) / 1000;
      streamed.push({
        what: `CSV export of ${kind}, 31 days streamed (${thousands(lines - 1)} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB)`,
        measured: `${seconds.toFixed(2)} s, ${thousands(Math.round((lines - 1) / seconds))} rows/s`,
      });
      recorder.queries.splice(before + 1);
      names.push(`one page (2,000 rows) of ${kind}`);
    }
    const timed = await timeAndExplain(pool, recorder.queries, names, runs, BUDGET_MS);
    return { rows: [...timed.rows, ...streamed], notes: timed.notes };
  } finally {
    await pool.end();
  }
}

/** Invoices for `CONCURRENT_CAPTURES` payments issued at once, each in its own transaction, as concurrent captures would. */
async function numberConcurrently(databaseUrl: string): Promise<Measurement> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONCURRENT_CAPTURES });
  const db = drizzle({ client: pool, schema, casing: 'snake_case' });
  try {
    const payments = await db
      .insert(schema.payments)
      .values(
        Array.from({ length: CONCURRENT_CAPTURES }, (_, index) => ({
          userId: sql`md5('user1')::uuid`,
          subscriptionId: sql`md5('subscription1')::uuid`,
          providerPaymentId: `pay_concurrent${index}`,
          amountPaise: 9900,
          status: 'captured',
          paidAt: new Date(),
        })),
      )
      .returning();
    const started = performance.now();
    const ids = await Promise.all(payments.map((payment) => db.transaction((tx) => issueInvoice(tx, SELLER, payment, new Date(Date.now() + 30 * 86_400_000)))));
    const elapsed = performance.now() - started;
    const issued = await db.select({ number: schema.billingDocuments.number }).from(schema.billingDocuments).where(inArray(schema.billingDocuments.id, ids));
    const sequences = issued.map((row) => Number(row.number.split('/')[2])).sort((a, b) => a - b);
    const consecutive = sequences.every((value, index) => index === 0 || value === sequences[index - 1]! + 1);
    const unique = new Set(sequences).size === CONCURRENT_CAPTURES;
    return {
      what: `invoice numbers for ${CONCURRENT_CAPTURES} concurrent captures (one transaction each, ${CONCURRENT_CAPTURES} connections)`,
      measured: `${sequences[0]}…${sequences.at(-1)}: ${unique ? 'no duplicates' : 'DUPLICATES'}, ${consecutive ? 'no gaps' : 'GAPS'}; all issued in ${ms(elapsed)}`,
      budget: 'no gaps, no duplicates',
      met: unique && consecutive && issued.length === CONCURRENT_CAPTURES,
    };
  } finally {
    await pool.end();
  }
}

/** One tax invoice rendered to PDF, as the `billing-pdf` job does (font embedded and subset). */
async function timePdf(): Promise<Measurement> {
  const document = {
    id: '00000000-0000-4000-8000-000000000001',
    kind: 'invoice',
    number: 'LMS/26-27/000123',
    paymentId: '',
    userId: '',
    invoiceId: null,
    issuedAt: new Date(),
    documentType: 'tax_invoice',
    seller: SELLER,
    placeOfSupply: '27',
    description: 'Subscription Bundle, 25 Nov 2026 to 25 Dec 2026',
    taxRate: 18,
    buyer: {
      name: 'Asha Verma',
      email: 'asha@example.com',
      businessName: 'Verma Tutors LLP',
      gstin: '27AAPFU0939F1ZV',
      stateCode: '27',
      address: 'Baner, Pune 411045',
    },
    taxablePaise: 8390,
    cgstPaise: 0,
    sgstPaise: 0,
    igstPaise: 1510,
    totalPaise: 9900,
    pdfKey: null,
    adminRefundId: null,
    createdAt: new Date(),
  };
  const times: number[] = [];
  let bytes = 0;
  for (let run = -2; run < PDF_RUNS; run++) {
    const started = performance.now();
    bytes = (await renderDocumentPdf(document)).length;
    if (run >= 0) times.push(performance.now() - started);
  }
  return {
    what: `an invoice PDF (${(bytes / 1024).toFixed(0)} KB, DejaVu Sans subset embedded)`,
    measured: `p50 ${ms(median(times))} (max ${ms(Math.max(...times))}, ${PDF_RUNS} runs after 2 warm-ups)`,
  };
}

export async function measureBilling(bench: Bench): Promise<SectionResult> {
  const { users, payments, runs } = bench.sizes.scale;
  const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_billing');
  const product = await startProduct({ name: 'billing', dataDir: path.join(bench.workDir, 'billing'), databaseUrl, logDir: bench.workDir });
  await product.stop(); // migrated; the load goes in with the server stopped

  bench.log(`  loading ${thousands(users)} users, ${thousands(payments)} payments with their invoices into PostgreSQL`);
  const loadStarted = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(BULK_LOAD[0]!, [users]);
    await client.query(BULK_LOAD[1]!);
    await client.query(BULK_LOAD[2]!, [users]);
    await client.query(BULK_LOAD[3]!);
    await client.query(BULK_LOAD[4]!, [users, payments]);
    await client.query(BULK_LOAD[5]!, [users, payments]);
    await client.query(BULK_LOAD[6]!);
    await client.query(BULK_LOAD[7]!, [users]);
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;

  bench.log('  revenue figures and exports, each query timed and explained');
  const queries = await timeQueries(databaseUrl, runs);
  bench.log(`  ${CONCURRENT_CAPTURES} concurrent invoice numbers`);
  const numbering = await numberConcurrently(databaseUrl);
  bench.log('  invoice PDFs');
  const pdf = await timePdf();
  return {
    title: `Billing on PostgreSQL: revenue figures and exports with ${thousands(payments)} payments and their invoices; numbering; PDFs`,
    rows: [...queries.rows, numbering, pdf],
    notes: [
      `Bulk load of ${thousands(users)} users, ${thousands(payments)} payments, as many invoices and a credit note per refund, then VACUUM ANALYZE: ${loadSeconds.toFixed(0)} s. Each query as the services send it, timed from the bench over one pooled connection; plans:`,
      '',
      ...queries.notes,
    ],
  };
}
