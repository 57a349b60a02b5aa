import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase, type DatabaseTarget } from '../../../server/src/db/client.ts';
import { courses, courseSections, lectures } from '../../../server/src/db/schema.ts';
import { rankAfter } from '../../../server/src/features/courses/ranks.ts';
import type { Bench } from '../bench.ts';
import { recreateDatabase } from '../postgres.ts';
import { freePort, startService, waitUntilUp } from '../processes.ts';
import { firstCourse, getJson, loginAsAdmin, startProduct, type Product } from '../product.ts';
import { kb, ms, percentile, type Measurement, type SectionResult } from '../report.ts';
import { describeRate, wrk, type WrkResult } from '../wrk.ts';

/** What one move may write: the lecture moved, no section, its course's row (the lock that orders moves). */
const MAX_ROWS_PER_MOVE = [1, 0, 1];
const ROW_NOISE = 0.05;
const HELLO_WORLD = path.join(path.dirname(fileURLToPath(import.meta.url)), '../hello-world.ts');
/** A large course, 500 lectures in 50 sections; and a small one, to show a reorder writes as much in both. */
const LARGE = { sections: 50, perSection: 10 };
const SMALL = { sections: 2, perSection: 5 };
/** A reorder is one request an admin waits for: its p99 at this size, one request at a time. */
const REORDER_P99_BUDGET_MS = 50;
/** Moves at once, from two admins' browsers: all must be answered 200, none lost or doubled. */
const CONCURRENT_MOVES = 20;

type Arrangement = { sectionIds: string[]; groups: Map<string | null, string[]> };

/** A course of `sections` × `perSection` lectures, written straight into the database while the server is stopped. */
async function seedCourse(
  target: DatabaseTarget,
  thumbnailKey: string,
  size: { sections: number; perSection: number },
): Promise<{ courseId: string } & Arrangement> {
  const database = await openDatabase(target);
  try {
    const { db } = database;
    const now = new Date();
    const [course] = await db
      .insert(courses)
      .values({
        title: `Arranged course: ${size.sections * size.perSection} lectures`,
        description: 'Many sections of lectures.',
        category: 'Bench',
        createdBy: 'Bench',
        thumbnailKey,
        status: 'published',
        publishedAt: now,
      })
      .returning({ id: courses.id });
    const courseId = course!.id;
    const groups = new Map<string | null, string[]>([[null, []]]);
    const sectionIds: string[] = [];
    let sectionRank: string | null = null;
    for (let s = 0; s < size.sections; s++) {
      sectionRank = rankAfter(sectionRank);
      const [section] = await db
        .insert(courseSections)
        .values({ courseId, title: `Section ${s + 1}`, rank: sectionRank })
        .returning({ id: courseSections.id });
      let rank: string | null = null;
      const rows = Array.from({ length: size.perSection }, (_, l) => ({
        courseId,
        sectionId: section!.id,
        rank: (rank = rankAfter(rank)),
        title: `Lecture ${s + 1}.${l + 1}`,
        description: 'A lecture of the bench.',
        // A key of the shape storage makes: the lecture list signs a URL for it (no file is read).
        videoKey: `videos/${'be'.repeat(16)}.mp4`,
        videoType: 'video/mp4',
        videoBytes: 1,
        durationSeconds: 600,
        videoState: 'ready' as const,
      }));
      const inserted = await db.insert(lectures).values(rows).returning({ id: lectures.id });
      sectionIds.push(section!.id);
      groups.set(
        section!.id,
        inserted.map((row) => row.id),
      );
    }
    return { courseId, sectionIds, groups };
  } finally {
    await database.close();
  }
}

