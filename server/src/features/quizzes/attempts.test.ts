import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Answer, AuthoredQuestion, OpenAttempt, QuizInput } from '@lms/contract/quizzes';
import { courses, quizAttempts, quizQuestionStats, quizzes } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { caller, insertQuiz, insertQuizVersion, learner, newCourse, newLecture, sampleQuiz, SECRET } from './test-fixtures.ts';
import { QUIZ_STARTS_PER_WINDOW } from '../../rate-limit.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpAdmin(t.app);
  call = caller(t);
});
afterAll(() => t?.close());

/** A published course with one lecture and a quiz after it. */
async function courseWithQuiz(input: QuizInput = sampleQuiz(), { publish = true } = {}) {
  const courseId = await newCourse(t, admin.cookie, { publish });
  const lectureId = await newLecture(t, admin.cookie, courseId);
  const { quizId, version } = await insertQuiz(t, courseId, input, { afterLectureId: lectureId });
  return { courseId, lectureId, quizId, version };
}

const start = async (quizId: string, cookie: string, status = 200): Promise<OpenAttempt> => {
  const response = await call('POST', `/quizzes/${quizId}/attempts`, cookie);
  expect(response.statusCode, response.body).toBe(status);
  return response.json().attempt;
};
const submit = (quizId: string, attemptId: string, cookie: string, submitted: Answer[]) =>
  call('POST', `/quizzes/${quizId}/attempts/${attemptId}/submission`, cookie, { answers: submitted });

/** The right answer to each question (from the version, as only the server knows it). */
const rightAnswers = (questions: AuthoredQuestion[]): Answer[] =>
  questions.map((question) =>
    question.type === 'text'
      ? { questionId: question.id, text: question.answers[0]! }
      : { questionId: question.id, optionIds: question.options.filter((option) => option.correct).map((option) => option.id) },
  );
/** A wrong answer to each question. */
const wrongAnswers = (questions: AuthoredQuestion[]): Answer[] =>
  questions.map((question) =>
    question.type === 'text'
      ? { questionId: question.id, text: 'not it' }
      : { questionId: question.id, optionIds: [question.options.find((option) => !option.correct)!.id] },
  );

const attemptRow = async (attemptId: string) => (await t.app.ctx.db.select().from(quizAttempts).where(eq(quizAttempts.id, attemptId)))[0]!;
const statsOf = (quizId: string) => t.app.ctx.db.select().from(quizQuestionStats).where(eq(quizQuestionStats.quizId, quizId));

