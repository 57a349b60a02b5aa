import { act, screen, waitFor, within } from '@testing-library/react';
import { answers } from '@lms/contract/answers';
import type { Course } from '@lms/contract/courses';
import type { Lecture, Section } from '@lms/contract/lectures';
import type { AuthoredQuiz, QuizSummary } from '@lms/contract/quizzes';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../../test/render';
import { CurriculumEditor } from '../../authoring/CurriculumEditor';
import { EditorLectureTools } from '../../authoring/EditorLectureTools';
import { firstProblem, inputOf, blankDraft, blankQuestion } from './quiz-draft';
import QuizEditorPage from './QuizEditorPage';
import { quizEditorTexts as texts } from './quiz-editor-texts';

const ID = '00000000-0000-4000-8000-000000000042';
const QUIZ = '40000000-0000-4000-8000-000000000001';
const course: Course = {
  _id: ID,
  title: 'Bookkeeping basics',
  description: 'Ledgers and invoices.',
  category: 'Business',
  createdBy: 'Asha Verma',
  thumbnail: { secure_url: '/media/thumbnails/b.webp' },
  numbersOfLectures: 3,
  totalDuration: null,
  state: 'draft',
  publishAt: null,
};
const basics: Section = { _id: '30000000-0000-4000-8000-000000000001', title: 'Basics' };
const advanced: Section = { _id: '30000000-0000-4000-8000-000000000002', title: 'Advanced' };
const lecture = (n: number, sectionId: string | null): Lecture => ({
  _id: `10000000-0000-4000-8000-00000000000${n}`,
  sectionId,
  title: `Lesson ${n}`,
  description: `Part ${n}`,
  secure_url: `/media/private/${n}.mp4?sig=x`,
  duration: null,
  preview: false,
  processing: { state: 'ready', percent: null, reason: null },
  poster_url: null,
  hls_url: null,
  replacement: null,
});
const lectures = [lecture(1, basics._id), lecture(2, basics._id), lecture(3, advanced._id)];
const summary = (n: number, place: Pick<QuizSummary, 'sectionId' | 'afterLectureId'>): QuizSummary => ({
  _id: `40000000-0000-4000-8000-00000000000${n}`,
  title: `Quiz ${n}`,
  questionCount: n + 1,
  passMark: 70,
  timeLimitMinutes: null,
  ...place,
});

const COURSE = `GET /api/v1/courses?id=${ID}`;
const LECTURES = `GET /api/v1/courses/${ID}`;
const AUTHORED = `GET /api/v1/courses/${ID}/quizzes/${QUIZ}`;
const CREATE = `POST /api/v1/courses/${ID}/quizzes`;
const UPDATE = `PUT /api/v1/courses/${ID}/quizzes/${QUIZ}`;
const DELETE = `DELETE /api/v1/courses/${ID}/quizzes/${QUIZ}`;
const baseAnswers = (quizzes: QuizSummary[] = []) => ({
  [COURSE]: { body: { success: true, message: 'ok', courses: [course], total: 1, page: 1, limit: 50 } },
  [LECTURES]: { body: { success: true, message: 'ok', course, sections: [basics, advanced], lectures, quizzes } },
});

const Q1 = '50000000-0000-4000-8000-000000000001';
const O1 = '60000000-0000-4000-8000-000000000001';
const O2 = '60000000-0000-4000-8000-000000000002';
const Q2 = '50000000-0000-4000-8000-000000000002';
const authored = (overrides: Partial<AuthoredQuiz> = {}): AuthoredQuiz => ({
  _id: QUIZ,
  courseId: ID,
  sectionId: basics._id,
  afterLectureId: null,
  title: 'Ledgers check',
  passMark: 60,
  attemptsAllowed: 2,
  timeLimitMinutes: null,
  shuffleQuestions: false,
  shuffleOptions: true,
  layout: 'all',
  version: 3,
  attempts: 5,
  updatedAt: '2026-11-01T10:00:00.000Z',
  questions: [
    {
      id: Q1,
      type: 'single',
      prompt: 'Debits go on the…',
      options: [
        { id: O1, text: 'Left', correct: true },
        { id: O2, text: 'Right', correct: false },
      ],
      explanation: 'Debit left, credit right.',
    },
    { id: Q2, type: 'text', prompt: 'How many sides has a ledger?', answers: ['2', 'two'], explanation: '' },
  ],
  ...overrides,
});
const bodyOf = (calls: { url: string; init: RequestInit }[], key: string) =>
  calls.filter((call) => `${call.init.method ?? 'GET'} ${call.url}` === key).map((call) => JSON.parse(String(call.init.body)));

async function openEditor(search: string) {
  storeLogin(sampleUser({ role: 'ADMIN' }));
  const view = renderPage(<QuizEditorPage />, { path: '/course/quiz/edit' });
  await act(() => view.router.navigate(`/course/quiz/edit?${search}`));
  return view;
}

