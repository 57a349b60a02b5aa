import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Context } from '../../../server/src/context.ts';
import { migrationsFolder, openDatabase, type DatabaseTarget } from '../../../server/src/db/client.ts';
import * as schema from '../../../server/src/db/schema.ts';
import type { UserRow } from '../../../server/src/features/auth/sessions.ts';
import { getMyProgress } from '../../../server/src/features/progress/my-courses.service.ts';
import { writeHeldSaves } from '../../../server/src/features/progress/progress.service.ts';
import { getEngagement } from '../../../server/src/features/stats/stats.service.ts';
import type { Bench } from '../bench.ts';
import { recreateDatabase } from '../postgres.ts';
import { freePort, startService, waitUntilUp } from '../processes.ts';
import { getJson, startProduct } from '../product.ts';
import { median, ms, thousands, type Measurement, type SectionResult } from '../report.ts';
import { recordingDb, timeAndExplain } from '../queries.ts';
import { paced } from '../paced.ts';
import { describeRate, wrk } from '../wrk.ts';

const HELLO_WORLD = path.join(path.dirname(fileURLToPath(import.meta.url)), '../hello-world.ts');
const BUDGET_MS = 100;
/** The scale progress saves are built for: 10,000 viewers saving every ~10 s. */
const VIEWERS_WRITES_PER_SECOND = 1000;
/** A save is answered at once (it is written with the others of its second): its p99 stays under this. */
const SAVE_P99_MS = 50;
/** The fixed-rate run: ten flushes of a second at the budget's rate. */
const PACED_SECONDS = 10;
const LECTURES_PER_COURSE = 10;
/** The i-th lecture's place ('a1', 'a2', …: fractional-indexing keys, good for up to 61 lectures). */
const rankOf = (column: string) => `'a' || substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', ${column} + 1, 1)`;

/**
 * Every request a save of another session (each under its 30-a-minute limit, so what is measured is
 * writing, not holding back), each session watching one lecture (session mod 10, as Lua counts from 1),
 * read a millisecond after the last.
 */
const SAVES_SCRIPT = `
local sessions = tonumber(os.getenv("SESSIONS"))
local lectures = {}
for id in string.gmatch(os.getenv("LECTURES"), "[^,]+") do lectures[#lectures + 1] = id end
local n = 0
local base = os.time() * 1000
request = function()
  n = n + 1
  local session = n % sessions + 1
  local lecture = lectures[session % #lectures + 1]
  local body = string.format('{"position":%d,"watched":10,"at":%d}', n % 500, base + n)
  return wrk.format("POST", "/api/v1/progress/lectures/" .. lecture, { ["content-type"] = "application/json", ["cookie"] = "lms_session=benchsession" .. session }, body)
end
`;