describe('no answer leaks to the learner before submitting', () => {
  it('walks every response of a journey: none holds a right-option mark, an accepted answer or an explanation', async () => {
    const { courseId, lectureId, quizId, version } = await courseWithQuiz(sampleQuiz({ shuffleOptions: true, timeLimitMinutes: 30 }));
    const asha = await learner(t);
    const bodies: [string, string][] = [];
    const record = async (what: string, response: Promise<{ statusCode: number; body: string }>) => {
      const answered = await response;
      bodies.push([what, answered.body]);
      return answered;
    };

    const lectureList = await record('lectures', call('GET', `/courses/${courseId}`, asha.cookie));
    expect(lectureList.statusCode, lectureList.body).toBe(200);
    expect(JSON.parse(lectureList.body).quizzes).toEqual([expect.objectContaining({ _id: quizId })]);
    const curriculum = await record('curriculum', call('GET', `/courses/${courseId}/curriculum`, asha.cookie));
    expect(JSON.parse(curriculum.body).quizzes).toEqual([expect.objectContaining({ _id: quizId })]);
    expect((await record('quiz', call('GET', `/quizzes/${quizId}`, asha.cookie))).statusCode).toBe(200);
    const started = await record('start', call('POST', `/quizzes/${quizId}/attempts`, asha.cookie));
    expect(started.statusCode, started.body).toBe(200);
    const attempt: OpenAttempt = JSON.parse(started.body).attempt;
    expect(attempt.questions).toHaveLength(3);
    for (const question of attempt.questions) expect(Object.keys(question).sort()).toEqual(['id', 'options', 'prompt', 'type']);
    for (const option of attempt.questions.flatMap((question) => question.options)) expect(Object.keys(option).sort()).toEqual(['id', 'text']);
    const resumed = await record('resume', call('POST', `/quizzes/${quizId}/attempts`, asha.cookie));
    expect(JSON.parse(resumed.body)).toMatchObject({ message: answers.attemptResumed, attempt: { _id: attempt._id } });
    await record('quiz with the open attempt', call('GET', `/quizzes/${quizId}`, asha.cookie));
    await record('attempt while open', call('GET', `/quizzes/${quizId}/attempts/${attempt._id}`, asha.cookie));
    await record('progress while open', call('GET', `/progress/courses/${courseId}`, asha.cookie));
    await record('my progress', call('GET', '/progress', asha.cookie));
    await record('completing the lecture', call('PUT', `/progress/lectures/${lectureId}/completed`, asha.cookie, { completed: true }));
    await record('a refused submission', submit(quizId, attempt._id, asha.cookie, [{ questionId: randomUUID(), text: 'x' }]));

    for (const [what, body] of bodies) {
      expect(body, what).not.toContain('"correct":true');
      expect(body.toLowerCase(), what).not.toContain('zephyr');
      expect(body, what).not.toContain(SECRET.explanation);
    }

    // Submitting wrongly: right or wrong and the explanations now, still neither the right options nor the accepted answers.
    const graded = await record('submit', submit(quizId, attempt._id, asha.cookie, wrongAnswers(version.questions)));
    expect(graded.statusCode, graded.body).toBe(200);
    const after = [
      graded.body,
      (await call('GET', `/quizzes/${quizId}/attempts/${attempt._id}`, asha.cookie)).body,
      (await call('GET', `/quizzes/${quizId}`, asha.cookie)).body,
      (await call('GET', `/progress/courses/${courseId}`, asha.cookie)).body,
    ];
    expect(graded.body).toContain(SECRET.explanation);
    for (const body of after) {
      expect(body.toLowerCase()).not.toContain('zephyr');
      expect(body).not.toContain('"correct":true');
    }
  });
});

