import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import { QUIZ_LIMITS, type AuthoredQuiz, type NewQuiz, type QuizInput } from '@lms/contract/quizzes';
import { courses, quizAttempts, quizVersions, quizzes, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { countFinishedAttempts } from './test-fixtures.ts';

let t: TestApp;
let admin: string;
let learner: { id: string; cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  const paying = await signUp(t.app);
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
    .where(eq(users.id, paying.user._id));
  learner = { id: paying.user._id, cookie: paying.cookie };
});
afterAll(() => t?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const send = (method: Method, url: string, payload?: object, cookie: string | null = admin) =>
  t.app.inject({ method, url: `/api/v1${url}`, ...(payload && { payload }), headers: cookie ? { cookie } : {} });

async function newCourse({ publish = true } = {}): Promise<string> {
  const form = await multipart({
    title: 'Setting type',
    description: 'Letters, and how to space them.',
    category: 'Design',
    createdBy: 'Meera Iyer',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin } });
  expect(response.statusCode, response.body).toBe(201);
  const id: string = response.json().course._id;
  if (publish) await publishCourseDirectly(t.app.ctx, id);
  return id;
}

async function newLecture(courseId: string, title = 'Lecture'): Promise<string> {
  const form = await multipart({ title, description: 'Part of it.', lectures: { bytes: mp4Video(1024), filename: 'l.mp4', type: 'video/mp4' } });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/courses/${courseId}`,
    payload: form.payload,
    headers: { ...form.headers, cookie: admin },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course.lectures.at(-1)._id;
}

async function newSection(courseId: string, title: string): Promise<string> {
  const response = await send('POST', `/courses/${courseId}/sections`, { title });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().section._id;
}

/** A quiz of each question type; its texts are found nowhere else, so a leak of them would show. */
const quizInput = (): QuizInput => ({
  title: 'Spacing check',
  passMark: 60,
  questions: [
    {
      type: 'single',
      prompt: 'Which space sits between a pair of letters?',
      options: [
        { text: 'Kerning-zephyr', correct: true },
        { text: 'Leading-quartz', correct: false },
      ],
      explanation: 'Explained-walrus',
    },
    {
      type: 'multiple',
      prompt: 'Which are measures of type?',
      options: [
        { text: 'Point-marigold', correct: true },
        { text: 'Pica-marigold', correct: true },
        { text: 'Gram-marigold', correct: false },
      ],
    },
    { type: 'text', prompt: 'How many points in a pica?', answers: ['Twelve-osprey', '12'], explanation: 'Explained-heron' },
  ],
});

async function create(courseId: string, body: NewQuiz = quizInput()): Promise<AuthoredQuiz> {
  const response = await send('POST', `/courses/${courseId}/quizzes`, body);
  expect(response.statusCode, response.body).toBe(201);
  expect(response.json().message).toBe(answers.quizAdded);
  return response.json().quiz;
}

const update = (courseId: string, quizId: string, body: object) => send('PUT', `/courses/${courseId}/quizzes/${quizId}`, body);
const place = (courseId: string, quizId: string, body: object) => send('PUT', `/courses/${courseId}/quizzes/${quizId}/place`, body);
const authored = async (courseId: string, quizId: string): Promise<AuthoredQuiz> => {
  const response = await send('GET', `/courses/${courseId}/quizzes/${quizId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().quiz;
};
const versionRows = (quizId: string) => t.app.ctx.db.select().from(quizVersions).where(eq(quizVersions.quizId, quizId)).orderBy(asc(quizVersions.number));

/** The quiz as the editor sends it back: its fields without what the server adds. */
const asInput = ({ title, passMark, attemptsAllowed, timeLimitMinutes, shuffleQuestions, shuffleOptions, layout, questions }: AuthoredQuiz) => ({
  title,
  passMark,
  attemptsAllowed,
  timeLimitMinutes,
  shuffleQuestions,
  shuffleOptions,
  layout,
  questions,
});

/** A graded attempt, as the taking side would leave it. */
async function gradedAttempt(courseId: string, quizId: string, versionNumber = 1) {
  const [version] = (await versionRows(quizId)).filter((row) => row.number === versionNumber);
  await t.app.ctx.db.insert(quizAttempts).values({
    quizId,
    versionId: version!.id,
    userId: learner.id,
    courseId,
    number: versionNumber,
    state: 'graded',
    questionOrder: [],
    submittedAt: new Date(),
    score: 100,
    correctCount: 3,
    passed: true,
  });
  await countFinishedAttempts(t);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('adding a quiz', () => {
  it('saves each question type as version 1, with ids for every question and option, and the settings left out at their defaults', async () => {
    const courseId = await newCourse();
    const quiz = await create(courseId, { title: 'Spacing check', questions: quizInput().questions });
    expect(quiz).toMatchObject({
      courseId,
      sectionId: null,
      afterLectureId: null,
      version: 1,
      attempts: 0,
      title: 'Spacing check',
      passMark: 70,
      attemptsAllowed: null,
      timeLimitMinutes: null,
      shuffleQuestions: false,
      shuffleOptions: false,
      layout: 'one',
    });
    expect(quiz.questions).toEqual([
      {
        id: expect.stringMatching(UUID),
        type: 'single',
        prompt: 'Which space sits between a pair of letters?',
        options: [
          { id: expect.stringMatching(UUID), text: 'Kerning-zephyr', correct: true },
          { id: expect.stringMatching(UUID), text: 'Leading-quartz', correct: false },
        ],
        explanation: 'Explained-walrus',
      },
      {
        id: expect.stringMatching(UUID),
        type: 'multiple',
        prompt: 'Which are measures of type?',
        options: [
          { id: expect.stringMatching(UUID), text: 'Point-marigold', correct: true },
          { id: expect.stringMatching(UUID), text: 'Pica-marigold', correct: true },
          { id: expect.stringMatching(UUID), text: 'Gram-marigold', correct: false },
        ],
        explanation: '',
      },
      { id: expect.stringMatching(UUID), type: 'text', prompt: 'How many points in a pica?', answers: ['Twelve-osprey', '12'], explanation: 'Explained-heron' },
    ]);
    expect(await authored(courseId, quiz._id)).toEqual(quiz);
    const [row] = await t.app.ctx.db.select().from(quizzes).where(eq(quizzes.id, quiz._id));
    expect(row!.currentVersion).toBe(1);
  });

  it('keeps the ids the editor sent, and gives new ones to the rest', async () => {
    const courseId = await newCourse();
    const [questionId, optionId] = [randomUUID(), randomUUID()];
    const input = quizInput();
    const [single] = input.questions;
    if (single?.type !== 'single') throw new Error('the first question is single choice');
    input.questions[0] = { ...single, id: questionId, options: [{ ...single.options[0]!, id: optionId }, single.options[1]!] };
    const quiz = await create(courseId, input);
    const first = quiz.questions[0]!;
    expect(first.id).toBe(questionId);
    expect(first.type !== 'text' && first.options.map((option) => option.id)).toEqual([optionId, expect.stringMatching(UUID)]);
  });

  it('is placed after a lecture (in that lecture’s section), at the end of a section, or at the course’s end', async () => {
    const courseId = await newCourse();
    const lectureId = await newLecture(courseId);
    const sectionId = await newSection(courseId, 'Basics');
    const moved = await send('PUT', `/courses/${courseId}/lectures/${lectureId}/position`, { sectionId, afterId: null });
    expect(moved.statusCode, moved.body).toBe(200);

    expect(await create(courseId, { ...quizInput(), afterLectureId: lectureId })).toMatchObject({ afterLectureId: lectureId, sectionId });
    expect(await create(courseId, { ...quizInput(), sectionId })).toMatchObject({ afterLectureId: null, sectionId });
    expect(await create(courseId, { ...quizInput(), sectionId: null, afterLectureId: null })).toMatchObject({ afterLectureId: null, sectionId: null });
  });

  it('refuses a place outside the course, and an unknown course', async () => {
    const courseId = await newCourse();
    const elsewhere = await newCourse();
    const otherLecture = await newLecture(elsewhere);
    const otherSection = await newSection(elsewhere, 'Elsewhere');
    for (const where of [{ afterLectureId: otherLecture }, { sectionId: otherSection }, { afterLectureId: randomUUID() }]) {
      const response = await send('POST', `/courses/${courseId}/quizzes`, { ...quizInput(), ...where });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toBe(answers.quizPlaceInvalid);
    }
    const unknown = await send('POST', `/courses/${randomUUID()}/quizzes`, quizInput());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(messages.courseNotFound);
    expect(await t.app.ctx.db.select().from(quizzes).where(eq(quizzes.courseId, courseId))).toEqual([]);
  });

  it('answers each broken rule with its own message, and saves nothing', async () => {
    const courseId = await newCourse();
    const long = (length: number) => 'x'.repeat(length);
    const option = (text: string, correct: boolean) => ({ text, correct });
    const single = (options: object[]) => ({ type: 'single', prompt: 'Pick', options });
    const multiple = (options: object[]) => ({ type: 'multiple', prompt: 'Pick', options });
    const shortAnswer = (accepted: unknown) => ({ type: 'text', prompt: 'Say', answers: accepted });
    const right = [option('A', true), option('B', false)];
    const id = randomUUID();
    const cases: [object, string][] = [
      [{ questions: [single([option('A', true), option('B', true)])] }, answers.quizSingleNeedsOne],
      [{ questions: [single([option('A', false), option('B', false)])] }, answers.quizSingleNeedsOne],
      [{ questions: [multiple([option('A', false), option('B', false)])] }, answers.quizMultipleNeedsOne],
      [{ questions: [shortAnswer([])] }, answers.quizAcceptedInvalid],
      [{ questions: [shortAnswer(['  '])] }, answers.quizAcceptedInvalid],
      [{ questions: [shortAnswer([long(QUIZ_LIMITS.answerMax + 1)])] }, answers.quizAcceptedInvalid],
      [{ questions: [shortAnswer(Array.from({ length: QUIZ_LIMITS.acceptedAnswers + 1 }, (_, i) => `a${i}`))] }, answers.quizAcceptedInvalid],
      [{ questions: [single([option('A', true)])] }, answers.quizOptionsCount],
      [
        { questions: [single([option('A', true), ...Array.from({ length: QUIZ_LIMITS.options }, (_, i) => option(`o${i}`, false))])] },
        answers.quizOptionsCount,
      ],
      [{ questions: [single([option(long(QUIZ_LIMITS.optionMax + 1), true), option('B', false)])] }, answers.quizOptionInvalid],
      [{ questions: [single([{ text: 'A' }, option('B', true)])] }, answers.quizOptionInvalid],
      [{ questions: [{ ...single(right), prompt: ' ' }] }, answers.quizPromptInvalid],
      [{ questions: [{ ...single(right), prompt: long(QUIZ_LIMITS.promptMax + 1) }] }, answers.quizPromptInvalid],
      [{ questions: [{ ...single(right), explanation: long(QUIZ_LIMITS.explanationMax + 1) }] }, answers.quizExplanationInvalid],
      [{ questions: [{ type: 'essay', prompt: 'Write' }] }, answers.quizQuestionTypeInvalid],
      [{ questions: [] }, answers.quizQuestionsCount],
      [{ questions: Array.from({ length: QUIZ_LIMITS.questions + 1 }, () => single(right)) }, answers.quizQuestionsCount],
      [{ title: '' }, answers.quizTitleInvalid],
      [{ title: long(QUIZ_LIMITS.titleMax + 1) }, answers.quizTitleInvalid],
      [{ passMark: 101 }, answers.quizPassMarkInvalid],
      [{ passMark: 50.5 }, answers.quizPassMarkInvalid],
      [{ attemptsAllowed: 0 }, answers.quizAttemptsInvalid],
      [{ attemptsAllowed: QUIZ_LIMITS.attemptsMax + 1 }, answers.quizAttemptsInvalid],
      [{ timeLimitMinutes: 0 }, answers.quizTimeLimitInvalid],
      [{ timeLimitMinutes: QUIZ_LIMITS.timeLimitMinutesMax + 1 }, answers.quizTimeLimitInvalid],
      [{ shuffleQuestions: 'yes' }, answers.quizShuffleInvalid],
      [{ shuffleOptions: 1 }, answers.quizShuffleInvalid],
      [{ layout: 'grid' }, answers.quizLayoutInvalid],
      [
        {
          questions: [
            { ...single(right), id },
            { ...single(right), id },
          ],
        },
        answers.quizIdsRepeated,
      ],
      [
        { questions: [single([{ ...option('A', true), id }, option('B', false)]), multiple([{ ...option('A', true), id }, option('B', false)])] },
        answers.quizIdsRepeated,
      ],
      [{ questions: [{ ...single(right), id: 'not-an-id' }] }, answers.invalidId],
      [{ sectionId: 'not-an-id' }, answers.invalidId],
    ];
    for (const [change, message] of cases) {
      const response = await send('POST', `/courses/${courseId}/quizzes`, { ...quizInput(), ...change });
      expect({ change, status: response.statusCode, message: response.json().message }).toEqual({ change, status: 400, message });
    }
    expect(await t.app.ctx.db.select().from(quizzes).where(eq(quizzes.courseId, courseId))).toEqual([]);
  });
});

describe('who may write quizzes', () => {
  it('answers a learner 403 on every administrator’s quiz route, and a visitor 401', async () => {
    const courseId = await newCourse();
    const quiz = await create(courseId);
    const routes: [Method, string, object?][] = [
      ['GET', `/courses/${courseId}/quizzes/${quiz._id}`],
      ['POST', `/courses/${courseId}/quizzes`, quizInput()],
      ['PUT', `/courses/${courseId}/quizzes/${quiz._id}`, quizInput()],
      ['PUT', `/courses/${courseId}/quizzes/${quiz._id}/place`, { sectionId: null, afterLectureId: null }],
      ['DELETE', `/courses/${courseId}/quizzes/${quiz._id}`],
    ];
    for (const [method, url, body] of routes) {
      expect([method, url, (await send(method, url, body, learner.cookie)).statusCode]).toEqual([method, url, 403]);
      expect([method, url, (await send(method, url, body, null)).statusCode]).toEqual([method, url, 401]);
    }
    expect(await versionRows(quiz._id)).toHaveLength(1);
    expect(await authored(courseId, quiz._id)).toEqual(quiz);
  });
});

describe('versions', () => {
  it('a save that changes something adds a version and keeps the ids; the version before stays as it was', async () => {
    const courseId = await newCourse();
    const quiz = await create(courseId);
    await gradedAttempt(courseId, quiz._id);
    const [firstRow] = await versionRows(quiz._id);

    const edited = asInput(quiz);
    edited.questions = edited.questions.map((question, index) => (index === 0 ? { ...question, prompt: 'Which space sits between two letters?' } : question));
    const response = await update(courseId, quiz._id, edited);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(answers.quizSaved);
    const saved: AuthoredQuiz = response.json().quiz;
    expect(saved).toMatchObject({ version: 2, attempts: 1, questions: edited.questions });
    expect(saved.questions.map((question) => question.id)).toEqual(quiz.questions.map((question) => question.id));
    expect(new Date(saved.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(quiz.updatedAt).getTime());

    const rows = await versionRows(quiz._id);
    expect(rows.map((row) => row.number)).toEqual([1, 2]);
    expect(rows[0]).toEqual(firstRow);
    expect(rows[0]!.questions[0]!.prompt).toBe('Which space sits between a pair of letters?');

    // A settings change alone is a change too.
    const stricter = await update(courseId, quiz._id, { ...edited, passMark: 80 });
    expect(stricter.json()).toMatchObject({ message: answers.quizSaved, quiz: { version: 3, passMark: 80 } });
    expect((await versionRows(quiz._id)).slice(0, 2)).toEqual(rows);
  });

  it('a save that changes nothing adds no version, with or without the ids the server gave', async () => {
    const courseId = await newCourse();
    const quiz = await create(courseId);
    const [course] = await t.app.ctx.db.select({ updatedAt: courses.updatedAt }).from(courses).where(eq(courses.id, courseId));

    const same = await update(courseId, quiz._id, asInput(quiz));
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ message: answers.quizUnchanged, quiz: { version: 1 } });
    expect(same.json().quiz).toEqual(quiz);

    // Sent again as first written, without ids: the server would give back the very same ones.
    const again = await update(courseId, quiz._id, quizInput());
    expect(again.json()).toMatchObject({ message: answers.quizUnchanged, quiz: { version: 1 } });
    expect(await versionRows(quiz._id)).toHaveLength(1);
    // Nothing was written: not even the course's time of change.
    const [after] = await t.app.ctx.db.select({ updatedAt: courses.updatedAt }).from(courses).where(eq(courses.id, courseId));
    expect(after!.updatedAt).toEqual(course!.updatedAt);
  });

  it('a question added without an id gets a new one, the others keep theirs', async () => {
    const courseId = await newCourse();
    const quiz = await create(courseId);
    const input = asInput(quiz);
    const response = await update(courseId, quiz._id, { ...input, questions: [...input.questions, { type: 'text', prompt: 'One more', answers: ['yes'] }] });
    const saved: AuthoredQuiz = response.json().quiz;
    expect(saved.version).toBe(2);
    expect(saved.questions.slice(0, 3)).toEqual(quiz.questions);
    expect(saved.questions[3]!.id).toMatch(UUID);
    expect(quiz.questions.map((question) => question.id)).not.toContain(saved.questions[3]!.id);
  });

  it('refuses repeated ids and invalid fields on a save, and a quiz of another course is not found', async () => {
    const courseId = await newCourse();
    const elsewhere = await newCourse();
    const quiz = await create(courseId);
    const input = asInput(quiz);
    const repeated = await update(courseId, quiz._id, { ...input, questions: [input.questions[0], input.questions[0]] });
    expect([repeated.statusCode, repeated.json().message]).toEqual([400, answers.quizIdsRepeated]);
    const invalid = await update(courseId, quiz._id, { ...input, passMark: -1 });
    expect([invalid.statusCode, invalid.json().message]).toEqual([400, answers.quizPassMarkInvalid]);
    for (const response of [
      await update(elsewhere, quiz._id, input),
      await update(courseId, randomUUID(), input),
      await send('GET', `/courses/${elsewhere}/quizzes/${quiz._id}`),
      await place(elsewhere, quiz._id, {}),
      await send('DELETE', `/courses/${elsewhere}/quizzes/${quiz._id}`),
    ]) {
      expect([response.statusCode, response.json().message]).toEqual([404, answers.quizNotFound]);
    }
    expect(await versionRows(quiz._id)).toHaveLength(1);
  });
});

describe('moving and deleting a quiz', () => {
  it('moves it after a lecture, to a section’s end or the course’s end, and touches the course', async () => {
    const courseId = await newCourse();
    const lectureId = await newLecture(courseId);
    const sectionId = await newSection(courseId, 'Basics');
    const quiz = await create(courseId);
    const before = await t.app.ctx.db.select({ updatedAt: courses.updatedAt }).from(courses).where(eq(courses.id, courseId));

    const afterLecture = await place(courseId, quiz._id, { afterLectureId: lectureId, sectionId });
    expect(afterLecture.statusCode, afterLecture.body).toBe(200);
    // The lecture is of no section: the quiz is where the lecture is, whatever section was sent.
    expect(afterLecture.json()).toMatchObject({ message: answers.quizPlaced, quiz: { afterLectureId: lectureId, sectionId: null, version: 1 } });
    const [touched] = await t.app.ctx.db.select({ updatedAt: courses.updatedAt }).from(courses).where(eq(courses.id, courseId));
    expect(touched!.updatedAt.getTime()).toBeGreaterThan(before[0]!.updatedAt.getTime());

    expect((await place(courseId, quiz._id, { sectionId })).json().quiz).toMatchObject({ afterLectureId: null, sectionId });
    expect((await place(courseId, quiz._id, {})).json().quiz).toMatchObject({ afterLectureId: null, sectionId: null });
    const outside = await place(courseId, quiz._id, { sectionId: await newSection(await newCourse(), 'Elsewhere') });
    expect([outside.statusCode, outside.json().message]).toEqual([400, answers.quizPlaceInvalid]);
    expect(await versionRows(quiz._id)).toHaveLength(1);
  });

  it('deletes it with its versions and attempts', async () => {
    const courseId = await newCourse();
    const quiz = await create(courseId);
    await update(courseId, quiz._id, { ...asInput(quiz), title: 'Spacing check, again' });
    await gradedAttempt(courseId, quiz._id, 2);
    expect((await authored(courseId, quiz._id)).attempts).toBe(1);

    const response = await send('DELETE', `/courses/${courseId}/quizzes/${quiz._id}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(answers.quizDeleted);
    expect(await versionRows(quiz._id)).toEqual([]);
    expect(await t.app.ctx.db.select().from(quizAttempts).where(eq(quizAttempts.quizId, quiz._id))).toEqual([]);
    expect((await send('GET', `/courses/${courseId}/quizzes/${quiz._id}`)).statusCode).toBe(404);
    expect((await send('DELETE', `/courses/${courseId}/quizzes/${quiz._id}`)).statusCode).toBe(404);
  });
});

describe('a quiz after a lecture', () => {
  it('follows it into another section, stays with it when its section goes, and is left at that section’s end when the lecture goes', async () => {
    const courseId = await newCourse();
    const [first, second] = [await newSection(courseId, 'First'), await newSection(courseId, 'Second')];
    const lectureId = await newLecture(courseId);
    const moveTo = async (sectionId: string) => {
      const response = await send('PUT', `/courses/${courseId}/lectures/${lectureId}/position`, { sectionId, afterId: null });
      expect(response.statusCode, response.body).toBe(200);
    };
    await moveTo(first);
    const after = await create(courseId, { ...quizInput(), afterLectureId: lectureId });
    const closing = await create(courseId, { ...quizInput(), title: 'Second closing', sectionId: second });
    const places = async () =>
      Object.fromEntries(
        ((await send('GET', `/courses/${courseId}`)).json().quizzes as { _id: string; sectionId: string | null; afterLectureId: string | null }[]).map(
          (quiz) => [quiz._id === after._id ? 'after' : 'closing', { sectionId: quiz.sectionId, afterLectureId: quiz.afterLectureId }],
        ),
      );
    expect(await places()).toEqual({ after: { sectionId: first, afterLectureId: lectureId }, closing: { sectionId: second, afterLectureId: null } });

    await moveTo(second);
    expect((await places()).after).toEqual({ sectionId: second, afterLectureId: lectureId });

    // The section's lectures join the one before it; a quiz at the section's end falls to the course's end.
    const deleted = await send('DELETE', `/courses/${courseId}/sections/${second}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await places()).toEqual({ after: { sectionId: first, afterLectureId: lectureId }, closing: { sectionId: null, afterLectureId: null } });

    const gone = await send('DELETE', `/courses?courseId=${courseId}&lectureId=${lectureId}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect((await places()).after).toEqual({ sectionId: first, afterLectureId: null });
    expect(closing.version).toBe(1);
  });
});

describe('quizzes in the curriculum', () => {
  /** Texts of the quiz that only its author may read. */
  const secrets = ['"correct"', '"answers"', '"explanation"', 'Kerning-zephyr', 'Point-marigold', 'Twelve-osprey', 'Explained-walrus', 'Explained-heron'];

  it('lists each quiz with its place in the lectures list and the public curriculum, and nothing of its answers', async () => {
    const courseId = await newCourse();
    const lectureId = await newLecture(courseId);
    const sectionId = await newSection(courseId, 'Practice');
    const first = await create(courseId, { ...quizInput(), afterLectureId: lectureId });
    const second = await create(courseId, { ...quizInput(), title: 'Timed check', timeLimitMinutes: 10, sectionId });
    const summaries = [
      { _id: first._id, title: 'Spacing check', sectionId: null, afterLectureId: lectureId, questionCount: 3, passMark: 60, timeLimitMinutes: null },
      { _id: second._id, title: 'Timed check', sectionId, afterLectureId: null, questionCount: 3, passMark: 60, timeLimitMinutes: 10 },
    ];

    for (const [url, cookie] of [
      [`/courses/${courseId}`, learner.cookie],
      [`/courses/${courseId}`, admin],
      [`/courses/${courseId}/curriculum`, null],
      [`/courses/${courseId}/curriculum`, admin],
    ] as const) {
      const response = await send('GET', url, undefined, cookie);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().quizzes).toEqual(summaries);
      for (const secret of secrets) expect(response.body).not.toContain(secret);
    }
  });

  it('keeps a draft’s quizzes to administrators, as its curriculum', async () => {
    const courseId = await newCourse({ publish: false });
    const quiz = await create(courseId);
    expect((await send('GET', `/courses/${courseId}/curriculum`, undefined, null)).statusCode).toBe(404);
    expect((await send('GET', `/courses/${courseId}`, undefined, learner.cookie)).statusCode).toBe(404);
    const mine = await send('GET', `/courses/${courseId}/curriculum`);
    expect(mine.json().quizzes.map((summary: { _id: string }) => summary._id)).toEqual([quiz._id]);
  });

  it('shows every quiz write in the cached public curriculum at once', async () => {
    const courseId = await newCourse();
    const sectionId = await newSection(courseId, 'Practice');
    const curriculum = async () => {
      const response = await send('GET', `/courses/${courseId}/curriculum`, undefined, null);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().quizzes as { _id: string; title: string; sectionId: string | null }[];
    };
    expect(await curriculum()).toEqual([]);
    // Read twice: the second comes from the cache.
    const misses = t.app.ctx.catalogue.stats.misses;
    expect(await curriculum()).toEqual([]);
    expect(t.app.ctx.catalogue.stats.misses).toBe(misses);

    const quiz = await create(courseId);
    expect((await curriculum()).map(({ title }) => title)).toEqual(['Spacing check']);
    await update(courseId, quiz._id, { ...asInput(quiz), title: 'Renamed check' });
    expect((await curriculum()).map(({ title }) => title)).toEqual(['Renamed check']);
    await place(courseId, quiz._id, { sectionId });
    expect((await curriculum()).map((summary) => summary.sectionId)).toEqual([sectionId]);
    await send('DELETE', `/courses/${courseId}/quizzes/${quiz._id}`);
    expect(await curriculum()).toEqual([]);
  });
});