/** Subscribers with a session each (cookie `lms_session=benchsession<i>`) and ten 10-minute lectures in the course. */
async function seedSavers(target: DatabaseTarget, sessions: number): Promise<{ courseId: string; lectures: string[] }> {
  const database = await openDatabase(target);
  try {
    const { db } = database;
    // A course of its own: the demo course's lectures already hold the first places.
    const courseId = (
      (await db.execute(sql`
        insert into courses (title, description, category, created_by, thumbnail_key, status, published_at)
        values ('Bench saves', 'Saved to.', 'Bench', 'Bench', 'thumbnails/bench.webp', 'published', now()) returning id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows[0]!.id;
    await db.execute(sql`
      insert into lectures (course_id, title, description, video_key, video_type, video_bytes, duration_seconds, video_state, created_at, rank)
      select ${courseId}, 'Bench lecture ' || i, 'Saved to.', 'videos/bench.mp4', 'video/mp4', 1, 600, 'ready', now() + i * interval '1 second', ${sql.raw(rankOf('i'))}
      from generate_series(1, ${LECTURES_PER_COURSE}) as i`);
    await db.execute(sql`
      insert into users (id, full_name, email, password_hash, subscription_ends_at)
      select md5('bench-saver-' || i)::uuid, 'Saver ' || i, 'saver' || i || '@bench.example', 'no password', now() + interval '30 days'
      from generate_series(1, ${sessions}) as i`);
    await db.execute(sql`
      insert into sessions (token_hash, user_id, expires_at)
      select encode(sha256(convert_to('benchsession' || i, 'UTF8')), 'hex'), md5('bench-saver-' || i)::uuid, now() + interval '1 day'
      from generate_series(1, ${sessions}) as i`);
    const { rows } = (await db.execute(
      sql`select id from lectures where course_id = ${courseId} and title like 'Bench lecture %' order by created_at`,
    )) as unknown as { rows: { id: string }[] };
    const ids = rows.map((row) => row.id);
    // The steady state of many viewers: each is already part-way through their lecture (the script's choice).
    await db.execute(sql`
      insert into lecture_progress (user_id, lecture_id, course_id, position_seconds, position_at)
      select md5('bench-saver-' || i)::uuid, (${`{${ids.join(',')}}`}::uuid[])[i % ${ids.length} + 1], ${courseId}, 60, now() - interval '1 hour'
      from generate_series(1, ${sessions}) as i`);
    await db.execute(sql`
      insert into course_progress (user_id, course_id, last_lecture_id, last_watched_at)
      select md5('bench-saver-' || i)::uuid, ${courseId}, (${`{${ids.join(',')}}`}::uuid[])[i % ${ids.length} + 1], now() - interval '1 hour'
      from generate_series(1, ${sessions}) as i`);
    return { courseId, lectures: ids };
  } finally {
    await database.close();
  }
}

/** wrk's saves against a product on `databaseUrl` (PostgreSQL) or its embedded database. */
async function measureSaves(
  bench: Bench,
  label: string,
  name: string,
  databaseUrl: string | undefined,
): Promise<{ saturated: Measurement & { rate: number }; paced: Measurement }> {
  const dataDir = path.join(bench.workDir, name);
  // Without the video pipeline: the demo's transcodes would take a core, and each of their steps, a
  // change to the catalogue, would drop every learner's kept rows.
  const options = { name, dataDir, databaseUrl, logDir: bench.workDir, env: { VIDEO_PROCESSING: 'off' } };
  let product = await startProduct(options);
  await product.stop(); // migrated; the savers go in with the server stopped
  const { sessions } = bench.sizes.progress;
  const { courseId, lectures } = await seedSavers(databaseUrl ? { url: databaseUrl } : { dir: path.join(dataDir, 'db') }, sessions);
  product = await startProduct(options);
  try {
    const script = path.join(bench.workDir, 'progress-saves.lua');
    await fs.writeFile(script, SAVES_SCRIPT);
    // One save by hand first: a refusal says why, where wrk would only count it.
    const probe = await fetch(`${product.url}/api/v1/progress/lectures/${lectures[0]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'lms_session=benchsession1' },
      body: JSON.stringify({ position: 1, watched: 1, at: Date.now() }),
    });
    if (probe.status !== 200) throw new Error(`a save on ${label} answered ${probe.status}: ${await probe.text()}`);
    // Viewers already watching: each opened their lecture page, which reads their progress in the course before the player starts.
    bench.log(`  ${thousands(sessions)} viewers open their lecture page, ${label}`);
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < sessions) await getJson(product, `/progress/courses/${courseId}`, `lms_session=benchsession${++next}`);
      }),
    );
    bench.log(`  wrk: progress saves, ${label}`);
    const result = wrk(`${product.url}/`, bench.sizes.apiLoad, { script, env: { SESSIONS: String(sessions), LECTURES: lectures.join(',') } });
    // The saves of the saturated run written, then the budget's rate on a fixed schedule.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    bench.log(`  ${thousands(VIEWERS_WRITES_PER_SECOND)} saves a second on a fixed schedule, ${label}`);
    const atRate = await paced(product.url, VIEWERS_WRITES_PER_SECOND, PACED_SECONDS, (n) => {
      const session = (n % sessions) + 1;
      return {
        method: 'POST',
        path: `/api/v1/progress/lectures/${lectures[session % lectures.length]}`,
        headers: { 'content-type': 'application/json', cookie: `lms_session=benchsession${session}` },
        body: JSON.stringify({ position: n % 500, watched: 10, at: Date.now() }),
      };
    });
    // The saves were written (a learner's read writes their held saves first): a saver finds its position.
    const saved = await getJson<{ lectures: unknown[] }>(product, `/progress/courses/${courseId}`, 'lms_session=benchsession1');
    if (saved.lectures.length === 0) throw new Error(`no progress saved on ${label}`);
    return {
      saturated: {
        what: `POST /api/v1/progress/lectures/:id, ${label}, wrk at full speed`,
        measured: describeRate(result),
        rate: result.requestsPerSecond,
        budget: `≥ ${thousands(VIEWERS_WRITES_PER_SECOND)}/s (10,000 viewers every ~10 s)`,
        met: result.requestsPerSecond >= VIEWERS_WRITES_PER_SECOND,
      },
      paced: {
        what: `the same, ${label}, ${thousands(VIEWERS_WRITES_PER_SECOND)}/s on a fixed schedule`,
        measured:
          `${thousands(atRate.answeredPerSecond)} answered/s · p50 ${ms(atRate.p50Ms)} · p99 ${ms(atRate.p99Ms)} · max ${ms(atRate.maxMs)} (sent late: p99 ${ms(atRate.sendLateP99Ms)})` +
          (atRate.failed > 0 ? ` · ${thousands(atRate.failed)} failed: ${JSON.stringify(atRate.answers)}` : ''),
        budget: `p99 ≤ ${SAVE_P99_MS} ms at ${thousands(VIEWERS_WRITES_PER_SECOND)}/s`,
        met: atRate.failed === 0 && atRate.p99Ms <= SAVE_P99_MS,
      },
    };
  } finally {
    await product.stop();
  }
}

