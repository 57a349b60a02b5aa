import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Course } from '@lms/contract/courses';
import type { CurriculumLecture, Lecture, Section } from '@lms/contract/lectures';
import type { AttemptResult, LearnerQuiz, OpenAttempt, QuizSummary } from '@lms/contract/quizzes';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../../test/render';
import { Curriculum } from '../../courses/Curriculum';
import { LectureList } from '../../lectures/LectureList';
import QuizPage from './QuizPage';
import { quizTakeTexts as texts } from './quiz-take-texts';

const course: Course = {
  _id: '00000000-0000-4000-8000-000000000001',
  title: 'Rust',
  description: 'Fearless.',
  category: 'Systems',
  createdBy: 'Ravi Kumar',
  thumbnail: { secure_url: '/media/thumbnails/1.webp' },
  numbersOfLectures: 2,
  totalDuration: null,
  state: 'published',
  publishAt: null,
};
const quizId = '40000000-0000-4000-8000-000000000001';
const id = (prefix: string, n: number) => `${prefix}000000-0000-4000-8000-00000000000${n}`;
const lecture = (n: number, sectionId: string | null = null): Lecture => ({
  _id: id('20', n),
  sectionId,
  title: `Lesson ${n}`,
  description: `Part ${n}`,
  secure_url: `/media/private/videos/${n}.mp4?sig=x`,
  duration: 60,
  preview: false,
  processing: { state: 'ready', percent: null, reason: null },
  poster_url: null,
  hls_url: null,
  replacement: null,
});
const summary = (overrides: Partial<QuizSummary> = {}): QuizSummary => ({
  _id: quizId,
  title: 'Ownership check',
  sectionId: null,
  afterLectureId: lecture(1)._id,
  questionCount: 3,
  passMark: 70,
  timeLimitMinutes: null,
  ...overrides,
});

const questions: OpenAttempt['questions'] = [
  {
    id: id('51', 1),
    type: 'single',
    prompt: 'Who owns a value?',
    options: [
      { id: id('61', 1), text: 'Everyone' },
      { id: id('61', 2), text: 'One owner' },
    ],
  },
  {
    id: id('51', 2),
    type: 'multiple',
    prompt: 'Which are smart pointers?',
    options: [
      { id: id('62', 1), text: 'Box' },
      { id: id('62', 2), text: 'i32' },
      { id: id('62', 3), text: 'Rc' },
    ],
  },
  { id: id('51', 3), type: 'text', prompt: 'How many owners may a value have?', options: [] },
];
const attempt = (n: number, overrides: Partial<OpenAttempt> = {}): OpenAttempt => ({
  _id: id('70', n),
  number: n,
  startedAt: new Date().toISOString(),
  endsAt: null,
  layout: 'one',
  questions,
  ...overrides,
});
const learnerQuiz = (overrides: Partial<LearnerQuiz> = {}): LearnerQuiz => ({
  _id: quizId,
  courseId: course._id,
  title: 'Ownership check',
  questionCount: 3,
  passMark: 70,
  attemptsAllowed: 2,
  attemptsLeft: 2,
  timeLimitMinutes: null,
  layout: 'one',
  passed: false,
  bestScore: null,
  attempts: [],
  openAttempt: null,
  ...overrides,
});
const result = (overrides: Partial<AttemptResult> = {}): AttemptResult => ({
  _id: id('70', 1),
  number: 1,
  state: 'graded',
  score: 66,
  passed: false,
  startedAt: '2026-11-20T10:00:00.000Z',
  submittedAt: '2026-11-20T10:05:00.000Z',
  passMark: 70,
  correctCount: 2,
  questionCount: 3,
  questions: [
    { ...questions[0]!, correct: false, chosenOptionIds: [id('61', 1)], text: null, explanation: 'Each value has exactly one owner.' },
    { ...questions[1]!, correct: true, chosenOptionIds: [id('62', 1), id('62', 3)], text: null, explanation: '' },
    { ...questions[2]!, correct: true, chosenOptionIds: [], text: 'one', explanation: 'One at a time.' },
  ],
  ...overrides,
});

