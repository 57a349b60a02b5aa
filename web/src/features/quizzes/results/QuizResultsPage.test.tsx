import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Course } from '@lms/contract/courses';
import type { AdminAttempt, QuizResults } from '@lms/contract/quizzes';
import { formatDate } from '../../../lib/format';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../../test/render';
import QuizResultsPage from './QuizResultsPage';
import { quizResultsTexts as texts } from './quiz-results-texts';
import { paginationTexts } from '../../../lib/components/Pagination';

const COURSE = '30000000-0000-4000-8000-000000000001';
const course: Course = {
  _id: COURSE,
  title: 'Statistics for everyone',
  description: 'Means and more',
  category: 'Maths',
  createdBy: 'Ravi Rao',
  thumbnail: { secure_url: '/media/thumb.png' },
  numbersOfLectures: 4,
  totalDuration: 600,
  state: 'published',
  publishAt: null,
};

const means: QuizResults = {
  quizId: '50000000-0000-4000-8000-000000000001',
  title: 'Means',
  questionCount: 4,
  attempts: 3,
  learners: 2,
  passRate: 33.3,
  averageScore: 41.7,
  hardestQuestions: [
    { questionId: '60000000-0000-4000-8000-000000000001', prompt: 'What is the mean of 2 and 4?', answered: 3, correctRate: 0 },
    { questionId: '60000000-0000-4000-8000-000000000002', prompt: 'Is the median robust?', answered: 4, correctRate: 25 },
  ],
};
const medians: QuizResults = {
  quizId: '50000000-0000-4000-8000-000000000002',
  title: 'Medians',
  questionCount: 1,
  attempts: 0,
  learners: 0,
  passRate: null,
  averageScore: null,
  hardestQuestions: [],
};

const asha = { _id: '10000000-0000-4000-8000-000000000001', fullName: 'Asha Verma', email: 'asha@example.com' };
const bala = { _id: '10000000-0000-4000-8000-000000000002', fullName: 'Bala Krishnan', email: 'bala@example.com' };
const attempt = (n: number, overrides: Partial<AdminAttempt>): AdminAttempt => ({
  _id: `70000000-0000-4000-8000-00000000000${n}`,
  number: 1,
  state: 'graded',
  score: 50,
  passed: false,
  startedAt: '2026-11-20T10:00:00.000Z',
  submittedAt: '2026-11-20T10:05:00.000Z',
  quizId: means.quizId,
  quizTitle: 'Means',
  version: 2,
  learner: asha,
  ...overrides,
});
const balaExpired = attempt(1, { learner: bala, state: 'expired', score: 0, submittedAt: '2026-11-22T10:00:00.000Z' });
const ashaPassed = attempt(2, { number: 2, score: 100, passed: true, submittedAt: '2026-11-21T10:00:00.000Z' });
const ashaFirst = attempt(3, { score: 25, version: 1, quizTitle: 'Means, first draft' });

const courseKey = { [`GET /api/v1/courses?id=${COURSE}`]: { body: { success: true, message: 'Course', courses: [course], total: 1, page: 1, limit: 1 } } };
const resultsKey = `GET /api/v1/admin/courses/${COURSE}/quiz-results`;
const attemptsKey = (query: string) => `GET /api/v1/admin/courses/${COURSE}/quiz-attempts?${query}`;
const results = (quizzes: QuizResults[]) => ({ body: { success: true, message: answers.quizResultsFetched, quizzes } });
const listed = (attempts: AdminAttempt[], total = attempts.length) => ({ body: { success: true, message: answers.quizAttemptsFetched, attempts, total } });

async function open() {
  storeLogin(sampleUser({ _id: '90000000-0000-4000-8000-000000000009', role: 'ADMIN', fullName: 'LMS Admin' }));
  const view = renderPage(<QuizResultsPage />, { path: '/admin/quiz-results' });
  await act(() => view.router.navigate(`/admin/quiz-results?id=${COURSE}`));
  return view;
}

const day = (iso: string) => formatDate(iso)!.replace(/\u00a0/g, ' ');
const table = () => screen.findByRole('table', { name: texts.attemptsLabel });
const rows = async () =>
  within(await table())
    .getAllByRole('row')
    .slice(1);