/**
 * `learners` subscribers (three in ten active, the rest lapsed), five courses of ten lectures, and a
 * progress row for every learner and lecture: learner u has completed the first (7u + 3c) mod 11
 * lectures of course c, stopped at 2:00 in the rest, and last watched 0–59 days ago.
 */
async function loadEngagement(client: pg.Client, learners: number): Promise<void> {
  await client.query(`SET session_replication_role = replica`); // no foreign-key checks or triggers for the bulk load
  // Millions of rows in random key order: building each index once at the end is several times quicker than keeping it up row by row.
  const indexes = await dropIndexes(client, ['lecture_progress', 'course_progress']);
  await client.query(
    `INSERT INTO courses (id, title, description, category, created_by, thumbnail_key, status, published_at)
     SELECT md5('bench-course-' || c)::uuid, 'Engagement course ' || c, 'Bench.', 'Bench', 'Bench', 'thumbnails/bench.webp', 'published', now() FROM generate_series(1, 5) AS c`,
  );
  await client.query(
    `INSERT INTO lectures (id, course_id, title, description, video_key, video_type, video_bytes, duration_seconds, video_state, created_at, rank)
     SELECT md5('bench-lecture-' || c || '-' || l)::uuid, md5('bench-course-' || c)::uuid, 'Lecture ' || l, 'Bench.', 'videos/bench.mp4', 'video/mp4', 1, 600, 'ready', now() + l * interval '1 second', ${rankOf('l')}
     FROM generate_series(1, 5) AS c, generate_series(1, ${LECTURES_PER_COURSE}) AS l`,
  );
  await client.query(
    `INSERT INTO users (id, full_name, email, password_hash, subscription_ends_at)
     SELECT md5('bench-learner-' || u)::uuid, 'Learner ' || u, 'learner' || u || '@bench.example', 'no password',
            CASE WHEN u % 10 < 3 THEN now() + (u % 30 + 1) * interval '1 day' ELSE now() - (u % 300 + 1) * interval '1 day' END
     FROM generate_series(1, $1::int) AS u`,
    [learners],
  );
  await client.query(
    `INSERT INTO lecture_progress (user_id, lecture_id, course_id, position_seconds, position_at, watched_seconds, completed_at, updated_at)
     SELECT md5('bench-learner-' || u)::uuid, md5('bench-lecture-' || c || '-' || l)::uuid, md5('bench-course-' || c)::uuid,
            CASE WHEN l <= (7 * u + 3 * c) % 11 THEN 600 ELSE 120 END, now(), 120,
            CASE WHEN l <= (7 * u + 3 * c) % 11 THEN now() END, now()
     FROM generate_series(1, $1::int) AS u, generate_series(1, 5) AS c, generate_series(1, ${LECTURES_PER_COURSE}) AS l`,
    [learners],
  );
  await client.query(
    `INSERT INTO course_progress (user_id, course_id, completed_lectures, last_lecture_id, last_watched_at, started_at)
     SELECT md5('bench-learner-' || u)::uuid, md5('bench-course-' || c)::uuid, LEAST((7 * u + 3 * c) % 11, ${LECTURES_PER_COURSE}),
            md5('bench-lecture-' || c || '-1')::uuid, now() - ((13 * u + c) % 60) * interval '1 day', now() - interval '90 days'
     FROM generate_series(1, $1::int) AS u, generate_series(1, 5) AS c`,
    [learners],
  );
  await client.query(`SET maintenance_work_mem = '512MB'`);
  for (const statement of indexes) await client.query(statement);
  await client.query(`SET session_replication_role = DEFAULT`);
  // What the triggers (off for the load) would have counted.
  await client.query(
    `INSERT INTO course_completion_counts (course_id, completed_lectures, learners) SELECT course_id, completed_lectures, count(*) FROM course_progress GROUP BY 1, 2`,
  );
  await client.query('VACUUM ANALYZE');
}

