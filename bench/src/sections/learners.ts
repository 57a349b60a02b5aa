import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Context } from '../../../server/src/context.ts';
import { getLearner } from '../../../server/src/features/learners/learner-detail.service.ts';
import { listLearners } from '../../../server/src/features/learners/learners-list.service.ts';
import type { Bench } from '../bench.ts';
import { recreateDatabase } from '../postgres.ts';
import { residentBytes } from '../processes.ts';
import { loginAsAdmin, startProduct, type Product } from '../product.ts';
import { recordingDb, scansOf } from '../queries.ts';
import { mb, median, ms, percentile, thousands, type Measurement, type SectionResult } from '../report.ts';

/** The issue's scale: a million learners and a million payments, on PostgreSQL. */
const USERS = 1_000_000;
const PAYMENTS = 1_000_000;
const SEARCH_P99_BUDGET_MS = 50;
const PAGE_P99_BUDGET_MS = 100;
const EXPORT_RSS_BUDGET_BYTES = 64 * 1024 * 1024;

const FIRST = [
  'Asha',
  'Priya',
  'Rohan',
  'Kavya',
  'Arjun',
  'Meera',
  'Vikram',
  'Ananya',
  'Rahul',
  'Sneha',
  'Karthik',
  'Divya',
  'Aditya',
  'Pooja',
  'Nikhil',
  'Isha',
  'Sanjay',
  'Lakshmi',
  'Farhan',
  'Zoya',
];
const LAST = [
  'Verma',
  'Iyer',
  'Mehta',
  'Raman',
  'Sharma',
  'Nair',
  'Reddy',
  'Gupta',
  'Das',
  'Khan',
  'Patel',
  'Menon',
  'Joshi',
  'Bose',
  'Singh',
  'Rao',
  'Pillai',
  'Kapoor',
  'Chopra',
  'Sen',
];
const DOMAINS = ['gmail.com', 'yahoo.co.in', 'outlook.com', 'example.in', 'mail.example.org'];
const pgArray = (values: string[]) => `{${values.join(',')}}`;
/** Learner i's kind (0–9, see seed), from a hash of i: independent of their name, as a school's would be. */
const stateOf = (i: string) => `(('x' || substr(md5('state' || (${i})), 1, 4))::bit(16)::int % 10)`;

/** Learner i's id: an md5 made to read as a version-4 UUID, which the API's parameters insist on. */
const learnerIdSql = (i: string) => `overlay(overlay(md5('bench-learner-' || (${i})) placing '4' from 13 for 1) placing '8' from 17 for 1)::uuid`;

/**
 * Learners by a hash of i to 0–9, the states spread as a school's might be: 0, 8 (but 1 in 10 of those
 * complimentary), 9 never paid; 1–3 subscribed; 4 cancelled with access; 5–6 lapsed; 7 in a
 * trial. Signed up one every 90 seconds over nearly three years, in order (a table is written as
 * people sign up); seven in ten active within 90 days. Every learner of 1–6 has
 * a subscription and the payments (PAYMENTS over them, about 1.7 each, 1 in 33 refunded).
 * Written with generate_series while the server is stopped, the search's trigram indexes dropped
 * and made again afterwards (as a bulk load would), then vacuum analyze.
 */
async function seed(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('drop index users_name_trigrams');
    await client.query('drop index users_email_trigrams');
    await client.query(
      `insert into users (id, full_name, email, password_hash, role, subscription_ends_at, subscription_cancelled_at, trial_ends_at, trial_used_at,
                          complimentary_until, first_paid_at, last_active_at, created_at, updated_at)
       select ${learnerIdSql('i')}, f || ' ' || l || ' ' || i, lower(f) || '.' || lower(l) || i || '@' || d, 'no password', 'USER',
              case when m between 1 and 4 or m = 7 then now() + (1 + i % 28) * interval '1 day'
                   when m between 5 and 6 then now() - (1 + i % 300) * interval '1 day' end,
              case when m = 4 then now() - (i % 20) * interval '1 day' end,
              case when m = 7 then now() + (1 + i % 6) * interval '1 day' end,
              case when m = 7 then now() - interval '1 day' end,
              case when m = 8 and i % 10 = 8 then now() + (1 + i % 60) * interval '1 day' end,
              case when m between 1 and 6 then now() - (30 + i % 700) * interval '1 day' end,
              case when i % 10 < 7 then now() - (i % 129600) * interval '1 minute' end,
              now() - ($1::int - i) * interval '90 seconds', now()
       from generate_series(1, $1::int) as i
       cross join lateral (select ${stateOf('i')} as m, ($2::text[])[i % 20 + 1] as f, ($3::text[])[(i / 20) % 20 + 1] as l, ($4::text[])[i % 5 + 1] as d) as v`,
      [USERS, pgArray(FIRST), pgArray(LAST), pgArray(DOMAINS)],
    );
    await client.query(
      `insert into subscriptions (id, user_id, provider_subscription_id, provider_plan_id, status, current_end, plan_id, paid_count, created_at)
       select ${learnerIdSql('i').replace("'bench-learner-'", "'bench-subscription-'")}, ${learnerIdSql('i')}, 'sub_bench' || i, 'plan_bench',
              case ${stateOf('i')} when 4 then 'cancelled' when 5 then 'completed' when 6 then 'completed' else 'active' end,
              now() + interval '10 days', (select id from plans where is_default), 1, now() - (i % 700) * interval '1 day'
       from generate_series(1, $1::int) as i
       where ${stateOf('i')} between 1 and 6`,
      [USERS],
    );
    // Payment j: the subscription numbered j mod their count, so that every payer has one or two.
    await client.query(
      `insert into payments (user_id, subscription_id, provider_payment_id, amount_paise, status, refunded_paise, paid_at)
       select s.user_id, s.id, 'pay_bench' || j, 9900,
              case when j % 33 = 0 then 'refunded' else 'captured' end, case when j % 33 = 0 then 9900 else 0 end,
              now() - (j % 730) * interval '1 day' - (j % 86400) * interval '1 second'
       from generate_series(1, $1::int) as j
       join (select row_number() over () - 1 as k, id, user_id from subscriptions) as s on s.k = j % (select count(*) from subscriptions)`,
      [PAYMENTS],
    );
    await client.query('create index users_name_trigrams on users using gin (lower(full_name) gin_trgm_ops)');
    await client.query('create index users_email_trigrams on users using gin (email gin_trgm_ops)');
    for (const table of ['users', 'subscriptions', 'payments']) await client.query(`vacuum analyze ${table}`);
  } finally {
    await client.end();
  }
}