const QUIZ = `GET /api/v1/quizzes/${quizId}`;
const START = `POST /api/v1/quizzes/${quizId}/attempts`;
const submitKey = (n: number) => `POST /api/v1/quizzes/${quizId}/attempts/${id('70', n)}/submission`;
const LECTURES = `GET /api/v1/courses/${course._id}`;
const lecturesAnswer = {
  body: { success: true, message: 'ok', course, sections: [], lectures: [lecture(1), lecture(2)], quizzes: [summary()] },
};
const quizAnswer = (quiz: LearnerQuiz) => ({ body: { success: true, message: answers.quizFetched, quiz } });
const started = (open: OpenAttempt, message: string = answers.attemptStarted) => ({ status: 201, body: { success: true, message, attempt: open } });

async function openQuiz() {
  const view = renderPage(<QuizPage />, { path: '/course/quiz' });
  await act(() => view.router.navigate(`/course/quiz?id=${course._id}&quiz=${quizId}`, { state: course }));
  return view;
}

beforeEach(() => storeLogin(sampleUser({ subscription: { status: 'active' } as never })));
afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('/course/quiz', () => {
  it('shows the rules, then one question a screen taken with the keyboard, then the graded result and a retry', async () => {
    let starts = 0;
    const calls = stubApi({
      [QUIZ]: quizAnswer(learnerQuiz()),
      [LECTURES]: lecturesAnswer,
      [START]: () => started(attempt(++starts)),
      [submitKey(1)]: { body: { success: true, message: answers.attemptGraded(false), attempt: result(), attemptsLeft: 1 } },
    });
    const { user } = await openQuiz();
    expect(await screen.findByRole('heading', { level: 1, name: /Ownership check/ })).toBeInTheDocument();
    for (const fact of [texts.questionCount(3), texts.passMark(70), texts.attemptsLeft(2), texts.timeLimit(null)])
      expect(screen.getByText(fact)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: texts.start }));
    expect(await screen.findByText(texts.questionOf(1, 3))).toBeInTheDocument();
    // 1–9 choose, → goes on, Enter goes on.
    await user.keyboard('2');
    expect(screen.getByRole('radio', { name: 'One owner' })).toBeChecked();
    await user.keyboard('1');
    expect(screen.getByRole('radio', { name: 'Everyone' })).toBeChecked();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByText(texts.questionOf(2, 3))).toBeInTheDocument();
    expect(screen.getByText(texts.selectAll)).toBeInTheDocument();
    await user.keyboard('13');
    expect(screen.getByRole('checkbox', { name: 'Box' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Rc' })).toBeChecked();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByText(texts.questionOf(1, 3))).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Everyone' })).toBeChecked();
    await user.keyboard('{ArrowRight}{Enter}');
    expect(screen.getByText(texts.questionOf(3, 3))).toBeInTheDocument();
    // Typing: the digits and arrows are the answer's, Enter submits from the last question.
    const field = screen.getByRole('textbox', { name: /How many owners/ });
    await user.type(field, 'one 1{ArrowLeft}');
    expect(field).toHaveValue('one 1');
    expect(screen.getByText(texts.questionOf(3, 3))).toBeInTheDocument();
    await user.keyboard('{Enter}');

    expect(await screen.findByText(texts.resultScore(66, 2, 3))).toBeInTheDocument();
    const sent = calls.find((call) => call.url.endsWith('/submission'))!;
    expect(JSON.parse(sent.init.body as string)).toEqual({
      answers: [
        { questionId: id('51', 1), optionIds: [id('61', 1)] },
        { questionId: id('51', 2), optionIds: [id('62', 1), id('62', 3)] },
        { questionId: id('51', 3), text: 'one 1' },
      ],
    });
    expect(screen.getByText(texts.resultFailed(70))).toBeInTheDocument();
    const rows = screen.getAllByRole('listitem');
    expect(within(rows[0]!).getByText(texts.wrong)).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Everyone')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Each value has exactly one owner.')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(texts.right)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Box, Rc')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('One at a time.')).toBeInTheDocument();
    // The answers of a graded attempt are not kept.
    expect(sessionStorage.getItem(`quiz-attempt:${id('70', 1)}`)).toBeNull();

    await user.click(screen.getByRole('button', { name: texts.retry }));
    expect(await screen.findByText(texts.questionOf(1, 3))).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Everyone' })).not.toBeChecked();
    expect(starts).toBe(2);
  });

  it('keeps the answers through a reload and carries on with the attempt under way', async () => {
    const open = attempt(1);
    stubApi({ [QUIZ]: quizAnswer(learnerQuiz()), [LECTURES]: lecturesAnswer, [START]: started(open) });
    const first = await openQuiz();
    await first.user.click(await screen.findByRole('button', { name: texts.start }));
    await first.user.click(await screen.findByRole('radio', { name: 'One owner' }));
    first.unmount();

    stubApi({ [QUIZ]: quizAnswer(learnerQuiz({ openAttempt: open })), [LECTURES]: lecturesAnswer, [START]: started(open, answers.attemptResumed) });
    const { user } = await openQuiz();
    await user.click(await screen.findByRole('button', { name: texts.carryOn }));
    expect(await screen.findByRole('radio', { name: 'One owner' })).toBeChecked();
  });

  it('shows every question on one page, counts those answered, and asks before submitting blanks', async () => {
    stubApi({
      [QUIZ]: quizAnswer(learnerQuiz({ layout: 'all' })),
      [LECTURES]: lecturesAnswer,
      [START]: started(attempt(1, { layout: 'all' })),
      [submitKey(1)]: {
        body: { success: true, message: answers.attemptGraded(true), attempt: result({ score: 100, passed: true, correctCount: 3 }), attemptsLeft: 1 },
      },
    });
    const { user } = await openQuiz();
    await user.click(await screen.findByRole('button', { name: texts.start }));
    expect(await screen.findByText(texts.answeredOf(0, 3))).toBeInTheDocument();
    expect(screen.getAllByRole('group')).toHaveLength(3);
    await user.click(screen.getByRole('radio', { name: 'One owner' }));
    expect(screen.getByText(texts.answeredOf(1, 3))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.submit }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText(texts.unansweredConfirm(2))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: texts.keepAnswering }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.submit }));
    await user.click(screen.getByRole('button', { name: texts.submitAnyway }));
    expect(await screen.findByText(texts.resultPassed(70))).toBeInTheDocument();
    // Passed: the next item of the course is offered.
    expect(screen.getByRole('link', { name: texts.nextItem('Lesson 2') })).toHaveAttribute(
      'href',
      `/course/lecture?id=${course._id}&lecture=${lecture(2)._id}`,
    );
  });

  it('submits what is answered when the clock runs out, and says plainly when the server says time is up', async () => {
    let gets = 0;
    const calls = stubApi({
      [QUIZ]: () => (gets++, quizAnswer(learnerQuiz({ timeLimitMinutes: 1 }))),
      [LECTURES]: lecturesAnswer,
      [START]: started(attempt(1, { endsAt: new Date(Date.now() + 1500).toISOString() })),
      [submitKey(1)]: { status: 409, body: { success: false, message: answers.attemptTimeUp } },
    });
    const { user } = await openQuiz();
    await user.click(await screen.findByRole('button', { name: texts.start }));
    expect(await screen.findByRole('timer')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'One owner' }));
    expect(await screen.findByText(answers.attemptTimeUp, {}, { timeout: 4000 })).toBeInTheDocument();
    const sent = calls.find((call) => call.url.endsWith('/submission'))!;
    expect(JSON.parse(sent.init.body as string)).toEqual({ answers: [{ questionId: id('51', 1), optionIds: [id('61', 2)] }] });
    // Back at the rules, fetched again.
    await waitFor(() => expect(gets).toBeGreaterThanOrEqual(2));
    expect(screen.getByRole('button', { name: texts.start })).toBeInTheDocument();
  });

  it('offers no retry once the attempts are used up, and shows the past attempts and the pass', async () => {
    stubApi({
      [QUIZ]: quizAnswer(learnerQuiz({ attemptsLeft: 1 })),
      [LECTURES]: lecturesAnswer,
      [START]: started(attempt(2, { number: 2 })),
      [submitKey(2)]: { body: { success: true, message: answers.attemptGraded(false), attempt: result({ _id: id('70', 2), number: 2 }), attemptsLeft: 0 } },
    });
    const { user, unmount } = await openQuiz();
    await user.click(await screen.findByRole('button', { name: texts.start }));
    for (let n = 0; n < 3; n++) await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('button', { name: texts.submitAnyway }));
    expect(await screen.findByText(texts.resultScore(66, 2, 3))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.retry })).not.toBeInTheDocument();
    unmount();

    const attempts = [
      {
        _id: id('70', 2),
        number: 2,
        state: 'graded' as const,
        score: 80,
        passed: true,
        startedAt: '2026-11-21T10:00:00.000Z',
        submittedAt: '2026-11-21T10:05:00.000Z',
      },
      { _id: id('70', 1), number: 1, state: 'expired' as const, score: 0, passed: false, startedAt: '2026-11-20T10:00:00.000Z', submittedAt: null },
    ];
    stubApi({ [QUIZ]: quizAnswer(learnerQuiz({ attemptsLeft: 0, passed: true, bestScore: 80, attempts })), [LECTURES]: lecturesAnswer });
    await openQuiz();
    expect(await screen.findByText(texts.noAttemptsLeft)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.retry })).not.toBeInTheDocument();
    // The quiz's badge, and the passing attempt's.
    expect(screen.getAllByText(texts.passedBadge, { selector: '.badge-success' })).toHaveLength(2);
    expect(screen.getByText(texts.bestScore(80))).toBeInTheDocument();
    const past = within(screen.getByRole('region', { name: texts.pastAttempts }));
    expect(past.getByText(texts.attemptRow(2))).toBeInTheDocument();
    expect(past.getByText(texts.expired)).toBeInTheDocument();
  });

  it("shows the server's refusal to a learner without a subscription, with the way to subscribe", async () => {
    storeLogin(sampleUser());
    stubApi({
      [QUIZ]: { status: 403, body: { success: false, message: answers.subscribeToTakeQuizzes } },
      [LECTURES]: { status: 403, body: { success: false, message: 'no' } },
    });
    await openQuiz();
    expect(await screen.findByRole('alert')).toHaveTextContent(answers.subscribeToTakeQuizzes);
    expect(screen.getByRole('link', { name: 'Subscribe' })).toHaveAttribute(
      'href',
      `/checkout?from=${encodeURIComponent(`/course/quiz?id=${course._id}&quiz=${quizId}`)}`,
    );
    expect(screen.queryByRole('button', { name: texts.start })).not.toBeInTheDocument();
  });
});