/** Drops every index of `tables` (a primary key as its constraint); answers the statements that make them again. */
async function dropIndexes(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ table: string; index: string; definition: string; constraint: string | null; constraint_definition: string | null }>(
    `SELECT i.indrelid::regclass::text AS table, i.indexrelid::regclass::text AS index, pg_get_indexdef(i.indexrelid) AS definition,
            c.conname AS constraint, pg_get_constraintdef(c.oid) AS constraint_definition
     FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
     WHERE i.indrelid::regclass::text = ANY($1)`,
    [tables],
  );
  const again: string[] = [];
  for (const row of rows) {
    if (row.constraint) {
      await client.query(`ALTER TABLE ${row.table} DROP CONSTRAINT ${row.constraint}`);
      again.push(`ALTER TABLE ${row.table} ADD CONSTRAINT ${row.constraint} ${row.constraint_definition}`);
    } else {
      await client.query(`DROP INDEX ${row.index}`);
      again.push(row.definition);
    }
  }
  return again;
}

/**
 * The database of the engagement figures: `learners` × 50 progress rows. Loading them takes minutes
 * and copying them seconds, so the loaded database is kept on the server, named after what makes it
 * (the migrations, the load, the size and the day: its times are relative to now), and copied for
 * the next run of the day; a kept copy of anything else is dropped. Answers the URL and what it took.
 */
async function engagementDatabase(bench: Bench, learners: number): Promise<{ databaseUrl: string; how: string }> {
  const migrations = await fs.readdir(migrationsFolder, { recursive: true });
  const digest = createHash('sha256').update(`${learners} ${new Date().toISOString().slice(0, 10)} ${loadEngagement} ${dropIndexes}`);
  for (const name of migrations.sort()) {
    const file = path.join(migrationsFolder, name);
    if ((await fs.stat(file)).isFile()) digest.update(name).update(await fs.readFile(file));
  }
  const kept = `lms_bench_engagement_${digest.digest('hex').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: bench.postgresUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'lms_bench_engagement_%'`);
    if (rows.some((row) => row.datname === kept)) {
      const started = performance.now();
      await admin.query('DROP DATABASE IF EXISTS lms_bench_progress WITH (FORCE)');
      // A file copy: for a database of this size far quicker than the default, which writes every page to the WAL.
      await admin.query(`CREATE DATABASE lms_bench_progress TEMPLATE ${kept} STRATEGY FILE_COPY`);
      const url = new URL(bench.postgresUrl);
      url.pathname = '/lms_bench_progress';
      return {
        databaseUrl: url.href,
        how: `copied from the database an earlier run of the day loaded: ${((performance.now() - started) / 1000).toFixed(0)} s`,
      };
    }
    for (const { datname } of rows) await admin.query(`DROP DATABASE ${datname} WITH (FORCE)`);

    const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_progress');
    const product = await startProduct({ name: 'progress-scale', dataDir: path.join(bench.workDir, 'progress-scale'), databaseUrl, logDir: bench.workDir });
    await product.stop(); // migrated; the load goes in with the server stopped
    bench.log(`  loading ${thousands(learners)} learners × 50 lectures of progress into PostgreSQL`);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const started = performance.now();
    try {
      await loadEngagement(client, learners);
    } finally {
      await client.end();
    }
    const loadSeconds = (performance.now() - started) / 1000;
    await admin.query(`CREATE DATABASE ${kept} TEMPLATE lms_bench_progress STRATEGY FILE_COPY`);
    return { databaseUrl, how: `bulk load, then VACUUM ANALYZE: ${loadSeconds.toFixed(0)} s (kept for the next run of the day)` };
  } finally {
    await admin.end();
  }
}