/** What the administrator types: whole and partial names and emails, one and two letters, with and without a state, both orders. */
const SEARCHES = [
  'q=priya',
  'q=verma',
  'q=riya ver',
  'q=asha.iyer1234',
  'q=ananya%20mehta%2012',
  'q=outlook',
  'q=as',
  'q=k',
  'q=zo&state=subscribed',
  'q=menon&state=lapsed',
  'q=pillai&state=complimentary',
  'q=sharma&state=trial&sort=last_active',
  'state=complimentary',
  'state=cancelled&sort=last_active',
  'state=never_paid',
  '',
  'sort=last_active',
  'q=gupta&sort=last_active',
  'q=no such learner',
  'q=xy',
];

async function timeGet(product: Product, apiPath: string, cookie: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(`${product.url}/api/v1${apiPath}`, { headers: { cookie } });
  const body = await response.text();
  const took = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${apiPath} answered ${response.status}: ${body.slice(0, 300)}`);
  return { ms: took, body };
}

/** The CSV of every learner, read as fast as the bench takes it, the server's RSS sampled every 10 ms. */
async function measureExport(product: Product, cookie: string) {
  const before = await residentBytes(product.pid);
  let peak = before;
  let downloading = true;
  const sampler = (async () => {
    while (downloading) {
      peak = Math.max(peak, await residentBytes(product.pid));
      await sleep(10);
    }
  })();
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const response = await fetch(`${product.url}/api/v1/admin/learners/export`, { headers: { cookie } });
    if (response.status !== 200 || !response.body) throw new Error(`the export answered ${response.status}`);
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
  } finally {
    downloading = false;
    await sampler;
  }
  return { seconds: (performance.now() - started) / 1000, rows: lines - 1, bytes, growth: peak - before };
}

/** The plans of the SQL the list and a learner's page send, on the seeded database. */
async function explain(databaseUrl: string, learnerId: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { db, recorder } = recordingDb(pool);
    const ctx = { db, media: { publicUrl: (key: string) => key } } as unknown as Context;
    for (const query of ['q=riya ver', 'q=as', 'q=pillai&state=complimentary', 'state=cancelled&sort=last_active', 'sort=last_active']) {
      recorder.label = `GET /admin/learners?${query}`;
      const params = new URLSearchParams(query);
      await listLearners(ctx, {
        q: params.get('q') ?? undefined,
        state: (params.get('state') ?? undefined) as never,
        sort: (params.get('sort') ?? 'signed_up') as 'signed_up' | 'last_active',
        limit: 50,
      });
    }
    recorder.label = 'GET /admin/learners/:id';
    await getLearner(ctx, learnerId);
    const notes: string[] = [];
    for (const query of recorder.queries) {
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.params);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      notes.push(
        `<details><summary>${query.label}: ${[...new Set(scansOf(plan))].join('; ')} — ${/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]} ms</summary>\n\n\`\`\`sql\n${query.sql}\n\`\`\`\n\n\`\`\`\n${plan}\n\`\`\`\n</details>\n`,
      );
    }
    return notes;
  } finally {
    await pool.end();
  }
}