describe('quizzes in the course lists', () => {
  const basics: Section = { _id: id('30', 1), title: 'Basics' };

  it('the lecture list shows a quiz after its lecture, a link to it, checked once passed', () => {
    renderPage(
      <LectureList
        sections={[basics]}
        lectures={[lecture(1, basics._id), lecture(2, basics._id)]}
        quizzes={[summary()]}
        quizStanding={(quiz) => (quiz === quizId ? { quizId, passed: true, bestScore: 80, attempts: 1 } : undefined)}
        courseId={course._id}
        current={0}
        onPick={() => undefined}
        progressOf={() => undefined}
        course={{
          courseId: course._id,
          completedLectures: 1,
          lectureCount: 2,
          passedQuizzes: 1,
          quizCount: 1,
          percent: 67,
          lastLectureId: null,
          lastWatchedAt: '',
        }}
      />,
    );
    const items = within(screen.getByRole('region', { name: 'Basics' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Lesson 1'),
      expect.stringContaining(texts.quizRow('Ownership check')),
      expect.stringContaining('Lesson 2'),
    ]);
    expect(within(items[1]!).getByRole('link')).toHaveAttribute('href', `/course/quiz?id=${course._id}&quiz=${quizId}`);
    expect(within(items[1]!).getByTitle(texts.quizPassed)).toBeInTheDocument();
    expect(screen.getByText(texts.progressWithQuizzes(1, 2, 1, 1, 67))).toBeInTheDocument();
    expect(screen.getByText('1 of 3 done')).toBeInTheDocument();
  });

  it('the course page curriculum shows a quiz at the end of its section, a link for those who may take it', () => {
    const curriculumLecture = (n: number): CurriculumLecture => ({
      _id: id('20', n),
      sectionId: basics._id,
      title: `Lesson ${n}`,
      description: '',
      duration: 60,
      preview: false,
    });
    renderPage(
      <Curriculum
        sections={[basics]}
        lectures={[curriculumLecture(1), curriculumLecture(2)]}
        quizzes={[summary({ afterLectureId: null, sectionId: basics._id })]}
        courseId={course._id}
        lectureCount={2}
        totalDuration={120}
        canWatch
        onPlay={() => undefined}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Lesson 1'),
      expect.stringContaining('Lesson 2'),
      expect.stringContaining('Ownership check'),
    ]);
    expect(within(items[2]!).getByRole('link', { name: /Ownership check/ })).toHaveAttribute('href', `/course/quiz?id=${course._id}&quiz=${quizId}`);
    expect(screen.getByText(/2 lectures · 1 quiz/)).toBeInTheDocument();
  });
});