/** The dashboard's engagement queries, a learner's list and a save, on PostgreSQL with `learners` × 50 progress rows. */
async function measureEngagement(bench: Bench): Promise<{ rows: Measurement[]; notes: string[] }> {
  const { learners, runs } = bench.sizes.progress;
  const { databaseUrl, how } = await engagementDatabase(bench, learners);

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const { db, recorder } = recordingDb(pool);
  const ctx = { db, media: { publicUrl: (key: string) => `/media/${key}` }, heldSaves: { holds: () => false } } as unknown as Context;
  const rows: Measurement[] = [];
  const notes: string[] = [];
  try {
    const [learner] = await db
      .select()
      .from(schema.users)
      .where(sql`email = 'learner1@bench.example'`);
    recorder.queries.length = 0;
    // The services' queries in the order they send them.
    recorder.label = 'GET /admin/engagement';
    await getEngagement(ctx);
    const names = ['active learners this week', 'subscribers who stopped watching', 'per course: started, completed, average'];
    recorder.label = 'GET /progress (one learner, 5 courses)';
    await getMyProgress(ctx, learner as UserRow);
    names.push('courses started', 'their lectures', 'their progress');
    const timed = await timeAndExplain(pool, recorder.queries, names, runs, BUDGET_MS);
    rows.push(...timed.rows);
    notes.push(...timed.notes);
    // One flush of one save at this size, as the held saves write it (two statements in a transaction).
    const lecture = (await pool.query<{ id: string; course_id: string }>(`select id, course_id from lectures where id = md5('bench-lecture-3-5')::uuid`))
      .rows[0]!;
    const saves: number[] = [];
    for (let run = -1; run < runs; run++) {
      const started = performance.now();
      const at = Date.now();
      await writeHeldSaves(ctx, [
        {
          userId: learner!.id,
          lectureId: lecture.id,
          courseId: lecture.course_id,
          position: 200 + run,
          positionAt: at,
          watched: 10,
          duration: null,
          completingAt: null,
          heldAt: at,
        },
      ]);
      if (run >= 0) saves.push(performance.now() - started);
    }
    rows.push({
      what: 'one flush of one save (writeHeldSaves) at this size',
      measured: `p50 ${ms(median(saves))} (max ${ms(Math.max(...saves))}, ${runs} runs)`,
    });
  } finally {
    await pool.end();
  }
  notes.unshift(
    `${thousands(learners * 50)} lecture rows and ${thousands(learners * 5)} course rows, ${how}. Each query as the service sends it, timed from the bench over one pooled connection; plans:`,
    '',
  );
  return { rows, notes };
}

export async function measureProgress(bench: Bench): Promise<SectionResult> {
  const port = await freePort();
  const helloWorld = startService('hello-world', process.execPath, ['--import', 'tsx', HELLO_WORLD], {
    env: { PORT: String(port) },
    logFile: path.join(bench.workDir, 'hello-world.log'),
  });
  let reference;
  try {
    await waitUntilUp(`http://127.0.0.1:${port}/`);
    reference = wrk(`http://127.0.0.1:${port}/`, bench.sizes.apiLoad);
  } finally {
    await helloWorld.stop();
  }
  const rows: Measurement[] = [{ what: 'bare Fastify hello-world (reference)', measured: describeRate(reference) }];
  for (const [label, name, databaseUrl] of [
    ['embedded PGlite', 'progress-embedded', undefined],
    ['PostgreSQL', 'progress-postgres', await recreateDatabase(bench.postgresUrl, 'lms_bench_progress_saves')],
  ] as const) {
    const { saturated, paced: atRate } = await measureSaves(bench, label, name, databaseUrl);
    const { rate, ...row } = saturated;
    rows.push({ ...row, reference: 'hello-world', ratio: rate / reference.requestsPerSecond }, atRate);
  }
  const engagement = await measureEngagement(bench);
  const { connections, seconds } = bench.sizes.apiLoad;
  return {
    title: `Learner progress: saves, and the engagement figures with ${thousands(bench.sizes.progress.learners)} learners × 50 lectures`,
    rows: [...rows, ...engagement.rows],
    notes: [
      `Saves: wrk, one thread, ${connections} connections, ${seconds} s after a 1 s warm-up; ${thousands(bench.sizes.progress.sessions)} subscriber sessions in turn over ${LECTURES_PER_COURSE} lectures, each session under its 30-a-minute limit (so every save is answered in full, none with a bare 202); each viewer's lecture page read their course progress first, as the lecture page does; the servers' video pipeline off (no transcode of the demo's videos beside the saves); saves are acknowledged at once and written in batches of a second (decision 0037); a non-2xx answer fails the run. Then, 2 s later, ${thousands(VIEWERS_WRITES_PER_SECOND)} saves a second on a fixed schedule for ${PACED_SECONDS} s from the bench's own process over the same sessions, each timed from when it was due (wrk sends a request only when one is answered, so its p99 hides the saves a stall would have delayed): the budget's p99 is judged on this row, the rate on wrk's (bench/README.md).`,
      '',
      ...engagement.notes,
    ],
  };
}