export async function measureLearners(bench: Bench): Promise<SectionResult> {
  const rounds = bench.quick ? 5 : 15;
  const pageRuns = bench.quick ? 100 : 300;
  const loadBefore = os.loadavg()[0]!;
  const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_learners');
  const name = 'learners-postgres';
  const options = { name, dataDir: path.join(bench.workDir, name), databaseUrl, logDir: bench.workDir };
  let product = await startProduct(options);
  await loginAsAdmin(product);
  await product.stop();
  bench.log(`  writing ${thousands(USERS)} learners and ${thousands(PAYMENTS)} payments, PostgreSQL`);
  const seeding = performance.now();
  await seed(databaseUrl);
  const seededMs = performance.now() - seeding;
  const rows: Measurement[] = [
    {
      what: `${thousands(USERS)} learners, their subscriptions and ${thousands(PAYMENTS)} payments written (generate_series, trigram indexes made after), PostgreSQL`,
      measured: ms(seededMs),
    },
  ];
  product = await startProduct(options);
  let plans: string[];
  try {
    const cookie = await loginAsAdmin(product);

    bench.log(`  ${rounds} rounds of ${SEARCHES.length} searches, each with its second page`);
    const searchTimes: number[] = [];
    const learnerIds: string[] = [];
    for (let round = -1; round < rounds; round++) {
      for (const query of SEARCHES) {
        const first = await timeGet(product, `/admin/learners?${query}`, cookie);
        const page = JSON.parse(first.body) as { learners: { _id: string }[]; nextCursor: string | null };
        if (round < 0) {
          learnerIds.push(...page.learners.slice(0, 3).map((learner) => learner._id));
          continue;
        }
        searchTimes.push(first.ms);
        if (page.nextCursor) searchTimes.push((await timeGet(product, `/admin/learners?${query}${query ? '&' : ''}cursor=${page.nextCursor}`, cookie)).ms);
      }
    }
    const searchP99 = percentile(searchTimes, 99);
    rows.push({
      what: `GET /admin/learners: ${SEARCHES.length} searches (substring and prefix, with and without a state, both orders) and their second pages, PostgreSQL`,
      measured: `p50 ${ms(median(searchTimes))} · p99 ${ms(searchP99)} (${searchTimes.length} requests)`,
      budget: `p99 < ${SEARCH_P99_BUDGET_MS} ms`,
      met: searchP99 < SEARCH_P99_BUDGET_MS,
    });

    bench.log(`  ${pageRuns} learner pages`);
    const pageTimes: number[] = [];
    for (let run = -10; run < pageRuns; run++) {
      const id = learnerIds[(run + 10) % learnerIds.length]!;
      const { ms: took } = await timeGet(product, `/admin/learners/${id}`, cookie);
      if (run >= 0) pageTimes.push(took);
    }
    const pageP99 = percentile(pageTimes, 99);
    rows.push({
      what: `GET /admin/learners/:id (${learnerIds.length} learners the searches found, in turn), PostgreSQL`,
      measured: `p50 ${ms(median(pageTimes))} · p99 ${ms(pageP99)} (${pageRuns} requests)`,
      budget: `p99 < ${PAGE_P99_BUDGET_MS} ms`,
      met: pageP99 < PAGE_P99_BUDGET_MS,
    });

    bench.log(`  the CSV of ${thousands(USERS)} learners`);
    const csv = await measureExport(product, cookie);
    rows.push({
      what: `GET /admin/learners/export: every learner, PostgreSQL`,
      measured: `${thousands(csv.rows)} rows, ${mb(csv.bytes)} in ${csv.seconds.toFixed(1)} s: ${thousands(csv.rows / csv.seconds)} rows/s`,
    });
    rows.push({
      what: `server RSS growth during the CSV download, PostgreSQL`,
      measured: mb(csv.growth),
      budget: `< ${mb(EXPORT_RSS_BUDGET_BYTES)}`,
      met: csv.growth < EXPORT_RSS_BUDGET_BYTES,
    });
    plans = await explain(databaseUrl, learnerIds[0]!);
  } finally {
    await product.stop();
  }
  const load = `load average (1 min) ${loadBefore.toFixed(1)} as the section began, ${os.loadavg()[0]!.toFixed(1)} as it ended, on ${os.cpus().length} cores`;
  return {
    title: `Learners: search, a learner's page and the CSV over ${thousands(USERS)} learners and ${thousands(PAYMENTS)} payments`,
    rows,
    notes: [
      `PostgreSQL only: seeding a million accounts into the embedded PGlite takes longer than the rest of the bench, and the issue's scale is stated for PostgreSQL. ` +
        `Searches: ${SEARCHES.length} queries (${SEARCHES.map((query) => `\`${query || '(none)'}\``).join(', ')}), each followed by its second page through the cursor, ${rounds} rounds after one for warm-up, one request at a time, timed from the bench as the administrator. ` +
        `A learner's page: the first three learners of each search, in turn. The CSV: read as fast as the bench takes it, the server's RSS (VmRSS) sampled every 10 ms; growth is the peak less the RSS before. The machine's ${load}.`,
      '',
      'Plans on PostgreSQL, of the SQL exactly as the services send it:',
      '',
      ...plans,
    ],
  };
}
