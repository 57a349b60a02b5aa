import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { parseCaptions } from '../../../contract/src/webvtt.ts';
import { openDatabase, type DatabaseTarget } from '../../../server/src/db/client.ts';
import { captionCues, courses, lectureCaptions, lectures } from '../../../server/src/db/schema.ts';
import { rankAfter } from '../../../server/src/features/courses/ranks.ts';
import { searchCaptions } from '../../../server/src/features/captions/search.service.ts';
import type { Context } from '../../../server/src/context.ts';
import type { Bench } from '../bench.ts';
import { recreateDatabase } from '../postgres.ts';
import { recordingDb, scansOf } from '../queries.ts';
import { firstCourse, startProduct } from '../product.ts';
import { kb, median, ms, percentile, type Measurement, type SectionResult } from '../report.ts';

/** 100 lectures of 1,000 cues: 90 in English, 10 in Hindi (read with the `simple` configuration). */
const LECTURES = 100;
const HINDI_LECTURES = 10;
const CUES_PER_LECTURE = 1000;
/** A search is typed into the catalogue's box and answered while the learner waits. */
const SEARCH_P99_BUDGET_MS = 50;
/** The largest file the cue editor or an upload may hold is 20,000 cues; a long lecture's is ~10,000. */
const FILE_CUES = 10_000;
const SEARCHES = [
  { what: 'a common word (in ~1 cue of 10)', q: 'function' },
  { what: 'a rare word (in 12 cues)', q: 'quaternion' },
  { what: 'a phrase (in ~1 cue of 200)', q: '"binary search"' },
  { what: 'a Hindi word (in ~1 Hindi cue of 20)', q: 'पायथन' },
];

const ENGLISH = (
  'we now look at how the value changes when you call it again and the list grows by one each time ' +
  'so remember to check the result before you return it from the loop this is where most people make ' +
  'a mistake the compiler will tell you about types variables objects classes methods strings numbers ' +
  'arrays errors tests memory pointers files network requests answers servers clients queries tables'
).split(' ');
const HINDI = 'आज हम सीखेंगे कि यह कैसे काम करता है और फिर हम इसे एक उदाहरण से समझेंगे ध्यान दीजिए यहाँ पर सूची में नया मान जुड़ता है'.split(' ');

