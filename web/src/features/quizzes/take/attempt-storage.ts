import type { Answer, LearnerQuestion } from '@lms/contract/quizzes';

/** A learner's answers while they take an attempt: the options chosen, or the text typed, by question id. */
export type Draft = Record<string, { optionIds: string[] } | { text: string }>;

/**
 * An attempt's draft and clock offset, kept in the tab's session storage: a reload (or a lost
 * connection) does not lose what was answered, and the countdown keeps the server's time. Per
 * attempt, so a retry starts blank; gone with the tab.
 */
const key = (attemptId: string) => `quiz-attempt:${attemptId}`;

interface Saved {
  draft: Draft;
  /** The local clock minus the server's, in milliseconds, as measured when the attempt began. */
  offset: number | null;
  /** The question on show (one per screen). */
  at: number;
}

export function loadAttempt(attemptId: string): Saved {
  try {
    const saved = JSON.parse(sessionStorage.getItem(key(attemptId)) ?? 'null') as Partial<Saved> | null;
    return { draft: saved?.draft ?? {}, offset: typeof saved?.offset === 'number' ? saved.offset : null, at: typeof saved?.at === 'number' ? saved.at : 0 };
  } catch {
    return { draft: {}, offset: null, at: 0 };
  }
}

export function saveAttempt(attemptId: string, saved: Saved) {
  try {
    sessionStorage.setItem(key(attemptId), JSON.stringify(saved));
  } catch {
    // A full or refused storage only loses the reload's safety net.
  }
}

export const forgetAttempt = (attemptId: string) => {
  try {
    sessionStorage.removeItem(key(attemptId));
  } catch {
    // Nothing kept.
  }
};

/** Whether a question has an answer in the draft (a blank text is none). */
export function isAnswered(draft: Draft, questionId: string): boolean {
  const answer = draft[questionId];
  if (!answer) return false;
  return 'text' in answer ? answer.text.trim() !== '' : answer.optionIds.length > 0;
}

/** The draft as the server takes it: the questions answered, in the attempt's order. */
export function submissionOf(questions: readonly LearnerQuestion[], draft: Draft): Answer[] {
  return questions
    .filter((question) => isAnswered(draft, question.id))
    .map((question) => {
      const answer = draft[question.id]!;
      return 'text' in answer ? { questionId: question.id, text: answer.text.trim() } : { questionId: question.id, optionIds: answer.optionIds };
    });
}
