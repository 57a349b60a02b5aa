import type { AuthoredQuiz, NewQuiz, QuestionType, QuizInput, QuizLayout, QuizPlacement } from '@lms/contract/quizzes';
import { NewQuizSchema, QuizInputSchema } from '@lms/contract/quizzes';
import { pagePaths } from '@lms/contract/pages';

/**
 * The quiz as the editor holds it while it is written: numbers as typed, every question keeping
 * both its options and its accepted answers (switching the type back loses nothing), and the ids
 * the server gave questions and options, sent back so a version keeps each question's identity.
 * `key` is the editor's own, for React and focus; new items have no `id`.
 */
export interface DraftOption {
  key: string;
  id?: string;
  text: string;
  correct: boolean;
}
export interface DraftAnswer {
  key: string;
  text: string;
}
export interface DraftQuestion {
  key: string;
  id?: string;
  type: QuestionType;
  prompt: string;
  options: DraftOption[];
  answers: DraftAnswer[];
  explanation: string;
}
export interface QuizDraft {
  title: string;
  passMark: string;
  attemptsLimited: boolean;
  attempts: string;
  timeLimited: boolean;
  minutes: string;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  layout: QuizLayout;
  questions: DraftQuestion[];
}

let counter = 0;
export const newKey = () => `k${++counter}`;

export const blankOption = (): DraftOption => ({ key: newKey(), text: '', correct: false });
export const blankAnswer = (): DraftAnswer => ({ key: newKey(), text: '' });
export const blankQuestion = (type: QuestionType): DraftQuestion => ({
  key: newKey(),
  type,
  prompt: '',
  options: [blankOption(), blankOption()],
  answers: [blankAnswer()],
  explanation: '',
});

export const blankDraft = (): QuizDraft => ({
  title: '',
  passMark: '70',
  attemptsLimited: false,
  attempts: '3',
  timeLimited: false,
  minutes: '10',
  shuffleQuestions: false,
  shuffleOptions: false,
  layout: 'one',
  questions: [blankQuestion('single')],
});

export function draftOf(quiz: AuthoredQuiz): QuizDraft {
  return {
    title: quiz.title,
    passMark: String(quiz.passMark),
    attemptsLimited: quiz.attemptsAllowed !== null,
    attempts: String(quiz.attemptsAllowed ?? 3),
    timeLimited: quiz.timeLimitMinutes !== null,
    minutes: String(quiz.timeLimitMinutes ?? 10),
    shuffleQuestions: quiz.shuffleQuestions,
    shuffleOptions: quiz.shuffleOptions,
    layout: quiz.layout,
    questions: quiz.questions.map((question) =>
      question.type === 'text'
        ? {
            key: newKey(),
            id: question.id,
            type: 'text',
            prompt: question.prompt,
            options: [blankOption(), blankOption()],
            answers: question.answers.map((text) => ({ key: newKey(), text })),
            explanation: question.explanation,
          }
        : {
            key: newKey(),
            id: question.id,
            type: question.type,
            prompt: question.prompt,
            options: question.options.map((option) => ({ key: newKey(), id: option.id, text: option.text, correct: option.correct })),
            answers: [blankAnswer()],
            explanation: question.explanation,
          },
    ),
  };
}

/** A typed number, or NaN for nothing (which the contract refuses with the field's own message). */
const numberOf = (typed: string) => (typed.trim() === '' ? Number.NaN : Number(typed));

/** The quiz as the server takes it: only what the question's type uses, ids where the server gave them. */
export function inputOf(draft: QuizDraft): QuizInput {
  return {
    title: draft.title,
    passMark: numberOf(draft.passMark),
    attemptsAllowed: draft.attemptsLimited ? numberOf(draft.attempts) : null,
    timeLimitMinutes: draft.timeLimited ? numberOf(draft.minutes) : null,
    shuffleQuestions: draft.shuffleQuestions,
    shuffleOptions: draft.shuffleOptions,
    layout: draft.layout,
    questions: draft.questions.map(({ id, type, prompt, options, answers, explanation }) =>
      type === 'text'
        ? { ...(id && { id }), type, prompt, answers: answers.map((answer) => answer.text), explanation }
        : {
            ...(id && { id }),
            type,
            prompt,
            options: options.map((option) => ({ ...(option.id && { id: option.id }), text: option.text, correct: option.correct })),
            explanation,
          },
    ),
  };
}

/**
 * Where a refusal of the contract shows: a setting, the list of questions, or one part of a
 * question (its text, options, accepted answers, explanation). The editor gives the field the
 * message and the focus.
 */
export type ProblemAt =
  'title' | 'passMark' | 'attempts' | 'minutes' | 'questions' | 'place' | `question:${number}:${'prompt' | 'options' | 'answers' | 'explanation'}`;
export interface Problem {
  at: ProblemAt;
  message: string;
}

function problemAt(path: readonly PropertyKey[]): ProblemAt {
  const [first, index, part] = path;
  if (first === 'title') return 'title';
  if (first === 'passMark') return 'passMark';
  if (first === 'attemptsAllowed') return 'attempts';
  if (first === 'timeLimitMinutes') return 'minutes';
  if (first === 'sectionId' || first === 'afterLectureId') return 'place';
  if (first !== 'questions' || typeof index !== 'number') return 'questions';
  // A question's own check (how many options are right) has no part: it is about its options.
  const where = part === 'prompt' || part === 'answers' || part === 'explanation' ? part : 'options';
  return `question:${index}:${where}`;
}

/** The first thing the contract refuses in `body` (the same schema the server checks with), or null. */
export function firstProblem(body: QuizInput | NewQuiz, isNew: boolean): Problem | null {
  const result = (isNew ? NewQuizSchema : QuizInputSchema).safeParse(body);
  if (result.success) return null;
  const issue = result.error.issues[0]!;
  return { at: problemAt(issue.path), message: issue.message };
}

/** A quiz's place as the editor's "Place" select names it. */
export const placeValue = (place: QuizPlacement) =>
  place.afterLectureId ? `after:${place.afterLectureId}` : place.sectionId ? `section:${place.sectionId}` : 'end';

/** The place a value of the "Place" select stands for; `sectionOf` gives a lecture's section. */
export function placeOf(value: string, sectionOf: (lectureId: string) => string | null): QuizPlacement {
  const [kind, id = ''] = value.split(':');
  if (kind === 'after') return { sectionId: sectionOf(id), afterLectureId: id };
  if (kind === 'section') return { sectionId: id, afterLectureId: null };
  return { sectionId: null, afterLectureId: null };
}

/**
 * The quiz editor's address: a quiz of the course, or a new one at a place (after a lecture, at the
 * end of a section; neither: at the course's end).
 */
export function editQuizLink(courseId: string, target: { quizId: string } | { sectionId?: string; afterLectureId?: string } = {}) {
  const search = new URLSearchParams({ id: courseId });
  if ('quizId' in target) search.set('quiz', target.quizId);
  else {
    if (target.sectionId) search.set('section', target.sectionId);
    if (target.afterLectureId) search.set('after', target.afterLectureId);
  }
  return { pathname: pagePaths.editQuiz, search: `?${search.toString()}` };
}
