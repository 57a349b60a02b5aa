import type { AttemptResult } from '@lms/contract/quizzes';
import type { ReactNode } from 'react';
import { quizTakeTexts as texts } from './quiz-take-texts';

/**
 * A graded attempt: the score against the pass mark, then each question right or wrong with what
 * the learner answered and its explanation. Never which option was right: a retry must be earned.
 */
export function AttemptResultView({ result, actions }: { result: AttemptResult; actions: ReactNode }) {
  return (
    <div className="space-y-6">
      <section
        aria-labelledby="quiz-result"
        className={`rounded-box border p-5 sm:p-6 ${result.passed ? 'border-success/60' : 'border-base-content/15'} bg-base-100`}
      >
        <h2 id="quiz-result" className="text-sm font-medium tracking-wide text-base-content/70 uppercase">
          {texts.resultTitle}
        </h2>
        <p className="mt-2 text-3xl font-bold tabular-nums">{texts.resultScore(result.score, result.correctCount, result.questionCount)}</p>
        <p className="mt-2 flex items-center gap-2 font-medium">
          <Mark right={result.passed} />
          {result.passed ? texts.resultPassed(result.passMark) : texts.resultFailed(result.passMark)}
        </p>
        <progress
          className={`progress mt-4 h-2 w-full ${result.passed ? 'progress-success' : 'progress-primary'}`}
          value={result.score}
          max={100}
          aria-hidden="true"
        />
        <div className="mt-5 flex flex-wrap gap-3">{actions}</div>
      </section>

      <ol className="space-y-4">
        {result.questions.map((question, index) => {
          const chosen = question.options.filter((option) => question.chosenOptionIds.includes(option.id)).map((option) => option.text);
          const given = question.type === 'text' ? (question.text ?? '') : chosen.join(', ');
          return (
            <li key={question.id} className="rounded-box border border-base-content/15 bg-base-100 p-4 sm:p-5">
              <div className="flex items-start gap-3">
                <Mark right={question.correct} />
                <div className="min-w-0 flex-1 space-y-2">
                  <p className="font-semibold whitespace-pre-line wrap-anywhere">
                    <span className="mr-2 text-base-content/60 tabular-nums">{index + 1}.</span>
                    {question.prompt}
                  </p>
                  <p className="text-sm">
                    <span className={`font-medium ${question.correct ? 'text-success' : 'text-error'}`}>{question.correct ? texts.right : texts.wrong}</span>
                    <span aria-hidden="true"> · </span>
                    <span className="text-base-content/70">{texts.yourAnswer}: </span>
                    <span className="wrap-anywhere">{given.trim() === '' ? <em>{texts.noAnswer}</em> : given}</span>
                  </p>
                  {question.explanation && (
                    <div className="rounded-field bg-base-200 p-3 text-sm">
                      <p className="font-medium">{texts.explanation}</p>
                      <p className="mt-1 whitespace-pre-line wrap-anywhere">{question.explanation}</p>
                    </div>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** A check or a cross in a coloured disc; the words beside it say the same. */
function Mark({ right }: { right: boolean }) {
  return (
    <span
      className={`inline-flex size-6 shrink-0 items-center justify-center rounded-full ${right ? 'bg-success text-success-content' : 'bg-error text-error-content'}`}
      aria-hidden="true"
    >
      <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="3.5">
        {right ? <path d="M5 12l5 5L20 7" /> : <path d="M6 6l12 12M18 6L6 18" />}
      </svg>
    </span>
  );
}