/** A small fixed-seed generator: every run writes the same cues. */
function randomFrom(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

/** A cue's text: a dozen words of the language, with the searched words sprinkled in at the rates SEARCHES says. */
function cueText(random: (below: number) => number, hindi: boolean, index: number): string {
  const words = hindi ? HINDI : ENGLISH;
  const out = Array.from({ length: 8 + random(8) }, () => words[random(words.length)]!);
  const at = () => random(out.length);
  if (hindi) {
    if (random(20) === 0) out.splice(at(), 0, 'पायथन');
  } else {
    if (random(10) === 0) out.splice(at(), 0, 'function');
    if (random(200) === 0) out.splice(at(), 0, 'binary', 'search');
    if (index % 7919 === 0) out.splice(at(), 0, 'quaternion');
  }
  return out.join(' ');
}

/** The course, its lectures and their captions written straight into the database while the server is stopped. */
async function seedCaptions(target: DatabaseTarget, thumbnailKey: string): Promise<void> {
  const database = await openDatabase(target);
  try {
    const { db } = database;
    const [course] = await db
      .insert(courses)
      .values({
        title: 'Captioned course',
        description: 'Lectures with captions.',
        category: 'Bench',
        createdBy: 'Bench',
        thumbnailKey,
        status: 'published',
        publishedAt: new Date(),
      })
      .returning({ id: courses.id });
    let rank: string | null = null;
    const lectureRows = await db
      .insert(lectures)
      .values(
        Array.from({ length: LECTURES }, (_, l) => ({
          courseId: course!.id,
          rank: (rank = rankAfter(rank)),
          title: `Lecture ${l + 1}`,
          description: 'A lecture of the bench.',
          videoKey: `videos/${'ca'.repeat(16)}.mp4`,
          videoType: 'video/mp4',
          videoBytes: 1,
          durationSeconds: CUES_PER_LECTURE * 4,
          videoState: 'ready' as const,
          isPreview: l % 10 === 0,
        })),
      )
      .returning({ id: lectures.id });
    const random = randomFrom(27);
    let index = 0;
    for (const [l, lecture] of lectureRows.entries()) {
      const hindi = l >= LECTURES - HINDI_LECTURES;
      const [caption] = await db
        .insert(lectureCaptions)
        .values({
          lectureId: lecture.id,
          language: hindi ? 'hi' : 'en',
          label: hindi ? 'हिन्दी' : 'English',
          isDefault: true,
          fileKey: `captions/bench/${lecture.id}.vtt`,
          bytes: 1,
          cueCount: CUES_PER_LECTURE,
        })
        .returning({ id: lectureCaptions.id });
      await db.insert(captionCues).values(
        Array.from({ length: CUES_PER_LECTURE }, (_, position) => ({
          captionId: caption!.id,
          position,
          startMs: position * 4000,
          endMs: position * 4000 + 3500,
          text: cueText(random, hindi, index++),
          searchConfig: hindi ? 'simple' : 'english',
        })),
      );
    }
    await db.execute(sql`vacuum analyze caption_cues`);
  } finally {
    await database.close();
  }
}

/** `GET /captions/search` one request at a time; a forwarded address per hundred, so that the per-address limit (120 a minute) does not answer instead. */
async function timeSearches(url: string, q: string, runs: number, firstAddress: number): Promise<{ times: number[]; found: number }> {
  const times: number[] = [];
  let found = 0;
  for (let run = -10; run < runs; run++) {
    const address = firstAddress + Math.floor((run + 10) / 100);
    const started = performance.now();
    const response = await fetch(`${url}/api/v1/captions/search?q=${encodeURIComponent(q)}&limit=10`, {
      headers: { 'x-forwarded-for': `10.27.${address >> 8}.${address & 255}` },
    });
    const body = (await response.json()) as { matches?: unknown[] };
    if (run >= 0) times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`a search answered ${response.status}: ${JSON.stringify(body)}`);
    found = body.matches!.length;
  }
  return { times, found };
}

/** The plan of the search's SQL, exactly as the service sends it, with its buffers. */
async function explainSearch(databaseUrl: string, q: string): Promise<string> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { db, recorder } = recordingDb(pool);
    await searchCaptions({ db } as unknown as Context, { q, limit: 10, viewer: null });
    const search = recorder.queries.at(-1)!;
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${search.sql}`, search.params);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    return `<details><summary>${q}: ${[...new Set(scansOf(plan))].join('; ')} — ${/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]} ms</summary>\n\n\`\`\`sql\n${search.sql}\n\`\`\`\n\n\`\`\`\n${plan}\n\`\`\`\n</details>\n`;
  } finally {
    await pool.end();
  }
}

async function measureSearches(bench: Bench, label: string, name: string, databaseUrl: string | undefined, runs: number): Promise<Measurement[]> {
  const dataDir = path.join(bench.workDir, name);
  // The search is limited per address: the bench names one per hundred requests, as a proxy would.
  const options = { name, dataDir, databaseUrl, logDir: bench.workDir, env: { TRUST_PROXY: '1' } };
  let product = await startProduct(options);
  const { thumbnailKey } = await firstCourse(product);
  await product.stop();
  bench.log(`  writing ${LECTURES * CUES_PER_LECTURE} cues, ${label}`);
  const seeding = performance.now();
  await seedCaptions(databaseUrl ? { url: databaseUrl } : { dir: path.join(dataDir, 'db') }, thumbnailKey);
  const seeded = performance.now() - seeding;
  product = await startProduct(options);
  const rows: Measurement[] = [
    {
      what: `${(LECTURES * CUES_PER_LECTURE).toLocaleString('en-US')} cues in ${LECTURES} lectures written (insert, GIN index kept, vacuum analyze), ${label}`,
      measured: ms(seeded),
    },
  ];
  try {
    for (const [index, search] of SEARCHES.entries()) {
      bench.log(`  ${runs} searches for ${search.q}, ${label}`);
      const { times, found } = await timeSearches(product.url, search.q, runs, index * 100);
      const p99 = percentile(times, 99);
      rows.push({
        what: `GET /captions/search, ${search.what}: ${search.q}, ${label}`,
        measured: `p50 ${ms(median(times))} · p99 ${ms(p99)} (${runs} searches, ${found} lectures found)`,
        budget: `p99 < ${SEARCH_P99_BUDGET_MS} ms`,
        met: p99 < SEARCH_P99_BUDGET_MS,
      });
    }
  } finally {
    await product.stop();
  }
  return rows;
}

