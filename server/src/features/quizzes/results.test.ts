import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import type { AdminAttempt, AuthoredQuestion, QuizResults } from '@lms/contract/quizzes';
import { courses, quizAttempts, quizQuestionStats, quizVersions, quizzes, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { countFinishedAttempts } from './test-fixtures.ts';

// The endpoints that write quizzes and attempts are tested on their own: here the rows are written
// straight to the tables, so the figures below are known exactly.

let t: TestApp;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpAdmin(t.app);
});
afterAll(() => t?.close());

const get = (url: string, cookie = admin.cookie) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { cookie } });

async function newCourse(): Promise<string> {
  const [row] = await t.app.ctx.db
    .insert(courses)
    .values({ title: 'Statistics', description: 'Means and more.', category: 'Maths', createdBy: 'Ravi Rao', thumbnailKey: `thumbnails/${randomUUID()}.webp` })
    .returning({ id: courses.id });
  return row!.id;
}

let learnerCount = 0;
async function newLearner(fullName: string): Promise<string> {
  learnerCount += 1;
  const [row] = await t.app.ctx.db
    .insert(users)
    .values({ fullName, email: `learner.${learnerCount}.${randomUUID()}@example.com`, passwordHash: 'not a hash' })
    .returning({ id: users.id });
  return row!.id;
}

const question = (prompt: string, id: string = randomUUID()): AuthoredQuestion => ({
  id,
  type: 'single',
  prompt,
  options: [
    { id: randomUUID(), text: 'Yes', correct: true },
    { id: randomUUID(), text: 'No', correct: false },
  ],
  explanation: '',
});

/** A quiz whose versions hold the questions given (the last is current); answers its id and its versions' ids. */
async function newQuiz(courseId: string, versions: { title: string; questions: AuthoredQuestion[] }[], createdAt = new Date()) {
  const [quiz] = await t.app.ctx.db.insert(quizzes).values({ courseId, currentVersion: versions.length, createdAt }).returning({ id: quizzes.id });
  const versionIds: string[] = [];
  for (const [index, version] of versions.entries()) {
    const [row] = await t.app.ctx.db
      .insert(quizVersions)
      .values({
        quizId: quiz!.id,
        number: index + 1,
        title: version.title,
        passMark: 60,
        shuffleQuestions: false,
        shuffleOptions: false,
        layout: 'all',
        questions: version.questions,
      })
      .returning({ id: quizVersions.id });
    versionIds.push(row!.id);
  }
  return { quizId: quiz!.id, versionIds };
}