describe('the quiz results page', () => {
  it('shows each quiz’s figures and hardest questions, and a quiz without attempts says so', async () => {
    stubApi({ ...courseKey, [resultsKey]: results([means, medians]), [attemptsKey('page=1&limit=25')]: listed([balaExpired, ashaPassed, ashaFirst]) });
    await open();
    expect(screen.getByRole('heading', { level: 1, name: texts.title })).toBeInTheDocument();
    expect(await screen.findByText(course.title)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe(`${texts.title}: ${course.title} · LMS`));

    const cards = within(await screen.findByRole('list', { name: texts.quizzesLabel })).getAllByRole('listitem', { name: /Means|Medians/ });
    expect(cards).toHaveLength(2);
    const [first, second] = cards as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('heading', { name: 'Means' })).toBeInTheDocument();
    expect(first).toHaveTextContent('4 questions');
    const figure = (label: string) => within(first).getByText(label).nextElementSibling;
    expect(figure(texts.attempts)).toHaveTextContent('3');
    expect(figure(texts.learners)).toHaveTextContent('2');
    expect(figure(texts.passRate)).toHaveTextContent('33.3%');
    expect(figure(texts.averageScore)).toHaveTextContent('41.7%');

    // Hardest first, each with its share of right answers as a meter and in words.
    const hardest = within(first).getAllByRole('meter');
    expect(hardest.map((meter) => meter.getAttribute('aria-valuenow'))).toEqual(['0', '25']);
    expect(hardest[0]).toHaveAccessibleName(texts.correctRateLabel('What is the mean of 2 and 4?'));
    expect(first).toHaveTextContent('0% right of 3');
    expect(first).toHaveTextContent('25% right of 4');

    expect(within(second).getByText(texts.noAttempts)).toBeInTheDocument();
    expect(within(second).queryByRole('meter')).not.toBeInTheDocument();
  });

  it('lists the attempts newest first with learner, quiz, version, score, result and date', async () => {
    stubApi({ ...courseKey, [resultsKey]: results([means]), [attemptsKey('page=1&limit=25')]: listed([balaExpired, ashaPassed, ashaFirst]) });
    await open();
    expect(await screen.findByText(texts.total(3))).toBeInTheDocument();
    const [bala_, ashaSecond, ashaOne] = (await rows()) as [HTMLElement, HTMLElement, HTMLElement];
    expect(bala_).toHaveTextContent('Bala Krishnan');
    expect(bala_).toHaveTextContent('bala@example.com');
    expect(bala_).toHaveTextContent(texts.timeUp);
    expect(bala_).toHaveTextContent(day(balaExpired.submittedAt!));
    expect(ashaSecond).toHaveTextContent('100%');
    expect(ashaSecond).toHaveTextContent(texts.passed);
    expect(ashaSecond).toHaveTextContent('Attempt 2');
    expect(ashaOne).toHaveTextContent('Means, first draft');
    expect(ashaOne).toHaveTextContent('v1');
    expect(ashaOne).toHaveTextContent(texts.failed_);
    // One page: no page buttons.
    expect(screen.queryByRole('navigation', { name: texts.pagination })).not.toBeInTheDocument();
  });

  it('narrows the list to a learner’s attempts when their name is clicked, and back to everyone', async () => {
    const calls = stubApi({
      ...courseKey,
      [resultsKey]: results([means]),
      [attemptsKey('page=1&limit=25')]: listed([balaExpired, ashaPassed, ashaFirst]),
      [attemptsKey(`page=1&limit=25&userId=${asha._id}`)]: listed([ashaPassed, ashaFirst]),
    });
    const { user, router } = await open();
    await table();
    // Her name on any of her rows.
    await user.click(screen.getAllByRole('button', { name: texts.showLearner('Asha Verma') })[1]!);

    expect(await screen.findByText(texts.filteredTo('Asha Verma'))).toBeInTheDocument();
    expect(await screen.findByText(texts.total(2))).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?id=${COURSE}&learner=${asha._id}`);
    expect(calls.map((call) => call.url)).toContain(`/api/v1/admin/courses/${COURSE}/quiz-attempts?page=1&limit=25&userId=${asha._id}`);
    expect(await rows()).toHaveLength(2);
    // Already one learner's: the names are no longer filters.
    expect(screen.queryByRole('button', { name: texts.showLearner('Asha Verma') })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: texts.showAll }));
    expect(await screen.findByText(texts.total(3))).toBeInTheDocument();
    expect(router.state.location.search).toBe(`?id=${COURSE}`);
    expect(screen.queryByText(texts.filteredTo('Asha Verma'))).not.toBeInTheDocument();
  });

  it('pages the attempts, keeping the page in the address', async () => {
    const many = Array.from({ length: 25 }, (_, i) => attempt(1, { _id: `70000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}` }));
    stubApi({
      ...courseKey,
      [resultsKey]: results([means]),
      [attemptsKey('page=1&limit=25')]: listed(many, 26),
      [attemptsKey('page=2&limit=25')]: listed([ashaFirst], 26),
    });
    const { user, router } = await open();
    const pager = await screen.findByRole('navigation', { name: texts.pagination });
    expect(pager).toHaveTextContent(paginationTexts.pageOf(1, 2));
    expect(within(pager).getByRole('button', { name: /Previous/ })).toBeDisabled();
    await user.click(within(pager).getByRole('button', { name: /Next/ }));
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${COURSE}&page=2`));
    await waitFor(async () => expect(await rows()).toHaveLength(1));
    expect(screen.getByRole('navigation', { name: texts.pagination })).toHaveTextContent(paginationTexts.pageOf(2, 2));
  });

  it('says “No attempts yet” when nobody has finished a quiz, and when the course has no quiz', async () => {
    stubApi({ ...courseKey, [resultsKey]: results([medians]), [attemptsKey('page=1&limit=25')]: listed([]) });
    const first = await open();
    expect(await screen.findByRole('heading', { name: texts.noAttempts })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    first.unmount();

    stubApi({ ...courseKey, [resultsKey]: results([]), [attemptsKey('page=1&limit=25')]: listed([]) });
    await open();
    expect(await screen.findByRole('heading', { name: texts.noQuizzes })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: texts.attemptsHeading })).not.toBeInTheDocument();
  });

  it('says so when the results cannot be loaded', async () => {
    stubApi({ ...courseKey, [resultsKey]: { status: 500, body: { success: false, message: 'Broken' } }, [attemptsKey('page=1&limit=25')]: listed([]) });
    await open();
    expect(await screen.findByText(texts.failed)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: texts.retry })).toBeInTheDocument();
  });
});