/** A caption file of `cues` cues, as an upload sends it. */
function captionFile(cues: number): string {
  const random = randomFrom(5);
  const time = (seconds: number) => new Date(seconds * 1000).toISOString().slice(11, 23);
  const blocks = Array.from({ length: cues }, (_, i) => `${i + 1}\n${time(i * 4)} --> ${time(i * 4 + 3.5)}\n${cueText(random, false, i)}`);
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}

function measureParse(runs: number): Measurement {
  const file = captionFile(FILE_CUES);
  const times: number[] = [];
  for (let run = -3; run < runs; run++) {
    const started = performance.now();
    const read = parseCaptions(file);
    if (run >= 0) times.push(performance.now() - started);
    if (!read.ok || read.cues.length !== FILE_CUES) throw new Error(`the file did not read: ${read.ok ? read.cues.length : read.message}`);
  }
  return {
    what: `parseCaptions of a WebVTT file of ${FILE_CUES.toLocaleString('en-US')} cues (${kb(Buffer.byteLength(file))})`,
    measured: `p50 ${ms(median(times))} (max ${ms(Math.max(...times))}, ${runs} parses)`,
  };
}

export async function measureCaptions(bench: Bench): Promise<SectionResult> {
  const runs = bench.quick ? 100 : 300;
  // A p99 of single requests moves with whatever else runs on the machine: the load is printed beside them.
  const loadBefore = os.loadavg()[0]!;
  const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_captions');
  const rows: Measurement[] = [measureParse(bench.quick ? 10 : 30)];
  rows.push(...(await measureSearches(bench, 'PostgreSQL', 'captions-postgres', databaseUrl, runs)));
  const notes = [
    'Plans on PostgreSQL, of the search exactly as the service sends it (its first statement, reading the search in each configuration, touches no table):',
    '',
  ];
  for (const search of SEARCHES) notes.push(await explainSearch(databaseUrl, search.q));
  rows.push(...(await measureSearches(bench, 'embedded PGlite', 'captions-embedded', undefined, runs)));
  const load = `load average (1 min) ${loadBefore.toFixed(1)} as the section began, ${os.loadavg()[0]!.toFixed(1)} as it ended, on ${os.cpus().length} cores`;
  return {
    title: `Captions: search over ${(LECTURES * CUES_PER_LECTURE).toLocaleString('en-US')} cues, and reading a caption file`,
    rows,
    notes: [
      `Search: one course of ${LECTURES} lectures of ${CUES_PER_LECTURE.toLocaleString('en-US')} cues each (${LECTURES - HINDI_LECTURES} English, ${HINDI_LECTURES} Hindi), 8–15 words a cue, written into the database while the server is stopped. ` +
        `Each search sent ${runs} times one after another after 10 for warm-up, logged out, limit 10, timed from the bench; the server runs with TRUST_PROXY=1 and the bench names a new X-Forwarded-For address every 100 requests, so the limit of 120 searches a minute per address is not what answers. The machine's ${load}.`,
      '',
      ...notes,
    ],
  };
}