type AttemptRow = {
  userId: string;
  number: number;
  score: number | null;
  passed?: boolean;
  state?: 'open' | 'graded' | 'expired';
  versionId?: string;
  at: Date;
};
async function addAttempts(courseId: string, quiz: { quizId: string; versionIds: string[] }, rows: AttemptRow[]) {
  await t.app.ctx.db.insert(quizAttempts).values(
    rows.map((row) => ({
      quizId: quiz.quizId,
      versionId: row.versionId ?? quiz.versionIds.at(-1)!,
      userId: row.userId,
      courseId,
      number: row.number,
      state: row.state ?? 'graded',
      questionOrder: [],
      startedAt: row.at,
      submittedAt: row.state === 'open' ? null : row.at,
      score: row.score,
      correctCount: row.score === null ? null : 0,
      passed: row.passed ?? false,
    })),
  );
  await countFinishedAttempts(t);
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe('quiz results', () => {
  let courseId: string;
  let first: Awaited<ReturnType<typeof newQuiz>>;
  let second: Awaited<ReturnType<typeof newQuiz>>;
  const q = { easy: randomUUID(), hard: randomUUID(), hardest: randomUUID(), unanswered: randomUUID(), dropped: randomUUID() };
  const learners: Record<'asha' | 'bala' | 'chitra', string> = { asha: '', bala: '', chitra: '' };

  beforeAll(async () => {
    courseId = await newCourse();
    learners.asha = await newLearner('Asha Verma');
    learners.bala = await newLearner('Bala Krishnan');
    learners.chitra = await newLearner('Chitra Das');
    first = await newQuiz(
      courseId,
      [
        { title: 'Means, first draft', questions: [question('Dropped since', q.dropped), question('Easy', q.easy)] },
        {
          title: 'Means',
          questions: [question('Easy', q.easy), question('Hard', q.hard), question('Hardest', q.hardest), question('Never answered', q.unanswered)],
        },
      ],
      minutesAgo(100),
    );
    second = await newQuiz(courseId, [{ title: 'Medians', questions: [question('Middle?')] }], minutesAgo(50));
    // Asha twice (failed then passed, the first on the old version), Bala once (expired), Chitra's attempt still open.
    await addAttempts(courseId, first, [
      { userId: learners.asha, number: 1, score: 25, versionId: first.versionIds[0], at: minutesAgo(40) },
      { userId: learners.asha, number: 2, score: 100, passed: true, at: minutesAgo(30) },
      { userId: learners.bala, number: 1, score: 0, state: 'expired', at: minutesAgo(20) },
      { userId: learners.chitra, number: 1, score: null, state: 'open', at: minutesAgo(10) },
    ]);
    await t.app.ctx.db.insert(quizQuestionStats).values([
      { quizId: first.quizId, questionId: q.easy, answered: 4, correct: 4 },
      { quizId: first.quizId, questionId: q.hard, answered: 4, correct: 1 },
      { quizId: first.quizId, questionId: q.hardest, answered: 3, correct: 0 },
      { quizId: first.quizId, questionId: q.unanswered, answered: 0, correct: 0 },
      // Of the old version alone: not among the current questions, so not named.
      { quizId: first.quizId, questionId: q.dropped, answered: 9, correct: 0 },
    ]);
  });

  it('gives each quiz its figures over finished attempts, and its hardest questions worst first', async () => {
    const response = await get(`/admin/courses/${courseId}/quiz-results`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(answers.quizResultsFetched);
    const results: QuizResults[] = response.json().quizzes;
    expect(results.map((r) => r.title)).toEqual(['Means', 'Medians']);
    const [means, medians] = results;
    expect(means).toMatchObject({ quizId: first.quizId, questionCount: 4, attempts: 3, learners: 2, passRate: 33.3, averageScore: 41.7 });
    expect(means!.hardestQuestions).toEqual([
      { questionId: q.hardest, prompt: 'Hardest', answered: 3, correctRate: 0 },
      { questionId: q.hard, prompt: 'Hard', answered: 4, correctRate: 25 },
      { questionId: q.easy, prompt: 'Easy', answered: 4, correctRate: 100 },
    ]);
    expect(medians).toEqual({
      quizId: second.quizId,
      title: 'Medians',
      questionCount: 1,
      attempts: 0,
      learners: 0,
      passRate: null,
      averageScore: null,
      hardestQuestions: [],
    });
  });

  it('names five hardest questions at most', async () => {
    const course = await newCourse();
    const ids = Array.from({ length: 7 }, () => randomUUID());
    const quiz = await newQuiz(course, [{ title: 'Many', questions: ids.map((id, i) => question(`Q${i}`, id)) }]);
    await t.app.ctx.db.insert(quizQuestionStats).values(ids.map((questionId, i) => ({ quizId: quiz.quizId, questionId, answered: 10, correct: i })));
    const [results] = (await get(`/admin/courses/${course}/quiz-results`)).json().quizzes as QuizResults[];
    expect(results!.hardestQuestions.map((h) => h.prompt)).toEqual(['Q0', 'Q1', 'Q2', 'Q3', 'Q4']);
  });

  it('lists the finished attempts newest first, with the learner and the version they answered', async () => {
    const response = await get(`/admin/courses/${courseId}/quiz-attempts`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(answers.quizAttemptsFetched);
    const { attempts, total } = response.json() as { attempts: AdminAttempt[]; total: number };
    expect(total).toBe(3);
    expect(attempts.map((a) => [a.learner.fullName, a.number, a.state, a.score, a.passed, a.version, a.quizTitle])).toEqual([
      ['Bala Krishnan', 1, 'expired', 0, false, 2, 'Means'],
      ['Asha Verma', 2, 'graded', 100, true, 2, 'Means'],
      ['Asha Verma', 1, 'graded', 25, false, 1, 'Means, first draft'],
    ]);
    expect(attempts[0]!.learner).toEqual({ _id: learners.bala, fullName: 'Bala Krishnan', email: expect.stringContaining('@example.com') });
    expect(attempts[0]!.quizId).toBe(first.quizId);
    expect(attempts[0]!.submittedAt).toEqual(expect.any(String));
  });

  it('pages the attempts, and filters them to one learner', async () => {
    const page2 = (await get(`/admin/courses/${courseId}/quiz-attempts?page=2&limit=2`)).json();
    expect(page2.total).toBe(3);
    expect(page2.attempts.map((a: AdminAttempt) => [a.learner.fullName, a.number])).toEqual([['Asha Verma', 1]]);

    const asha = (await get(`/admin/courses/${courseId}/quiz-attempts?userId=${learners.asha}`)).json();
    expect(asha.total).toBe(2);
    expect(asha.attempts.map((a: AdminAttempt) => a.number)).toEqual([2, 1]);

    // An open attempt is not a result yet.
    const chitra = (await get(`/admin/courses/${courseId}/quiz-attempts?userId=${learners.chitra}`)).json();
    expect(chitra).toMatchObject({ attempts: [], total: 0 });

    const bad = await get(`/admin/courses/${courseId}/quiz-attempts?page=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(answers.invalidPage);
  });

  it('answers 404 for a course that does not exist', async () => {
    const unknown = randomUUID();
    for (const path of ['quiz-results', 'quiz-attempts']) {
      const response = await get(`/admin/courses/${unknown}/${path}`);
      expect(response.statusCode, path).toBe(404);
      expect(response.json().message).toBe(messages.courseNotFound);
    }
  });

  it('is for administrators alone', async () => {
    const learner = await signUp(t.app);
    for (const path of ['quiz-results', 'quiz-attempts']) {
      expect((await get(`/admin/courses/${courseId}/${path}`, learner.cookie)).statusCode, path).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/admin/courses/${courseId}/${path}` })).statusCode, path).toBe(401);
    }
  });
});