/** A small fixed-seed generator: every run moves the same lectures to the same places. */
function randomFrom(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

/** A random move in `arrangement` (a lecture, a group, the lecture to follow there), applied to it as the server will. */
function nextMove(arrangement: Arrangement, random: (below: number) => number) {
  const all = [...arrangement.groups.values()].flat();
  const lectureId = all[random(all.length)]!;
  for (const ids of arrangement.groups.values()) if (ids.includes(lectureId)) ids.splice(ids.indexOf(lectureId), 1);
  const keys = [null, ...arrangement.sectionIds];
  const sectionId = keys[random(keys.length)]!;
  const target = arrangement.groups.get(sectionId)!;
  const at = random(target.length + 1);
  const afterId = at === 0 ? null : target[at - 1]!;
  target.splice(at, 0, lectureId);
  return { lectureId, sectionId, afterId };
}

async function putMove(product: Product, cookie: string, courseId: string, move: ReturnType<typeof nextMove>): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${product.url}/api/v1/courses/${courseId}/lectures/${move.lectureId}/position`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ sectionId: move.sectionId, afterId: move.afterId }),
  });
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`a move answered ${response.status}: ${await response.text()}`);
  return elapsed;
}

/** Rows inserted, updated and deleted so far in the curriculum's tables, as PostgreSQL counts them. */
async function rowsWritten(databaseUrl: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ relname: string; written: string }>(
      `select relname, n_tup_ins + n_tup_upd + n_tup_del as written from pg_stat_user_tables where schemaname = 'public' and relname in ('lectures', 'course_sections', 'courses')`,
    );
    return Object.fromEntries(rows.map((row) => [row.relname, Number(row.written)]));
  } finally {
    await client.end();
  }
}

/** A server's counts reach pg_stat_user_tables at most 10 s after its last transaction (PostgreSQL 15's idle flush). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 11_000));

/**
 * On a server of its own: moves one at a time in the large course (timed), the rows they wrote
 * against as many in the small one (PostgreSQL only: the counts are its statistics), twenty moves
 * at once, then the large course's public page under load.
 */
async function measureReorders(bench: Bench, reference: WrkResult, label: string, name: string, databaseUrl: string | undefined): Promise<Measurement[]> {
  const dataDir = path.join(bench.workDir, name);
  const options = { name, dataDir, databaseUrl, logDir: bench.workDir };
  let product = await startProduct(options);
  const { thumbnailKey } = await firstCourse(product);
  await loginAsAdmin(product);
  await product.stop();
  const target: DatabaseTarget = databaseUrl ? { url: databaseUrl } : { dir: path.join(dataDir, 'db') };
  const large = await seedCourse(target, thumbnailKey, LARGE);
  const small = await seedCourse(target, thumbnailKey, SMALL);
  product = await startProduct(options);
  const rows: Measurement[] = [];
  try {
    const cookie = await loginAsAdmin(product);
    const random = randomFrom(2026);
    const count = bench.quick ? 100 : 500;
    bench.log(`  ${count} reorders one after another, ${label}`);
    for (let warm = 0; warm < 20; warm++) await putMove(product, cookie, large.courseId, nextMove(large, random));
    const counted = databaseUrl ? () => settle().then(() => rowsWritten(databaseUrl)) : undefined;
    const before = await counted?.();
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(await putMove(product, cookie, large.courseId, nextMove(large, random)));
    const p99 = percentile(times, 99);
    rows.push({
      what: `PUT …/lectures/:id/position, ${LARGE.sections * LARGE.perSection} lectures in ${LARGE.sections} sections, ${label}`,
      measured: `p50 ${ms(percentile(times, 50))} · p99 ${ms(p99)} · max ${ms(Math.max(...times))} (${count} moves, one at a time)`,
      budget: `p99 ≤ ${REORDER_P99_BUDGET_MS} ms`,
      met: p99 <= REORDER_P99_BUDGET_MS,
    });
    if (counted && before) {
      const middle = await counted();
      // As many moves in the small course: a move writes as much whatever the course's size.
      for (let i = 0; i < count; i++) await putMove(product, cookie, small.courseId, nextMove(small, random));
      const after = await counted();
      const tables = ['lectures', 'course_sections', 'courses'];
      const perMove = (from: Record<string, number>, to: Record<string, number>) => tables.map((table) => (to[table]! - from[table]!) / count);
      const text = (figures: number[]) => figures.map((figure, i) => `${tables[i]} ${figure.toFixed(2)}`).join(', ');
      const [inLarge, inSmall] = [perMove(before, middle), perMove(middle, after)];
      const [largeWrites, smallWrites] = [text(inLarge), text(inSmall)];
      // At most the lecture moved and its course's row, whatever the size. Random moves that land
      // where the lecture already is write nothing, and the server's statistics may count a
      // warm-up write late: a few hundredths either way are noise, not rows.
      const constant = inLarge.every((figure, i) => figure <= MAX_ROWS_PER_MOVE[i]! + ROW_NOISE && Math.abs(figure - inSmall[i]!) <= 0.2);
      rows.push(
        {
          what: `rows written per move, ${LARGE.sections * LARGE.perSection} lectures in ${LARGE.sections} sections, ${label}`,
          measured: largeWrites,
          budget: `≤ 1 lecture and 1 course a move, as with ${SMALL.sections * SMALL.perSection} lectures`,
          met: constant,
        },
        { what: `rows written per move, ${SMALL.sections * SMALL.perSection} lectures in ${SMALL.sections} sections, ${label}`, measured: smallWrites },
      );
    }
    bench.log(`  ${CONCURRENT_MOVES} moves at once, ${label}`);
    const burst = Array.from({ length: CONCURRENT_MOVES }, () => nextMove(large, random));
    // Each was drawn against the order the previous ones leave, so some name a place that moves meanwhile: they are sent to the first place of their section instead, which is always valid.
    const started = performance.now();
    await Promise.all(burst.map((move) => putMove(product, cookie, large.courseId, { ...move, afterId: null })));
    const elapsed = performance.now() - started;
    const listed = await getJson<{ lectures: { _id: string }[] }>(product, `/courses/${large.courseId}`, cookie);
    const ids = new Set(listed.lectures.map((lecture) => lecture._id));
    const total = LARGE.sections * LARGE.perSection;
    rows.push({
      what: `${CONCURRENT_MOVES} moves at once, ${label}`,
      measured: `all answered 200 in ${ms(elapsed)}; ${ids.size} of ${total} lectures listed, ${listed.lectures.length - ids.size} twice`,
      budget: 'none lost or doubled',
      met: ids.size === total && listed.lectures.length === total,
    });

    bench.log(`  wrk: the public curriculum of that course, ${label}`);
    const page = await fetch(`${product.url}/api/v1/courses/${large.courseId}/curriculum`, { headers: { 'accept-encoding': 'br' } });
    // fetch hands over the body decompressed: what went over the wire is the header's length.
    const compressed = Number(page.headers.get('content-length'));
    await page.arrayBuffer();
    const plain = (await (await fetch(`${product.url}/api/v1/courses/${large.courseId}/curriculum`)).arrayBuffer()).byteLength;
    const curriculum = wrk(`${product.url}/api/v1/courses/${large.courseId}/curriculum`, bench.sizes.apiLoad, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    rows.push({
      what: `GET /api/v1/courses/:id/curriculum, ${total} lectures in ${LARGE.sections} sections, Brotli (${kb(compressed)}; ${kb(plain)} as JSON), ${label}`,
      measured: describeRate(curriculum),
      reference: 'hello-world',
      ratio: curriculum.requestsPerSecond / reference.requestsPerSecond,
    });
  } finally {
    await product.stop();
  }
  return rows;
}

export async function measureCurriculum(bench: Bench): Promise<SectionResult> {
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
    ['embedded PGlite', 'curriculum-embedded', undefined],
    ['PostgreSQL', 'curriculum-postgres', await recreateDatabase(bench.postgresUrl, 'lms_bench_curriculum')],
  ] as const) {
    rows.push(...(await measureReorders(bench, reference, label, name, databaseUrl)));
  }
  const { connections, seconds } = bench.sizes.apiLoad;
  return {
    title: `Curriculum: reordering a course of ${LARGE.sections * LARGE.perSection} lectures in ${LARGE.sections} sections, and its public page`,
    rows,
    notes: [
      'Moves: each a random lecture to a random place (any section, or none) of the course, sent by the admin one at a time after 20 for warm-up, timed from the bench. ' +
        'Rows written: pg_stat_user_tables (inserted + updated + deleted) of lectures, course_sections and courses, read 11 s after the last move (PostgreSQL 15 counts a server’s rows within 10 s of its last transaction); ' +
        'a move writes the lecture moved and touches its course, whatever the course’s size.',
      '',
      `The curriculum: wrk, one thread, ${connections} connections, ${seconds} s after a 1 s warm-up, asking for Brotli as browsers do (the page is kept compressed once).`,
    ],
  };
}
