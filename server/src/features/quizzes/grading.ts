import { randomInt } from 'node:crypto';
import { answers } from '@lms/contract/answers';
import { answerMatches, type Answer, type AuthoredQuestion, type LearnerQuestion } from '@lms/contract/quizzes';
import { AppError } from '../../errors.ts';

/** The order an attempt shows its questions in, and each question's options in (ids). */
export type QuestionOrder = { questionId: string; optionIds: string[] }[];

/** Fisher–Yates with the system's randomness: a learner cannot predict the next attempt's order. */
export function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const optionsOf = (question: AuthoredQuestion) => (question.type === 'text' ? [] : question.options);

/** A new attempt's order: the version's, or shuffled as its settings say. */
export function makeQuestionOrder(
  questions: readonly AuthoredQuestion[],
  { shuffleQuestions, shuffleOptions }: { shuffleQuestions: boolean; shuffleOptions: boolean },
): QuestionOrder {
  const order = questions.map((question) => {
    const optionIds = optionsOf(question).map((option) => option.id);
    return { questionId: question.id, optionIds: shuffleOptions ? shuffled(optionIds) : optionIds };
  });
  return shuffleQuestions ? shuffled(order) : order;
}

/**
 * The questions as the learner gets them, in the attempt's order: prompt, type and the options'
 * texts, built field by field so nothing of the authored question (which options are right, the
 * accepted answers, the explanation) can ride along.
 */
export function learnerQuestions(questions: readonly AuthoredQuestion[], order: QuestionOrder): LearnerQuestion[] {
  const byId = new Map(questions.map((question) => [question.id, question]));
  return order.flatMap(({ questionId, optionIds }) => {
    const question = byId.get(questionId);
    if (!question) return [];
    const options = new Map(optionsOf(question).map((option) => [option.id, option.text]));
    return [
      {
        id: question.id,
        type: question.type,
        prompt: question.prompt,
        options: optionIds.filter((id) => options.has(id)).map((id) => ({ id, text: options.get(id)! })),
      },
    ];
  });
}

/**
 * Refuses a submission that does not fit the attempt (400): an answer to a question it does not
 * hold, a question answered twice, an option of another question, several options for a
 * single-choice question, options for a short answer or text for a choice.
 */
export function validateSubmission(questions: readonly AuthoredQuestion[], order: QuestionOrder, submitted: readonly Answer[]): void {
  const inAttempt = new Set(order.map((item) => item.questionId));
  const byId = new Map(questions.map((question) => [question.id, question]));
  const seen = new Set<string>();
  for (const answer of submitted) {
    const question = byId.get(answer.questionId);
    if (!question || !inAttempt.has(answer.questionId)) throw new AppError(400, answers.answerNotInAttempt);
    if (seen.has(answer.questionId)) throw new AppError(400, answers.answerRepeated);
    seen.add(answer.questionId);
    if (question.type === 'text') {
      if (answer.optionIds !== undefined && answer.optionIds.length > 0) throw new AppError(400, answers.answerWrongKind);
      continue;
    }
    if (answer.text !== undefined) throw new AppError(400, answers.answerWrongKind);
    const optionIds = new Set(question.options.map((option) => option.id));
    const chosen = answer.optionIds ?? [];
    if (chosen.some((id) => !optionIds.has(id))) throw new AppError(400, answers.answerOptionNotInQuestion);
    if (question.type === 'single' && new Set(chosen).size > 1) throw new AppError(400, answers.answerOneOption);
  }
}

/** Whether one answer is right; no answer is wrong. Multiple choice: the set chosen is the right set exactly. */
export function isRight(question: AuthoredQuestion, answer: Answer | undefined): boolean {
  if (!answer) return false;
  if (question.type === 'text') return answerMatches(answer.text ?? '', question.answers);
  const chosen = new Set(answer.optionIds ?? []);
  const right = new Set(question.options.filter((option) => option.correct).map((option) => option.id));
  if (question.type === 'single') return chosen.size === 1 && right.has([...chosen][0]!);
  return chosen.size === right.size && [...chosen].every((id) => right.has(id));
}

export interface Grade {
  /** By question id, for every question of the attempt. */
  correct: Record<string, boolean>;
  correctCount: number;
  /** Percent, rounded down. */
  score: number;
  passed: boolean;
}

/** Grades a validated submission against the version the attempt started on. */
export function grade(questions: readonly AuthoredQuestion[], order: QuestionOrder, submitted: readonly Answer[], passMark: number): Grade {
  const byId = new Map(questions.map((question) => [question.id, question]));
  const answerOf = new Map(submitted.map((answer) => [answer.questionId, answer]));
  const correct: Record<string, boolean> = {};
  for (const { questionId } of order) {
    const question = byId.get(questionId);
    if (question) correct[questionId] = isRight(question, answerOf.get(questionId));
  }
  const total = Object.keys(correct).length;
  const correctCount = Object.values(correct).filter(Boolean).length;
  const score = total === 0 ? 0 : Math.floor((100 * correctCount) / total);
  return { correct, correctCount, score, passed: score >= passMark };
}

/**
 * A finished attempt's questions for its learner: each one's view, right or wrong, what they
 * answered and the explanation. Never which options were right nor the accepted answers, so a
 * retry is not a copy of the last result.
 */
export function resultQuestions(
  questions: readonly AuthoredQuestion[],
  order: QuestionOrder,
  submitted: readonly Answer[] | null,
  correct: Record<string, boolean> | null,
) {
  const byId = new Map(questions.map((question) => [question.id, question]));
  const answerOf = new Map((submitted ?? []).map((answer) => [answer.questionId, answer]));
  return learnerQuestions(questions, order).map((view) => {
    const answer = answerOf.get(view.id);
    return {
      ...view,
      correct: correct?.[view.id] ?? false,
      chosenOptionIds: answer?.optionIds ?? [],
      text: answer?.text ?? null,
      explanation: byId.get(view.id)!.explanation,
    };
  });
}
