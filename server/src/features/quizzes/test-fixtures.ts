import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { QuizInputSchema, type AuthoredQuestion, type QuizInput } from '@lms/contract/quizzes';
import { lectures, quizVersions, quizzes, users } from '../../db/schema.ts';
import type { TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mp4Video, multipart, pngImage, signUp } from '../../test/http.ts';

// What the quiz tests build on: a course with lectures made through the API, a quiz written
// straight into its tables (a version as the editor's save would write it), and learners.

const DAY_MS = 24 * 3600 * 1000;

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export const caller = (t: TestApp) => (method: Method, url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: cookie ? { cookie } : {}, ...(payload && { payload }) });

export async function newCourse(t: TestApp, adminCookie: string, { title = 'Statistics in practice', publish = true } = {}): Promise<string> {
  const form = await multipart({
    title,
    description: 'Numbers, and what they say.',
    category: 'Data',
    createdBy: 'Meera Iyer',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: adminCookie } });
  expect(response.statusCode, response.body).toBe(201);
  const id: string = response.json().course._id;
  if (publish) await publishCourseDirectly(t.app.ctx, id);
  return id;
}

/** A lecture whose video the pipeline measured at 100 seconds. */
export async function newLecture(t: TestApp, adminCookie: string, courseId: string, title = 'Lecture'): Promise<string> {
  const form = await multipart({ title, description: 'Part of it.', lectures: { bytes: mp4Video(2000), filename: 'l.mp4', type: 'video/mp4' } });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/courses/${courseId}`,
    payload: form.payload,
    headers: { ...form.headers, cookie: adminCookie },
  });
  expect(response.statusCode, response.body).toBe(201);
  const id: string = response.json().course.lectures.at(-1)._id;
  await t.app.ctx.db.update(lectures).set({ durationSeconds: 100 }).where(eq(lectures.id, id));
  return id;
}

/** A learner who may take quizzes: subscribed for a month. */
export async function learner(t: TestApp, fullName = 'Asha Verma') {
  const account = await signUp(t.app, { fullName });
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * DAY_MS) })
    .where(eq(users.id, account.user._id));
  return account;
}

/** The questions as a version stores them: every question and option with its id (fresh ones where the input has none). */
export function authoredQuestions(input: QuizInput): AuthoredQuestion[] {
  return QuizInputSchema.parse(input).questions.map((question) =>
    question.type === 'text'
      ? { id: question.id ?? randomUUID(), type: 'text', prompt: question.prompt, answers: question.answers, explanation: question.explanation }
      : {
          id: question.id ?? randomUUID(),
          type: question.type,
          prompt: question.prompt,
          options: question.options.map((option) => ({ id: option.id ?? randomUUID(), text: option.text, correct: option.correct })),
          explanation: question.explanation,
        },
  );
}

const versionValues = (quizId: string, number: number, input: QuizInput) => {
  const settings = QuizInputSchema.parse(input);
  return {
    quizId,
    number,
    title: settings.title,
    passMark: settings.passMark,
    attemptsAllowed: settings.attemptsAllowed,
    timeLimitMinutes: settings.timeLimitMinutes,
    shuffleQuestions: settings.shuffleQuestions,
    shuffleOptions: settings.shuffleOptions,
    layout: settings.layout,
    questions: authoredQuestions(input),
  };
};

/** A quiz at the course's end (or after `afterLectureId`), its first version written as a save would. */
export async function insertQuiz(t: TestApp, courseId: string, input: QuizInput, { afterLectureId = null as string | null } = {}) {
  const [quiz] = await t.app.ctx.db.insert(quizzes).values({ courseId, afterLectureId, currentVersion: 1 }).returning();
  const [version] = await t.app.ctx.db
    .insert(quizVersions)
    .values(versionValues(quiz!.id, 1, input))
    .returning();
  return { quizId: quiz!.id, version: version! };
}

/** A new version of the quiz, made current: what saving an edit does. */
export async function insertQuizVersion(t: TestApp, quizId: string, input: QuizInput) {
  const [quiz] = await t.app.ctx.db
    .update(quizzes)
    .set({ currentVersion: sql`${quizzes.currentVersion} + 1`, updatedAt: new Date() })
    .where(eq(quizzes.id, quizId))
    .returning();
  const [version] = await t.app.ctx.db
    .insert(quizVersions)
    .values(versionValues(quizId, quiz!.currentVersion, input))
    .returning();
  return version!;
}

/**
 * A quiz of each question type, its secrets distinctive so a test can look for them in any body:
 * right options' texts are ordinary words (a learner sees them), but accepted answers and
 * explanations never appear before a submission.
 */
export const SECRET = { accepted: 'zephyrquokka42', explanation: 'EXPLAIN-' } as const;
export function sampleQuiz(overrides: Partial<QuizInput> = {}): QuizInput {
  return {
    title: 'Averages',
    passMark: 60,
    questions: [
      {
        type: 'single',
        prompt: 'The mean of 2 and 4?',
        options: [
          { text: 'Three', correct: true },
          { text: 'Six', correct: false },
          { text: 'Eight', correct: false },
        ],
        explanation: `${SECRET.explanation}single: add, then divide by two`,
      },
      {
        type: 'multiple',
        prompt: 'Which are measures of centre?',
        options: [
          { text: 'Mean', correct: true },
          { text: 'Median', correct: true },
          { text: 'Range', correct: false },
        ],
        explanation: `${SECRET.explanation}multiple: the range measures spread`,
      },
      {
        type: 'text',
        prompt: 'The secret word?',
        answers: [SECRET.accepted, 'Zephyr Quokka 43'],
        explanation: `${SECRET.explanation}text: it was in the lecture`,
      },
    ],
    ...overrides,
  };
}

/**
 * Sets every quiz's figures from its finished attempts, as grading and expiry would have moved
 * them: for tests that write attempts straight into the table.
 */
export async function countFinishedAttempts(t: TestApp): Promise<void> {
  await t.app.ctx.db.execute(sql`
    update quizzes as q set finished_attempts = f.attempts, passed_attempts = f.passed, score_total = f.score, learners = f.learners
    from (
      select quiz_id, count(*)::int as attempts, (count(*) filter (where passed))::int as passed,
             coalesce(sum(score), 0)::bigint as score, count(distinct user_id)::int as learners
      from quiz_attempts where state <> 'open' group by quiz_id
    ) as f
    where q.id = f.quiz_id`);
}