afterEach(() => {
  toast.remove();
  vi.restoreAllMocks();
});

describe('the quiz editor', () => {
  it('builds a quiz of each type and sends it, placed after the lecture the address names, then opens it for editing', async () => {
    const calls = stubApi({
      ...baseAnswers(),
      [CREATE]: (init) => ({
        status: 201,
        body: { success: true, message: answers.quizAdded, quiz: authored({ ...JSON.parse(String(init.body)), version: 1, attempts: 0 }) },
      }),
      [AUTHORED]: { body: { success: true, message: answers.quizFetched, quiz: authored() } },
    });
    const { user, router } = await openEditor(`id=${ID}&after=${lectures[1]!._id}`);
    expect(await screen.findByRole('heading', { level: 1, name: texts.newTitle })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(texts.place)).toHaveValue(`after:${lectures[1]!._id}`));

    await user.type(screen.getByLabelText(texts.title), 'Ledgers check');
    await user.clear(screen.getByLabelText(texts.passMark));
    await user.type(screen.getByLabelText(texts.passMark), '80');
    const attempts = screen.getByRole('group', { name: texts.attempts });
    await user.click(within(attempts).getByLabelText(texts.limitedTo));
    await user.clear(screen.getByLabelText(texts.attemptsCount));
    await user.type(screen.getByLabelText(texts.attemptsCount), '2');
    await user.click(within(screen.getByRole('group', { name: texts.timeLimit })).getByLabelText(texts.minutesLimit));
    await user.clear(screen.getByLabelText(texts.minutes));
    await user.type(screen.getByLabelText(texts.minutes), '15');
    await user.click(screen.getByLabelText(texts.shuffleOptions));
    await user.click(screen.getByLabelText(texts.layoutAll));

    // Question 1 (there from the start): single choice, the second option right.
    const first = () => screen.getAllByRole('listitem').find((item) => within(item).queryByRole('heading', { name: texts.question(1) }))!;
    await user.type(within(first()).getByLabelText(texts.prompt), 'Debits go on the…');
    await user.type(within(first()).getByLabelText(texts.option(1)), 'Right');
    await user.type(within(first()).getByLabelText(texts.option(2)), 'Left');
    await user.click(within(first()).getByLabelText(texts.rightOption(2)));
    await user.type(within(first()).getByLabelText(texts.explanation), 'Debit left.');

    // Question 2: multiple choice, with a third option, two right.
    await user.click(screen.getByRole('button', { name: texts.types.multiple }));
    const second = () => screen.getAllByRole('listitem').find((item) => within(item).queryByRole('heading', { name: texts.question(2) }))!;
    expect(within(second()).getByLabelText(texts.prompt)).toHaveFocus();
    await user.keyboard('Which are assets?');
    await user.click(within(second()).getByRole('button', { name: texts.addOption }));
    await user.type(within(second()).getByLabelText(texts.option(1)), 'Cash');
    await user.type(within(second()).getByLabelText(texts.option(2)), 'Loans');
    await user.type(within(second()).getByLabelText(texts.option(3)), 'Stock');
    await user.click(within(second()).getByLabelText(texts.rightOption(1)));
    await user.click(within(second()).getByLabelText(texts.rightOption(3)));

    // Question 3: a short answer with two accepted forms.
    await user.click(screen.getByRole('button', { name: texts.types.text }));
    const third = () => screen.getAllByRole('listitem').find((item) => within(item).queryByRole('heading', { name: texts.question(3) }))!;
    await user.keyboard('How many sides?');
    expect(within(third()).getByText(texts.acceptedHint)).toBeInTheDocument();
    await user.type(within(third()).getByLabelText(texts.acceptedAnswer(1)), '2');
    await user.click(within(third()).getByRole('button', { name: texts.addAccepted }));
    await user.type(within(third()).getByLabelText(texts.acceptedAnswer(2)), 'two');

    await user.click(screen.getByRole('button', { name: texts.create }));
    await waitFor(() => expect(bodyOf(calls, CREATE)).toHaveLength(1));
    expect(bodyOf(calls, CREATE)[0]).toEqual({
      title: 'Ledgers check',
      passMark: 80,
      attemptsAllowed: 2,
      timeLimitMinutes: 15,
      shuffleQuestions: false,
      shuffleOptions: true,
      layout: 'all',
      sectionId: basics._id,
      afterLectureId: lectures[1]!._id,
      questions: [
        {
          type: 'single',
          prompt: 'Debits go on the…',
          options: [
            { text: 'Right', correct: false },
            { text: 'Left', correct: true },
          ],
          explanation: 'Debit left.',
        },
        {
          type: 'multiple',
          prompt: 'Which are assets?',
          options: [
            { text: 'Cash', correct: true },
            { text: 'Loans', correct: false },
            { text: 'Stock', correct: true },
          ],
          explanation: '',
        },
        { type: 'text', prompt: 'How many sides?', answers: ['2', 'two'], explanation: '' },
      ],
    });
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${ID}&quiz=${QUIZ}`));
    expect(await screen.findByText(answers.quizAdded)).toBeInTheDocument();
  });

  it('says the first problem at its field, with the contract’s words, and sends nothing', async () => {
    const calls = stubApi(baseAnswers());
    const { user } = await openEditor(`id=${ID}`);
    await user.type(await screen.findByLabelText(texts.title), 'Check');
    const question = screen.getAllByRole('listitem').find((item) => within(item).queryByRole('heading', { name: texts.question(1) }))!;
    await user.type(within(question).getByLabelText(texts.prompt), 'Pick one');
    await user.type(within(question).getByLabelText(texts.option(1)), 'A');
    await user.type(within(question).getByLabelText(texts.option(2)), 'B');
    await user.click(screen.getByRole('button', { name: texts.create }));
    // A single choice with no right option: said under its options, and at the save bar.
    expect(within(question).getByText(answers.quizSingleNeedsOne)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(answers.quizSingleNeedsOne);
    expect(within(question).getByLabelText(texts.option(1))).toHaveFocus();
    expect(bodyOf(calls, CREATE)).toHaveLength(0);

    await user.clear(screen.getByLabelText(texts.title));
    await user.click(within(question).getByLabelText(texts.rightOption(1)));
    await user.click(screen.getByRole('button', { name: texts.create }));
    expect(screen.getByLabelText(texts.title)).toHaveAccessibleDescription(answers.quizTitleInvalid);
    expect(screen.getByLabelText(texts.title)).toHaveFocus();
  });

  it('refuses a single choice with two right options, as the server would', () => {
    const question = blankQuestion('single');
    question.prompt = 'Pick one';
    question.options = question.options.map((option, at) => ({ ...option, text: `Option ${at}`, correct: true }));
    const problem = firstProblem({ ...inputOf({ ...blankDraft(), title: 'Check', questions: [question] }), sectionId: null, afterLectureId: null }, true);
    expect(problem).toEqual({ at: 'question:0:options', message: answers.quizSingleNeedsOne });
  });

  it('edits a quiz keeping the ids the server gave, says the version and the attempts, and tells when nothing changed', async () => {
    let saved = authored();
    const calls = stubApi({
      ...baseAnswers(),
      [AUTHORED]: () => ({ body: { success: true, message: answers.quizFetched, quiz: saved } }),
      [UPDATE]: (init) => {
        const body = JSON.parse(String(init.body));
        const changed = body.questions.length !== saved.questions.length;
        if (changed)
          saved = authored({
            version: 4,
            questions: [
              ...saved.questions,
              { id: '50000000-0000-4000-8000-000000000003', type: 'single', prompt: body.questions[2].prompt, options: [], explanation: '' },
            ],
          });
        return { body: { success: true, message: changed ? answers.quizSaved : answers.quizUnchanged, quiz: saved } };
      },
    });
    const { user } = await openEditor(`id=${ID}&quiz=${QUIZ}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ledgers check' })).toBeInTheDocument();
    expect(screen.getByText(texts.version(3))).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(texts.attemptsNotice(5, 3));
    expect(screen.getByLabelText(texts.place)).toHaveValue(`section:${basics._id}`);

    // Saved as it is: nothing changed, said in place.
    await user.click(screen.getByRole('button', { name: texts.save }));
    expect(await screen.findByText(answers.quizUnchanged)).toBeInTheDocument();
    expect(bodyOf(calls, UPDATE)[0]).toEqual({
      title: 'Ledgers check',
      passMark: 60,
      attemptsAllowed: 2,
      timeLimitMinutes: null,
      shuffleQuestions: false,
      shuffleOptions: true,
      layout: 'all',
      questions: [
        {
          id: Q1,
          type: 'single',
          prompt: 'Debits go on the…',
          options: [
            { id: O1, text: 'Left', correct: true },
            { id: O2, text: 'Right', correct: false },
          ],
          explanation: 'Debit left, credit right.',
        },
        { id: Q2, type: 'text', prompt: 'How many sides has a ledger?', answers: ['2', 'two'], explanation: '' },
      ],
    });

    // Moved by keyboard: the short answer goes first, focus stays on its button; a new question has no id.
    screen.getByRole('button', { name: texts.moveUpOf(2) }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: texts.moveDownOf(1) })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: texts.types.single }));
    await user.keyboard('New one');
    const third = screen.getAllByRole('listitem').find((item) => within(item).queryByRole('heading', { name: texts.question(3) }))!;
    await user.type(within(third).getByLabelText(texts.option(1)), 'Yes');
    await user.type(within(third).getByLabelText(texts.option(2)), 'No');
    await user.click(within(third).getByLabelText(texts.rightOption(1)));
    await user.click(screen.getByRole('button', { name: texts.save }));
    await waitFor(() => expect(bodyOf(calls, UPDATE)).toHaveLength(2));
    const sent = bodyOf(calls, UPDATE)[1].questions;
    expect(sent.map((question: { id?: string }) => question.id)).toEqual([Q2, Q1, undefined]);
    expect(sent[1].options.map((option: { id?: string }) => option.id)).toEqual([O1, O2]);
    expect(await screen.findByText(answers.quizSaved)).toBeInTheDocument();
    expect(screen.queryByText(answers.quizUnchanged)).not.toBeInTheDocument();
  });

  it('deletes the quiz after a confirmation that says its attempts go too, then goes back to the course editor', async () => {
    const calls = stubApi({
      ...baseAnswers(),
      [AUTHORED]: { body: { success: true, message: answers.quizFetched, quiz: authored() } },
      [DELETE]: { body: { success: true, message: answers.quizDeleted } },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { user, router } = await openEditor(`id=${ID}&quiz=${QUIZ}`);
    await user.click(await screen.findByRole('button', { name: texts.deleteQuiz }));
    expect(confirm).toHaveBeenLastCalledWith(texts.confirmDelete('Ledgers check', 5));
    expect(texts.confirmDelete('Ledgers check', 5)).toMatch(/5 attempts go with it/);
    expect(calls.filter((call) => call.init.method === 'DELETE')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: texts.deleteQuiz }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/course/edit'));
    expect(router.state.location.search).toBe(`?id=${ID}`);
    expect(calls.filter((call) => call.init.method === 'DELETE')).toHaveLength(1);
  });
});

