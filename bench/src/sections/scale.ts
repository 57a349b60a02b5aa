import path from 'node:path';
import pg from 'pg';
import type { Context } from '../../../server/src/context.ts';
import { listCourses } from '../../../server/src/features/courses/courses.service.ts';
import { getPaymentRecords, getUserStats } from '../../../server/src/features/stats/stats.service.ts';
import type { Bench } from '../bench.ts';
import { fillCatalogue } from '../catalogue.ts';
import { recreateDatabase } from '../postgres.ts';
import { firstCourse, loginAsAdmin, startProduct } from '../product.ts';
import { recordingDb, scansOf } from '../queries.ts';
import { median, ms, thousands, type Measurement, type SectionResult } from '../report.ts';

const BUDGET_MS = 100;

/**
 * Learners, each with one subscription; payments spread over the last two years
 * (about half of them in this calendar year's chart), one in 33 refunded; three in
 * ten learners with access now. Ids derive from the row number so that the
 * payments can point at their payer without a join.
 */
const BULK_LOAD = [
  `INSERT INTO users (id, full_name, email, password_hash, role, subscription_ends_at, created_at, updated_at)
   SELECT md5('user' || i)::uuid, 'Learner ' || i, 'learner' || i || '@bench.example', 'no password', 'USER',
          CASE WHEN i % 10 < 3 THEN now() + (i % 30) * interval '1 day'
               WHEN i % 10 < 6 THEN now() - (i % 365) * interval '1 day' END,
          now() - (i % 1000) * interval '1 day', now()
   FROM generate_series(1, $1::int) AS i`,
  `INSERT INTO subscriptions (id, user_id, provider_subscription_id, provider_plan_id, status, current_end)
   SELECT md5('subscription' || i)::uuid, md5('user' || i)::uuid, 'sub_bench' || i, 'plan_bench', 'active', now() + interval '10 days'
   FROM generate_series(1, $1::int) AS i`,
  `INSERT INTO payments (user_id, subscription_id, provider_payment_id, amount_paise, status, refunded_paise, paid_at)
   SELECT md5('user' || (i % $1::int + 1))::uuid, md5('subscription' || (i % $1::int + 1))::uuid, 'pay_bench' || i, 9900,
          CASE WHEN i % 33 = 0 THEN 'refunded' ELSE 'captured' END, CASE WHEN i % 33 = 0 THEN 9900 ELSE 0 END,
          now() - (i % 730) * interval '1 day' - (i % 86400) * interval '1 second'
   FROM generate_series(1, $2::int) AS i`,
];

async function timeRequests(url: string, cookie: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = -2; run < runs; run++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    if (run >= 0) times.push(performance.now() - started);
  }
  return times;
}

/**
 * EXPLAIN ANALYZE of exactly the SQL the routes run: the services are called with a
 * Drizzle instance that records each query, and each recorded query is explained.
 */
async function explainServices(databaseUrl: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const { db, recorder } = recordingDb(pool);
  const ctx = { db } as unknown as Context;
  try {
    recorder.label = 'GET /admin/status/users';
    await getUserStats(ctx);
    recorder.label = 'GET /payments?count=100';
    await getPaymentRecords(ctx, { count: 100 });
    recorder.label = 'GET /courses (first page)';
    await listCourses(ctx, { page: 1, limit: 50 });

    const notes: string[] = [];
    for (const query of recorder.queries) {
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) ${query.sql}`, query.params);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
      notes.push(
        `<details><summary>${query.label}: ${scansOf(plan).join('; ')} — ${time} ms</summary>\n\n\`\`\`sql\n${query.sql}\n\`\`\`\n\n\`\`\`\n${plan}\n\`\`\`\n</details>\n`,
      );
    }
    return notes;
  } finally {
    await pool.end();
  }
}

export async function measureScale(bench: Bench): Promise<SectionResult> {
  const { users, payments, courses, runs } = bench.sizes.scale;
  const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_scale');
  const dataDir = path.join(bench.workDir, 'scale');
  const logDir = bench.workDir;

  // The first start migrates and seeds; the bulk load goes in while the server is stopped.
  let product = await startProduct({ name: 'scale', dataDir, databaseUrl, logDir });
  const { thumbnailKey } = await firstCourse(product);
  await product.stop();

  bench.log(`  loading ${thousands(users)} users, ${thousands(payments)} payments and ${thousands(courses)} courses into PostgreSQL`);
  const loadStarted = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(BULK_LOAD[0]!, [users]);
    await client.query(BULK_LOAD[1]!, [users]);
    await client.query(BULK_LOAD[2]!, [users, payments]);
    await fillCatalogue({ url: databaseUrl }, courses, thumbnailKey);
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;

  product = await startProduct({ name: 'scale', dataDir, databaseUrl, logDir });
  const rows: Measurement[] = [];
  let notes: string[];
  try {
    const cookie = await loginAsAdmin(product);
    for (const [what, apiPath, budgeted] of [
      ['GET /api/v1/admin/status/users', '/admin/status/users', true],
      ['GET /api/v1/payments?count=100', '/payments?count=100', true],
      ['GET /api/v1/courses (first page)', '/courses', false],
    ] as const) {
      const times = await timeRequests(`${product.url}/api/v1${apiPath}`, cookie, runs);
      const p50 = median(times);
      rows.push({
        what: `${what}`,
        measured: `p50 ${ms(p50)} (min ${ms(Math.min(...times))}, max ${ms(Math.max(...times))}, ${runs} runs)`,
        ...(budgeted && { budget: '< 100 ms', met: p50 < BUDGET_MS }),
      });
    }
    bench.log('  EXPLAIN ANALYZE of the queries behind them');
    notes = await explainServices(databaseUrl);
  } finally {
    await product.stop();
  }
  return {
    title: `Scale on PostgreSQL: ${thousands(users)} users, ${thousands(payments)} payments, ${thousands(courses)} courses`,
    rows,
    notes: [
      `Bulk load and VACUUM ANALYZE took ${loadSeconds.toFixed(0)} s. Timed from the bench over HTTP, one request at a time, after two warm-up requests; query plans as the server runs them:`,
      '',
      ...notes,
    ],
  };
}
