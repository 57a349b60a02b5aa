import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { AuthoredQuestion } from '../../../contract/src/quizzes.ts';
import type { Context } from '../../../server/src/context.ts';
import { openDatabase, type DatabaseTarget } from '../../../server/src/db/client.ts';
import { quizVersions, quizzes } from '../../../server/src/db/schema.ts';
import { courseQuizAttempts, courseQuizResults } from '../../../server/src/features/quizzes/results.service.ts';
import type { Bench } from '../bench.ts';
import { recreateDatabase } from '../postgres.ts';
import { recordingDb, scansOf } from '../queries.ts';
import { firstCourse, loginAsAdmin, startProduct, type Product } from '../product.ts';
import { median, ms, percentile, thousands, type Measurement, type SectionResult } from '../report.ts';

/** Finished attempts written for the results: spread over the course's quizzes, two a learner and quiz. */
const ATTEMPTS = 100_000;
const RESULT_QUIZZES = 5;
const LEARNERS = ATTEMPTS / RESULT_QUIZZES / 2;
const QUESTIONS = 20;
/** The administrator waits for the page: every results query under this at p99, on PostgreSQL. */
const RESULTS_P99_BUDGET_MS = 100;
/** Grading: this many learners submit at once, round after round. */
const SUBMITTERS = 50;

type ChoiceQuestion = Extract<AuthoredQuestion, { type: 'single' | 'multiple' }>;

/** Learner i's id: an md5 made to read as a version-4 UUID, which the API's answers insist on. */
const learnerId = (i: number | string) =>
  sql.raw(`overlay(overlay(md5('bench-quiz-learner-' || (${i})) placing '4' from 13 for 1) placing '8' from 17 for 1)::uuid`);

/** Twenty single-choice questions of four options, the first one right; ids fixed by the quiz's name, so every run writes the same. */
function benchQuestions(name: string): ChoiceQuestion[] {
  return Array.from({ length: QUESTIONS }, (_, q) => ({
    id: uuidOf(`${name}-q${q}`),
    type: 'single' as const,
    prompt: `Question ${q + 1} of ${name}: which of these is right?`,
    options: Array.from({ length: 4 }, (_, o) => ({ id: uuidOf(`${name}-q${q}-o${o}`), text: `Option ${o + 1}`, correct: o === 0 })),
    explanation: 'The first option always is.',
  }));
}