describe('the curriculum editor’s quizzes', () => {
  it('shows each quiz at its place, with Edit and Delete, and links each Add quiz to the editor with the place', async () => {
    const quizzes = [
      summary(1, { sectionId: basics._id, afterLectureId: lectures[0]!._id }),
      summary(2, { sectionId: basics._id, afterLectureId: null }),
      summary(3, { sectionId: null, afterLectureId: null }),
    ];
    stubApi(baseAnswers(quizzes));
    renderPage(<CurriculumEditor courseId={ID} renderLectureActions={(item) => <EditorLectureTools courseId={ID} lecture={item} />} />);
    await screen.findByRole('heading', { name: 'Basics' });
    const rows = (name: string) =>
      within(screen.getByRole('region', { name }))
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label') ?? /Lesson \d/.exec(item.textContent ?? '')?.[0]);
    expect(rows('Basics')).toEqual(['Lesson 1', texts.quizRowOf('Quiz 1'), 'Lesson 2', texts.quizRowOf('Quiz 2')]);
    // The course's end is the last section's.
    expect(rows('Advanced')).toEqual(['Lesson 3', texts.quizRowOf('Quiz 3')]);
    const quiz1 = screen.getByRole('listitem', { name: texts.quizRowOf('Quiz 1') });
    expect(within(quiz1).getByText(/2 questions/)).toBeInTheDocument();
    expect(within(quiz1).getByRole('link', { name: texts.editOf('Quiz 1') })).toHaveAttribute('href', `/course/quiz/edit?id=${ID}&quiz=${quizzes[0]!._id}`);
    expect(within(quiz1).getByRole('button', { name: texts.deleteOf('Quiz 1') })).toBeInTheDocument();

    expect(screen.getByRole('link', { name: texts.addQuizAfterOf('Lesson 2') })).toHaveAttribute(
      'href',
      `/course/quiz/edit?id=${ID}&after=${lectures[1]!._id}`,
    );
    expect(screen.getByRole('link', { name: texts.addQuizToSectionOf('Advanced') })).toHaveAttribute(
      'href',
      `/course/quiz/edit?id=${ID}&section=${advanced._id}`,
    );
    expect(screen.getByRole('link', { name: texts.addQuizAtEnd })).toHaveAttribute('href', `/course/quiz/edit?id=${ID}`);
  });

  it('deletes a quiz from its row after asking', async () => {
    const calls = stubApi({
      ...baseAnswers([summary(1, { sectionId: basics._id, afterLectureId: null })]),
      [`DELETE /api/v1/courses/${ID}/quizzes/40000000-0000-4000-8000-000000000001`]: { body: { success: true, message: answers.quizDeleted } },
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const { user } = renderPage(<CurriculumEditor courseId={ID} />);
    await user.click(await screen.findByRole('button', { name: texts.deleteOf('Quiz 1') }));
    expect(window.confirm).toHaveBeenCalledWith(texts.confirmDeleteRow('Quiz 1'));
    await waitFor(() => expect(calls.filter((call) => call.init.method === 'DELETE')).toHaveLength(1));
  });
});