describe('grading', () => {
  it('grades each type right, and answers per question right or wrong, what was answered and the explanation', async () => {
    const { quizId, version } = await courseWithQuiz();
    const asha = await learner(t);
    const [single, multiple, text] = version.questions as [AuthoredQuestion & { type: 'single' }, AuthoredQuestion & { type: 'multiple' }, AuthoredQuestion];

    const first = await start(quizId, asha.cookie);
    const right = rightAnswers(version.questions);
    right[2] = { questionId: text.id, text: '  ZEPHYR quokka 42 ' };
    const graded = await submit(quizId, first._id, asha.cookie, right);
    expect(graded.statusCode, graded.body).toBe(200);
    expect(graded.json()).toMatchObject({
      message: answers.attemptGraded(true),
      attemptsLeft: null,
      attempt: { state: 'graded', score: 100, passed: true, correctCount: 3, questionCount: 3, passMark: 60, number: 1 },
    });
    expect(graded.json().attempt.questions.map((question: { correct: boolean }) => question.correct)).toEqual([true, true, true]);
    expect(graded.json().attempt.questions[2]).toMatchObject({
      text: '  ZEPHYR quokka 42 ',
      chosenOptionIds: [],
      explanation: expect.stringContaining('text:'),
    });

    // A subset of a multiple choice is wrong; one single right of three is 33 %, under the mark.
    const second = await start(quizId, asha.cookie);
    const partly = await submit(quizId, second._id, asha.cookie, [
      { questionId: single.id, optionIds: [single.options[0]!.id] },
      { questionId: multiple.id, optionIds: [multiple.options[0]!.id] },
    ]);
    expect(partly.json()).toMatchObject({ message: answers.attemptGraded(false), attempt: { score: 33, passed: false, correctCount: 1 } });
    expect(partly.json().attempt.questions[1]).toMatchObject({ correct: false, chosenOptionIds: [multiple.options[0]!.id] });
    expect(partly.json().attempt.questions[2]).toMatchObject({ correct: false, text: null });

    const quiz = (await call('GET', `/quizzes/${quizId}`, asha.cookie)).json().quiz;
    expect(quiz).toMatchObject({ passed: true, bestScore: 100, attemptsLeft: null, openAttempt: null, questionCount: 3 });
    expect(quiz.attempts.map((a: { number: number }) => a.number)).toEqual([2, 1]);
    const stats = await statsOf(quizId);
    expect(stats.find((row) => row.questionId === multiple.id)).toMatchObject({ answered: 2, correct: 1 });
    expect(stats.find((row) => row.questionId === text.id)).toMatchObject({ answered: 2, correct: 1 });
  });

  it('shuffles questions and options per attempt, every id still valid', async () => {
    const many: QuizInput = {
      title: 'Shuffled',
      shuffleQuestions: true,
      shuffleOptions: true,
      questions: Array.from({ length: 6 }, (_, i) => ({
        type: 'single' as const,
        prompt: `Question ${i}`,
        options: ['A', 'B', 'C', 'D'].map((letter, j) => ({ text: `${letter}${i}`, correct: j === 0 })),
      })),
    };
    const { quizId, version } = await courseWithQuiz(many);
    const asha = await learner(t);
    const orders = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const attempt = await start(quizId, asha.cookie);
      expect(attempt.questions.map((q) => q.id).sort()).toEqual(version.questions.map((q) => q.id).sort());
      for (const question of attempt.questions) {
        const authored = version.questions.find((q) => q.id === question.id) as { options: { id: string; text: string }[] };
        expect(question.options.map((o) => o.id).sort()).toEqual(authored.options.map((o) => o.id).sort());
      }
      orders.add(JSON.stringify(attempt.questions.map((q) => [q.id, q.options.map((o) => o.id)])));
      expect((await submit(quizId, attempt._id, asha.cookie, rightAnswers(version.questions))).json().attempt.score).toBe(100);
    }
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('attempts and time', () => {
  it('allows the attempts the quiz allows, then 409', async () => {
    const { quizId, version } = await courseWithQuiz(sampleQuiz({ attemptsAllowed: 2 }));
    const asha = await learner(t);
    const first = await start(quizId, asha.cookie);
    expect((await submit(quizId, first._id, asha.cookie, [])).json().attemptsLeft).toBe(1);
    const second = await start(quizId, asha.cookie);
    expect((await submit(quizId, second._id, asha.cookie, wrongAnswers(version.questions))).json().attemptsLeft).toBe(0);
    const refused = await call('POST', `/quizzes/${quizId}/attempts`, asha.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(answers.noAttemptsLeft);
    expect((await call('GET', `/quizzes/${quizId}`, asha.cookie)).json().quiz).toMatchObject({
      attemptsAllowed: 2,
      attemptsLeft: 0,
      passed: false,
      bestScore: 0,
    });
  });

  it('enforces the time limit: a late submission is refused and the attempt expires, counting as an attempt', async () => {
    const { courseId, quizId, version } = await courseWithQuiz(sampleQuiz({ timeLimitMinutes: 5, attemptsAllowed: 3 }));
    const asha = await learner(t);
    const before = Date.now();
    const attempt = await start(quizId, asha.cookie);
    const endsAt = new Date(attempt.endsAt!).getTime();
    expect(endsAt).toBeGreaterThanOrEqual(before + 5 * 60_000 - 5_000);
    expect(endsAt).toBeLessThanOrEqual(Date.now() + 5 * 60_000 + 5_000);

    // Past its end but within the grace for a submission in flight: graded.
    await t.app.ctx.db
      .update(quizAttempts)
      .set({ endsAt: sql`now() - interval '5 seconds'` })
      .where(eq(quizAttempts.id, attempt._id));
    expect((await submit(quizId, attempt._id, asha.cookie, rightAnswers(version.questions))).statusCode).toBe(200);

    const late = await start(quizId, asha.cookie);
    await t.app.ctx.db
      .update(quizAttempts)
      .set({ endsAt: sql`now() - interval '1 minute'` })
      .where(eq(quizAttempts.id, late._id));
    const refused = await submit(quizId, late._id, asha.cookie, rightAnswers(version.questions));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(answers.attemptTimeUp);
    const row = await attemptRow(late._id);
    expect(row).toMatchObject({ state: 'expired', score: 0, correctCount: 0, passed: false });
    expect(row.submittedAt?.getTime()).toBe(row.endsAt?.getTime());
    expect((await call('GET', `/quizzes/${quizId}/attempts/${late._id}`, asha.cookie)).json().attempt).toMatchObject({ state: 'expired', score: 0 });

    // An attempt left to run out is expired when the learner next starts: it counted, one is left.
    const forgotten = await start(quizId, asha.cookie);
    expect(forgotten.number).toBe(3);
    await t.app.ctx.db
      .update(quizAttempts)
      .set({ endsAt: sql`now() - interval '1 minute'` })
      .where(eq(quizAttempts.id, forgotten._id));
    expect((await call('POST', `/quizzes/${quizId}/attempts`, asha.cookie)).json().message).toBe(answers.noAttemptsLeft);
    expect((await attemptRow(forgotten._id)).state).toBe('expired');
    const quiz = (await call('GET', `/quizzes/${quizId}`, asha.cookie)).json().quiz;
    expect(quiz.attempts.map((a: { state: string }) => a.state)).toEqual(['expired', 'expired', 'graded']);
    expect(quiz).toMatchObject({ attemptsLeft: 0, passed: true, openAttempt: null });

    // The admin's figures counted each as it finished: one pass of 100, two expired at 0, one learner.
    const results = (await call('GET', `/admin/courses/${courseId}/quiz-results`, admin.cookie)).json().quizzes;
    expect(results).toEqual([expect.objectContaining({ quizId, attempts: 3, learners: 1, passRate: 33.3, averageScore: 33.3 })]);
  });

  it('grades a double submission once: one 200, one 409, the counts moved once', async () => {
    const { quizId, version } = await courseWithQuiz();
    const asha = await learner(t);
    const attempt = await start(quizId, asha.cookie);
    const both = await Promise.all([
      submit(quizId, attempt._id, asha.cookie, rightAnswers(version.questions)),
      submit(quizId, attempt._id, asha.cookie, rightAnswers(version.questions)),
    ]);
    expect(both.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((response) => response.statusCode === 409)!.json().message).toBe(answers.attemptAlreadySubmitted);
    expect((await statsOf(quizId)).map((row) => row.answered)).toEqual([1, 1, 1]);

    const replay = await submit(quizId, attempt._id, asha.cookie, wrongAnswers(version.questions));
    expect(replay.statusCode).toBe(409);
    expect(replay.json().message).toBe(answers.attemptAlreadySubmitted);
    expect((await attemptRow(attempt._id)).score).toBe(100);
    const [figures] = await t.app.ctx.db.select().from(quizzes).where(eq(quizzes.id, quizId));
    expect(figures).toMatchObject({ finishedAttempts: 1, passedAttempts: 1, scoreTotal: 100, learners: 1 });
  });

  it('starts one attempt for two starts at once', async () => {
    const { quizId } = await courseWithQuiz();
    const asha = await learner(t);
    const both = await Promise.all([call('POST', `/quizzes/${quizId}/attempts`, asha.cookie), call('POST', `/quizzes/${quizId}/attempts`, asha.cookie)]);
    expect(both.map((response) => response.statusCode)).toEqual([200, 200]);
    expect(both[0]!.json().attempt._id).toBe(both[1]!.json().attempt._id);
    expect(await t.app.ctx.db.select().from(quizAttempts).where(eq(quizAttempts.quizId, quizId))).toHaveLength(1);
  });

  it('limits the attempts an account starts or resumes in 15 minutes (429 after)', async () => {
    const { quizId } = await courseWithQuiz();
    const asha = await learner(t);
    const statuses: number[] = [];
    for (let i = 0; i <= QUIZ_STARTS_PER_WINDOW; i++) statuses.push((await call('POST', `/quizzes/${quizId}/attempts`, asha.cookie)).statusCode);
    expect(statuses.slice(0, QUIZ_STARTS_PER_WINDOW).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(await t.app.ctx.db.select().from(quizAttempts).where(eq(quizAttempts.quizId, quizId))).toHaveLength(1);
  });

  it('answers 409 for the result of an attempt under way', async () => {
    const { quizId } = await courseWithQuiz();
    const asha = await learner(t);
    const attempt = await start(quizId, asha.cookie);
    const open = await call('GET', `/quizzes/${quizId}/attempts/${attempt._id}`, asha.cookie);
    expect(open.statusCode).toBe(409);
    expect(open.json().message).toBe(answers.attemptStillOpen);
  });
});

describe('bad input and access', () => {
  it("refuses answers to another quiz's question (400), and writes nothing", async () => {
    const { quizId } = await courseWithQuiz();
    const other = await courseWithQuiz();
    const asha = await learner(t);
    const attempt = await start(quizId, asha.cookie);
    const refused = await submit(quizId, attempt._id, asha.cookie, rightAnswers(other.version.questions));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(answers.answerNotInAttempt);
    expect(await attemptRow(attempt._id)).toMatchObject({ state: 'open', score: null, answers: null });
    expect(await statsOf(quizId)).toEqual([]);
  });

  it('refuses each malformed answer with its message', async () => {
    const { quizId, version } = await courseWithQuiz();
    const asha = await learner(t);
    const attempt = await start(quizId, asha.cookie);
    const [single, multiple, text] = version.questions as unknown as [
      { id: string; options: { id: string }[] },
      { id: string; options: { id: string }[] },
      { id: string },
    ];
    const cases: [Answer[], string][] = [
      [[{ questionId: single.id, optionIds: [multiple.options[0]!.id] }], answers.answerOptionNotInQuestion],
      [[{ questionId: single.id, optionIds: [single.options[0]!.id, single.options[1]!.id] }], answers.answerOneOption],
      [[{ questionId: text.id, optionIds: [single.options[0]!.id] }], answers.answerWrongKind],
      [[{ questionId: multiple.id, text: 'Mean' }], answers.answerWrongKind],
      [
        [
          { questionId: text.id, text: 'a' },
          { questionId: text.id, text: 'b' },
        ],
        answers.answerRepeated,
      ],
    ];
    for (const [submitted, message] of cases) {
      const response = await submit(quizId, attempt._id, asha.cookie, submitted);
      expect(response.statusCode, message).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect((await attemptRow(attempt._id)).state).toBe('open');
  });

  it('takes quizzes for those who may watch the lectures (403 otherwise), of published courses (404 otherwise, an admin excepted)', async () => {
    const { quizId } = await courseWithQuiz();
    const visitor = await signUp(t.app);
    for (const [method, url] of [
      ['GET', `/quizzes/${quizId}`],
      ['POST', `/quizzes/${quizId}/attempts`],
    ] as const) {
      const refused = await call(method, url, visitor.cookie);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(answers.subscribeToTakeQuizzes);
    }
    expect((await call('GET', `/quizzes/${quizId}`)).statusCode).toBe(401);

    const draft = await courseWithQuiz(sampleQuiz(), { publish: false });
    const asha = await learner(t);
    const hidden = await call('GET', `/quizzes/${draft.quizId}`, asha.cookie);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe(answers.quizNotFound);
    expect((await call('POST', `/quizzes/${draft.quizId}/attempts`, asha.cookie)).statusCode).toBe(404);
    expect((await call('GET', `/quizzes/${randomUUID()}`, asha.cookie)).statusCode).toBe(404);
    expect((await call('POST', `/quizzes/${draft.quizId}/attempts`, admin.cookie)).statusCode).toBe(200);
  });

  it("answers 404 for an unknown attempt, another learner's, or one of another quiz", async () => {
    const { quizId } = await courseWithQuiz();
    const other = await courseWithQuiz();
    const asha = await learner(t);
    const ravi = await learner(t, 'Ravi Kumar');
    const attempt = await start(quizId, asha.cookie);
    await start(other.quizId, asha.cookie);
    for (const [quiz, id, cookie] of [
      [quizId, randomUUID(), asha.cookie],
      [quizId, attempt._id, ravi.cookie],
      [other.quizId, attempt._id, asha.cookie],
    ] as const) {
      const response = await submit(quiz, id, cookie, []);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(answers.attemptNotFound);
      expect((await call('GET', `/quizzes/${quiz}/attempts/${id}`, cookie)).statusCode).toBe(404);
    }
    expect((await attemptRow(attempt._id)).state).toBe('open');
  });

  it('keeps the quizzes of a course made a draft again out of sight of learners', async () => {
    const { courseId, quizId } = await courseWithQuiz();
    await t.app.ctx.db.update(courses).set({ status: 'draft' }).where(eq(courses.id, courseId));
    await t.app.ctx.changes.caughtUp();
    const asha = await learner(t);
    expect((await call('GET', `/quizzes/${quizId}`, asha.cookie)).statusCode).toBe(404);
    expect(await t.app.ctx.db.select().from(quizAttempts).where(eq(quizAttempts.quizId, quizId))).toEqual([]);
  });
});

describe('versions', () => {
  it('grades an attempt started on one version against it after the quiz was edited', async () => {
    const { quizId, version: v1 } = await courseWithQuiz();
    const asha = await learner(t);
    const attempt = await start(quizId, asha.cookie);

    // The edit keeps the ids, rewords the first question and makes another option its right one.
    const [single, ...rest] = v1.questions as [AuthoredQuestion & { type: 'single' }, ...AuthoredQuestion[]];
    const v2 = await insertQuizVersion(t, quizId, {
      title: 'Averages, revised',
      passMark: 100,
      questions: [
        { ...single, prompt: 'The mean of 3 and 9?', options: single.options.map((option, i) => ({ ...option, correct: i === 1 })) },
        ...rest.map((question) => ({ ...question })),
      ],
    });
    expect(v2.number).toBe(2);

    const quiz = (await call('GET', `/quizzes/${quizId}`, asha.cookie)).json().quiz;
    expect(quiz).toMatchObject({ title: 'Averages, revised', passMark: 100 });
    expect(quiz.openAttempt.questions[0].prompt).toBe('The mean of 2 and 4?');

    const graded = await submit(quizId, attempt._id, asha.cookie, rightAnswers(v1.questions));
    expect(graded.json().attempt).toMatchObject({ score: 100, passed: true, passMark: 60 });
    expect(graded.json().attempt.questions[0].prompt).toBe('The mean of 2 and 4?');
    expect((await attemptRow(attempt._id)).versionId).toBe(v1.id);

    const next = await start(quizId, asha.cookie);
    expect(next.questions[0]!.prompt).toBe('The mean of 3 and 9?');
    expect((await attemptRow(next._id)).versionId).toBe(v2.id);
    const again = await submit(quizId, next._id, asha.cookie, rightAnswers(v1.questions));
    expect(again.json().attempt).toMatchObject({ score: 66, passed: false, passMark: 100 });
  });
});

describe('progress', () => {
  it('counts a quiz passed as an item of the course', async () => {
    const { courseId, lectureId, quizId, version } = await courseWithQuiz();
    const asha = await learner(t);
    const marked = await call('PUT', `/progress/lectures/${lectureId}/completed`, asha.cookie, { completed: true });
    expect(marked.json().course).toMatchObject({ completedLectures: 1, lectureCount: 1, passedQuizzes: 0, quizCount: 1, percent: 50 });

    const failed = await start(quizId, asha.cookie);
    await submit(quizId, failed._id, asha.cookie, []);
    expect((await call('GET', `/progress/courses/${courseId}`, asha.cookie)).json()).toMatchObject({
      course: { passedQuizzes: 0, percent: 50 },
      quizzes: [{ quizId, passed: false, bestScore: 0, attempts: 1 }],
    });

    const passed = await start(quizId, asha.cookie);
    await submit(quizId, passed._id, asha.cookie, rightAnswers(version.questions));
    expect((await call('GET', `/progress/courses/${courseId}`, asha.cookie)).json()).toMatchObject({
      course: { completedLectures: 1, passedQuizzes: 1, quizCount: 1, percent: 100 },
      quizzes: [{ quizId, passed: true, bestScore: 100, attempts: 2 }],
    });
    const mine = (await call('GET', '/progress', asha.cookie)).json().courses.find((c: { courseId: string }) => c.courseId === courseId);
    expect(mine).toMatchObject({ passedQuizzes: 1, quizCount: 1, percent: 100 });
    const saved = await call('POST', `/progress/lectures/${lectureId}`, asha.cookie, { at: Date.now(), position: 10, watched: 10 });
    expect(saved.json().course).toMatchObject({ passedQuizzes: 1, quizCount: 1, percent: 100 });
  });
});