/** A stable UUID made from a name (the shape of a v4, enough for the checks a UUID goes through). */
function uuidOf(name: string): string {
  let h = 0x811c9dc5;
  const hex: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const char of `${round}:${name}`) h = Math.imul(h ^ char.charCodeAt(0), 0x01000193) >>> 0;
    hex.push(h.toString(16).padStart(8, '0'));
  }
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-8${s.slice(17, 20)}-${s.slice(20, 32)}`;
}

interface Seeded {
  resultQuizIds: string[];
  gradingQuizId: string;
  gradingQuestions: ChoiceQuestion[];
}

/**
 * Written straight into the database while the server is stopped: RESULT_QUIZZES quizzes of the
 * course with ATTEMPTS finished attempts (LEARNERS learners, 1 in 20 expired) and their per-question
 * counters; and a quiz for grading, with SUBMITTERS subscribers holding a session each
 * (`lms_session=benchquiz<i>`).
 */
async function seedQuizzes(target: DatabaseTarget, courseId: string): Promise<Seeded> {
  const database = await openDatabase(target);
  try {
    const { db } = database;
    const resultQuizIds: string[] = [];
    const versionIds: string[] = [];
    for (let n = 0; n < RESULT_QUIZZES + 1; n++) {
      const name = n < RESULT_QUIZZES ? `results-${n}` : 'grading';
      const [quiz] = await db
        .insert(quizzes)
        .values({ courseId, createdAt: new Date(Date.now() - (10 - n) * 60_000) })
        .returning({ id: quizzes.id });
      const [version] = await db
        .insert(quizVersions)
        .values({
          quizId: quiz!.id,
          number: 1,
          title: n < RESULT_QUIZZES ? `Bench quiz ${n + 1}` : 'Grading quiz',
          passMark: 60,
          shuffleQuestions: false,
          shuffleOptions: false,
          layout: 'all',
          questions: benchQuestions(name),
        })
        .returning({ id: quizVersions.id });
      resultQuizIds.push(quiz!.id);
      versionIds.push(version!.id);
    }
    const gradingQuizId = resultQuizIds.pop()!;
    versionIds.pop();
    await db.execute(sql`
      insert into users (id, full_name, email, password_hash, subscription_ends_at)
      select ${learnerId('i')}, 'Quiz learner ' || i, 'quiz' || i || '@bench.example', 'no password', now() + interval '30 days'
      from generate_series(1, ${LEARNERS}) as i`);
    await db.execute(sql`
      insert into sessions (token_hash, user_id, expires_at)
      select encode(sha256(convert_to('benchquiz' || i, 'UTF8')), 'hex'), ${learnerId('i')}, now() + interval '1 day'
      from generate_series(1, ${SUBMITTERS}) as i`);
    // Each row as a graded attempt carries it: the order shown, the answers and what was right.
    const order = JSON.stringify(benchQuestions('results-0').map((q) => ({ questionId: q.id, optionIds: q.options.map((o) => o.id) })));
    const answered = JSON.stringify(benchQuestions('results-0').map((q) => ({ questionId: q.id, optionIds: [q.options[0]!.id] })));
    const correct = JSON.stringify(Object.fromEntries(benchQuestions('results-0').map((q, i) => [q.id, i % 3 !== 0])));
    // Attempt i: learner i mod LEARNERS, quiz (i div LEARNERS) mod RESULT_QUIZZES, number 1 then 2; score from a hash of i.
    await db.execute(sql`
      insert into quiz_attempts (quiz_id, version_id, user_id, course_id, number, state, question_order, started_at, submitted_at, score, correct_count, passed, answers, correct)
      select (${`{${resultQuizIds.join(',')}}`}::uuid[])[(i / ${LEARNERS}) % ${RESULT_QUIZZES} + 1],
             (${`{${versionIds.join(',')}}`}::uuid[])[(i / ${LEARNERS}) % ${RESULT_QUIZZES} + 1],
             ${learnerId(`i % ${LEARNERS} + 1`)}, ${courseId}, i / ${LEARNERS * RESULT_QUIZZES} + 1,
             case when i % 20 = 0 then 'expired' else 'graded' end,
             ${order}::jsonb, now() - i * interval '10 seconds', now() - i * interval '10 seconds' + interval '5 minutes',
             s.score, s.score * ${QUESTIONS} / 100, s.score >= 60,
             case when i % 20 = 0 then null else ${answered}::jsonb end, case when i % 20 = 0 then null else ${correct}::jsonb end
      from generate_series(0, ${ATTEMPTS - 1}) as i
      cross join lateral (select case when i % 20 = 0 then 0 else ('x' || substr(md5(i::text), 1, 4))::bit(16)::int % 101 end as score) s`);
    await db.execute(sql`
      insert into quiz_question_stats (quiz_id, question_id, answered, correct)
      select q.id, (e.question->>'id')::uuid, ${ATTEMPTS / RESULT_QUIZZES}, (${ATTEMPTS / RESULT_QUIZZES} * (0.2 + 0.7 * ((e.position * 37) % 20) / 20.0))::int
      from quizzes q join quiz_versions v on v.quiz_id = q.id
      cross join lateral jsonb_array_elements(v.questions) with ordinality as e(question, position)
      where q.id = any(${`{${resultQuizIds.join(',')}}`}::uuid[])`);
    // The quizzes' figures, as grading and expiry move them one attempt at a time.
    await db.execute(sql`
      update quizzes as q set finished_attempts = f.attempts, passed_attempts = f.passed, score_total = f.score, learners = f.learners
      from (
        select quiz_id, count(*)::int as attempts, (count(*) filter (where passed))::int as passed,
               coalesce(sum(score), 0)::bigint as score, (count(*) filter (where number = 1))::int as learners
        from quiz_attempts where state <> 'open' group by quiz_id
      ) as f
      where q.id = f.quiz_id`);
    await db.execute(sql`vacuum analyze quiz_attempts`);
    await db.execute(sql`vacuum analyze quiz_question_stats`);
    await db.execute(sql`vacuum analyze users`);
    return { resultQuizIds, gradingQuizId, gradingQuestions: benchQuestions('grading') };
  } finally {
    await database.close();
  }
}

/** One GET `runs` times, one after another, after 10 for warm-up; answers the times. */
async function timeGets(product: Product, apiPath: string, cookie: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = -10; run < runs; run++) {
    const started = performance.now();
    const response = await fetch(`${product.url}/api/v1${apiPath}`, { headers: { cookie } });
    const body = await response.text();
    if (run >= 0) times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`GET ${apiPath} answered ${response.status}: ${body.slice(0, 500)}`);
  }
  return times;
}

/** The plans of the results' SQL on PostgreSQL, exactly as the services send it. */
async function explainResults(databaseUrl: string, courseId: string, userId: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const { db, recorder } = recordingDb(pool);
    const ctx = { db } as unknown as Context;
    recorder.label = 'quiz-results';
    await courseQuizResults(ctx, courseId);
    recorder.label = 'quiz-attempts?page=1';
    await courseQuizAttempts(ctx, courseId, { page: 1, limit: 50 });
    recorder.label = 'quiz-attempts?userId=';
    await courseQuizAttempts(ctx, courseId, { userId, page: 1, limit: 50 });
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

/**
 * SUBMITTERS learners each start an attempt at the grading quiz (not timed), then all submit at once;
 * `rounds` times. Each submission is timed from the bench; throughput is submissions over the time
 * the rounds' submitting took. Null when the server has no quiz-taking routes.
 */
async function measureGrading(product: Product, seeded: Seeded, rounds: number, label: string): Promise<Measurement[] | null> {
  const cookies = Array.from({ length: SUBMITTERS }, (_, i) => `lms_session=benchquiz${i + 1}`);
  const post = (apiPath: string, cookie: string, body?: object) =>
    fetch(`${product.url}/api/v1${apiPath}`, {
      method: 'POST',
      headers: { cookie, ...(body && { 'content-type': 'application/json' }) },
      ...(body && { body: JSON.stringify(body) }),
    });
  const probe = await post(`/quizzes/${seeded.gradingQuizId}/attempts`, cookies[0]!);
  if (probe.status === 404) return null;
  if (!probe.ok) throw new Error(`starting an attempt answered ${probe.status}: ${await probe.text()}`);
  await probe.body?.cancel();
  // Fifteen of twenty right (75 %, a pass) by the options' ids, whatever order they are shown in.
  const submission = {
    answers: seeded.gradingQuestions.map((q, i) => ({ questionId: q.id, optionIds: [q.options[i % 4 === 3 ? 1 : 0]!.id] })),
  };
  const times: number[] = [];
  let submittingMs = 0;
  let failed = 0;
  for (let round = -1; round < rounds; round++) {
    const attempts = await Promise.all(
      cookies.map(async (cookie) => {
        const response = await post(`/quizzes/${seeded.gradingQuizId}/attempts`, cookie);
        const body = (await response.json()) as { attempt?: { _id: string }; message?: string };
        if (!response.ok || !body.attempt) throw new Error(`starting an attempt answered ${response.status}: ${body.message}`);
        return { cookie, attemptId: body.attempt._id };
      }),
    );
    const roundStarted = performance.now();
    const answered = await Promise.all(
      attempts.map(async ({ cookie, attemptId }) => {
        const started = performance.now();
        const response = await post(`/quizzes/${seeded.gradingQuizId}/attempts/${attemptId}/submission`, cookie, submission);
        const body = (await response.json()) as { attempt?: { score: number } };
        return { ms: performance.now() - started, ok: response.ok && body.attempt?.score === 75 };
      }),
    );
    // The first round warms the server up.
    if (round < 0) continue;
    submittingMs += performance.now() - roundStarted;
    for (const answer of answered) {
      times.push(answer.ms);
      if (!answer.ok) failed += 1;
    }
  }
  return [
    {
      what: `POST …/submission, ${SUBMITTERS} learners at once (${QUESTIONS} questions), ${label}`,
      measured: `p50 ${ms(median(times))} · p99 ${ms(percentile(times, 99))} (${thousands(times.length)} submissions in ${rounds} rounds${failed ? `, ${failed} not graded 75 %` : ''})`,
    },
    { what: `grading throughput, ${SUBMITTERS} at once, ${label}`, measured: `${thousands((times.length / submittingMs) * 1000)} submissions/s` },
  ];
}

async function measureOn(bench: Bench, label: string, name: string, databaseUrl: string | undefined, runs: number, rounds: number) {
  const dataDir = path.join(bench.workDir, name);
  const options = { name, dataDir, databaseUrl, logDir: bench.workDir };
  let product = await startProduct(options);
  const course = await firstCourse(product);
  // The first login chooses the administrator's password; later ones use it.
  await loginAsAdmin(product);
  await product.stop();
  bench.log(`  writing ${thousands(ATTEMPTS)} attempts, ${label}`);
  const seeding = performance.now();
  const seeded = await seedQuizzes(databaseUrl ? { url: databaseUrl } : { dir: path.join(dataDir, 'db') }, course.id);
  const seededMs = performance.now() - seeding;
  product = await startProduct(options);
  const rows: Measurement[] = [
    {
      what: `${thousands(ATTEMPTS)} finished attempts of ${RESULT_QUIZZES} quizzes by ${thousands(LEARNERS)} learners written (insert, indexes kept, vacuum analyze), ${label}`,
      measured: ms(seededMs),
    },
  ];
  try {
    const cookie = await loginAsAdmin(product);
    const oneLearner = newestLearner();
    const gets = [
      { what: 'GET /admin/courses/:id/quiz-results', path: `/admin/courses/${course.id}/quiz-results` },
      { what: 'GET /admin/courses/:id/quiz-attempts?page=1', path: `/admin/courses/${course.id}/quiz-attempts?page=1` },
      { what: 'GET /admin/courses/:id/quiz-attempts?userId= (one learner)', path: `/admin/courses/${course.id}/quiz-attempts?userId=${oneLearner}` },
    ];
    for (const get of gets) {
      bench.log(`  ${runs} × ${get.what}, ${label}`);
      const times = await timeGets(product, get.path, cookie, runs);
      const p99 = percentile(times, 99);
      const budgeted = databaseUrl !== undefined;
      rows.push({
        what: `${get.what}, ${label}`,
        measured: `p50 ${ms(median(times))} · p99 ${ms(p99)} (${runs} requests)`,
        ...(budgeted && { budget: `p99 < ${RESULTS_P99_BUDGET_MS} ms`, met: p99 < RESULTS_P99_BUDGET_MS }),
      });
    }
    bench.log(`  grading: ${SUBMITTERS} learners submitting at once, ${rounds} rounds, ${label}`);
    const grading = await measureGrading(product, seeded, rounds, label);
    if (grading) rows.push(...grading);
    return { rows, courseId: course.id, graded: grading !== null };
  } finally {
    await product.stop();
  }
}

/** The learner of the newest attempt (attempt 0 of the seeding), as the database names them: md5(…)::uuid. */
function newestLearner(): string {
  const hex = createHash('md5').update('bench-quiz-learner-1').digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}

export async function measureQuizzes(bench: Bench): Promise<SectionResult> {
  const runs = bench.quick ? 100 : 300;
  const rounds = bench.quick ? 5 : 20;
  const loadBefore = os.loadavg()[0]!;
  const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_quizzes');
  const postgres = await measureOn(bench, 'PostgreSQL', 'quizzes-postgres', databaseUrl, runs, rounds);
  const plans = await explainResults(databaseUrl, postgres.courseId, newestLearner());
  const embedded = await measureOn(bench, 'embedded PGlite', 'quizzes-embedded', undefined, runs, rounds);
  const load = `load average (1 min) ${loadBefore.toFixed(1)} as the section began, ${os.loadavg()[0]!.toFixed(1)} as it ended, on ${os.cpus().length} cores`;
  return {
    title: `Quizzes: the administrator's results over ${thousands(ATTEMPTS)} attempts, and grading ${SUBMITTERS} submissions at once`,
    rows: [...postgres.rows, ...embedded.rows],
    notes: [
      `Results: ${RESULT_QUIZZES} quizzes of ${QUESTIONS} questions in one course, ${thousands(ATTEMPTS)} finished attempts (two per learner and quiz, 1 in 20 expired) with their per-question counters, written into the database while the server is stopped. ` +
        `Each GET sent ${runs} times one after another after 10 for warm-up, as the administrator, timed from the bench. The machine's ${load}.`,
      postgres.graded
        ? `Grading: ${SUBMITTERS} subscribers each start an attempt at a quiz of ${QUESTIONS} single-choice questions (not timed), then all ${SUBMITTERS} submit at once; ${rounds} rounds after one for warm-up. Each submission timed from the bench; throughput is the submissions over the time the rounds' submitting took.`
        : 'Grading: not measured: this build has no quiz-taking routes (`POST /quizzes/:quizId/attempts` answered 404).',
      '',
      'Plans on PostgreSQL, of the SQL exactly as the services send it:',
      '',
      ...plans,
    ],
  };
}
