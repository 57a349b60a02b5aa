import { QUIZ_LIMITS, QUESTION_TYPES, type QuestionType } from '@lms/contract/quizzes';
import { useId } from 'react';
import { blankAnswer, blankOption, type DraftQuestion, type Problem } from './quiz-draft';
import { quizEditorTexts as texts } from './quiz-editor-texts';

/** The message under a field, tied to it by `id` (aria-describedby). */
export function FieldProblem({ id, problem }: { id: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <p id={id} className="mt-1 text-sm font-medium text-error wrap-anywhere">
      {problem}
    </p>
  );
}

/**
 * One question of the quiz editor: its type, text, options (a radio marks the right one of a
 * single choice, checkboxes those of a multiple choice) or accepted answers, and explanation; with
 * Move up/down and Remove. Each control carries `data-focus` so the editor can return focus after a
 * move or to the field a check refused.
 */
export function QuestionEditor({
  question,
  index,
  count,
  problem,
  onChange,
  onStep,
  onRemove,
}: {
  question: DraftQuestion;
  index: number;
  count: number;
  /** The check's message, when it is about this question. */
  problem: Problem | null;
  onChange: (question: DraftQuestion) => void;
  onStep: (direction: 'up' | 'down') => void;
  onRemove: () => void;
}) {
  const id = useId();
  const number = index + 1;
  const part = problem?.at.startsWith(`question:${index}:`) ? problem.at.split(':')[2] : undefined;
  const problemOf = (name: string) => (part === name ? problem!.message : undefined);
  const invalid = (name: string) => (part === name ? { 'aria-invalid': true, 'aria-describedby': `${id}-${name}-problem` } : {});
  const set = (change: Partial<DraftQuestion>) => onChange({ ...question, ...change });
  const choice = question.type !== 'text';

  function markRight(key: string, checked: boolean) {
    set({
      options: question.options.map((option) =>
        question.type === 'single' ? { ...option, correct: option.key === key } : option.key === key ? { ...option, correct: checked } : option,
      ),
    });
  }

  return (
    <li className="rounded-box border border-base-content/15 bg-base-100" aria-labelledby={`${id}-heading`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-base-content/15 bg-base-200 px-3 py-2">
        <h3 id={`${id}-heading`} className="font-semibold" data-focus={`question:${question.key}:heading`} tabIndex={-1}>
          {texts.question(number)}
        </h3>
        <span className="badge badge-sm badge-ghost">{texts.types[question.type]}</span>
        <div className="ml-auto flex flex-wrap gap-1">
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            data-focus={`question:${question.key}:up`}
            disabled={index === 0}
            aria-label={texts.moveUpOf(number)}
            onClick={() => onStep('up')}
          >
            <Arrow up />
            {texts.moveUp}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            data-focus={`question:${question.key}:down`}
            disabled={index === count - 1}
            aria-label={texts.moveDownOf(number)}
            onClick={() => onStep('down')}
          >
            <Arrow />
            {texts.moveDown}
          </button>
          <button type="button" className="btn btn-ghost btn-xs" aria-label={texts.removeOf(number)} onClick={onRemove}>
            {texts.remove}
          </button>
        </div>
      </div>

      <div className="space-y-4 p-3 sm:p-4">
        <fieldset className="fieldset py-0">
          <legend className="fieldset-legend pt-0 text-sm">{texts.type}</legend>
          <div className="join w-full sm:w-auto">
            {QUESTION_TYPES.map((type: QuestionType) => (
              <label
                key={type}
                className={`btn join-item h-auto min-h-8 flex-1 px-2 py-1 btn-sm text-xs leading-tight has-focus-visible:outline-2 has-focus-visible:outline-offset-2 sm:flex-none sm:px-3 sm:text-sm ${question.type === type ? 'z-1 border-primary btn-soft btn-primary' : ''}`}
              >
                <input
                  type="radio"
                  className="sr-only"
                  name={`${id}-type`}
                  value={type}
                  checked={question.type === type}
                  onChange={() => set(switchedTo(question, type))}
                />
                {texts.types[type]}
              </label>
            ))}
          </div>
          <p className="label whitespace-normal">{texts.typeHints[question.type]}</p>
        </fieldset>

        <div className="fieldset py-0">
          <label htmlFor={`${id}-prompt`} className="fieldset-legend pt-0 text-sm">
            {texts.prompt}
          </label>
          <textarea
            id={`${id}-prompt`}
            className={`textarea min-h-20 w-full ${part === 'prompt' ? 'textarea-error' : ''}`}
            maxLength={QUIZ_LIMITS.promptMax}
            value={question.prompt}
            data-focus={`question:${index}:prompt`}
            onChange={(event) => set({ prompt: event.target.value })}
            {...invalid('prompt')}
          />
          <FieldProblem id={`${id}-prompt-problem`} problem={problemOf('prompt')} />
        </div>

        {choice ? (
          <fieldset className="fieldset py-0" aria-describedby={`${id}-options-hint${part === 'options' ? ` ${id}-options-problem` : ''}`}>
            <legend className="fieldset-legend pt-0 text-sm">{texts.options}</legend>
            <p id={`${id}-options-hint`} className="label -mt-1 mb-1 whitespace-normal">
              {question.type === 'single' ? texts.optionsHint : texts.optionsHintMultiple}
            </p>
            <ol className="space-y-2">
              {question.options.map((option, at) => (
                <li key={option.key} className="flex items-center gap-2">
                  <input
                    type={question.type === 'single' ? 'radio' : 'checkbox'}
                    className={question.type === 'single' ? 'radio radio-sm radio-primary' : 'checkbox checkbox-sm checkbox-primary'}
                    name={`${id}-right`}
                    checked={option.correct}
                    aria-label={texts.rightOption(at + 1)}
                    onChange={(event) => markRight(option.key, event.target.checked)}
                  />
                  <input
                    className={`input input-sm min-w-0 flex-1 ${part === 'options' ? 'input-error' : ''}`}
                    aria-label={texts.option(at + 1)}
                    placeholder={texts.option(at + 1)}
                    maxLength={QUIZ_LIMITS.optionMax}
                    value={option.text}
                    data-focus={at === 0 ? `question:${index}:options` : `question:${question.key}:option:${option.key}`}
                    onChange={(event) =>
                      set({ options: question.options.map((item) => (item.key === option.key ? { ...item, text: event.target.value } : item)) })
                    }
                    {...(part === 'options' && { 'aria-invalid': true })}
                  />
                  <button
                    type="button"
                    className="btn btn-square btn-ghost btn-sm"
                    aria-label={texts.removeOption(at + 1)}
                    disabled={question.options.length <= 2}
                    onClick={() => set({ options: question.options.filter((item) => item.key !== option.key) })}
                  >
                    <Cross />
                  </button>
                </li>
              ))}
            </ol>
            <FieldProblem id={`${id}-options-problem`} problem={problemOf('options')} />
            {question.options.length < QUIZ_LIMITS.options && (
              <button
                type="button"
                className="btn mt-1 justify-self-start btn-ghost btn-sm"
                onClick={() => set({ options: [...question.options, blankOption()] })}
              >
                <Plus />
                {texts.addOption}
              </button>
            )}
          </fieldset>
        ) : (
          <fieldset className="fieldset py-0" aria-describedby={`${id}-answers-hint${part === 'answers' ? ` ${id}-answers-problem` : ''}`}>
            <legend className="fieldset-legend pt-0 text-sm">{texts.accepted}</legend>
            <p id={`${id}-answers-hint`} className="label -mt-1 mb-1 whitespace-normal">
              {texts.acceptedHint}
            </p>
            <ol className="space-y-2">
              {question.answers.map((answer, at) => (
                <li key={answer.key} className="flex items-center gap-2">
                  <input
                    className={`input input-sm min-w-0 flex-1 ${part === 'answers' ? 'input-error' : ''}`}
                    aria-label={texts.acceptedAnswer(at + 1)}
                    placeholder={texts.acceptedAnswer(at + 1)}
                    maxLength={QUIZ_LIMITS.answerMax}
                    value={answer.text}
                    data-focus={at === 0 ? `question:${index}:answers` : undefined}
                    onChange={(event) =>
                      set({ answers: question.answers.map((item) => (item.key === answer.key ? { ...item, text: event.target.value } : item)) })
                    }
                    {...(part === 'answers' && { 'aria-invalid': true })}
                  />
                  <button
                    type="button"
                    className="btn btn-square btn-ghost btn-sm"
                    aria-label={texts.removeAccepted(at + 1)}
                    disabled={question.answers.length <= 1}
                    onClick={() => set({ answers: question.answers.filter((item) => item.key !== answer.key) })}
                  >
                    <Cross />
                  </button>
                </li>
              ))}
            </ol>
            <FieldProblem id={`${id}-answers-problem`} problem={problemOf('answers')} />
            {question.answers.length < QUIZ_LIMITS.acceptedAnswers && (
              <button
                type="button"
                className="btn mt-1 justify-self-start btn-ghost btn-sm"
                onClick={() => set({ answers: [...question.answers, blankAnswer()] })}
              >
                <Plus />
                {texts.addAccepted}
              </button>
            )}
          </fieldset>
        )}

        <div className="fieldset py-0">
          <label htmlFor={`${id}-explanation`} className="fieldset-legend pt-0 text-sm">
            {texts.explanation}
          </label>
          <textarea
            id={`${id}-explanation`}
            className={`textarea min-h-16 w-full ${part === 'explanation' ? 'textarea-error' : ''}`}
            maxLength={QUIZ_LIMITS.explanationMax}
            value={question.explanation}
            data-focus={`question:${index}:explanation`}
            aria-describedby={`${id}-explanation-hint${part === 'explanation' ? ` ${id}-explanation-problem` : ''}`}
            onChange={(event) => set({ explanation: event.target.value })}
            {...(part === 'explanation' && { 'aria-invalid': true })}
          />
          <p id={`${id}-explanation-hint`} className="label whitespace-normal">
            {texts.explanationHint}
          </p>
          <FieldProblem id={`${id}-explanation-problem`} problem={problemOf('explanation')} />
        </div>
      </div>
    </li>
  );
}

/** A question of another type: a single choice keeps only the first of several right options, so it starts valid. */
function switchedTo(question: DraftQuestion, type: QuestionType): DraftQuestion {
  if (type !== 'single') return { ...question, type };
  const first = question.options.findIndex((option) => option.correct);
  return { ...question, type, options: question.options.map((option, at) => ({ ...option, correct: at === first })) };
}

function Arrow({ up = false }: { up?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true" className={up ? 'rotate-180' : ''}>
      <path d="M12 5v14M6 13l6 6 6-6" />
    </svg>
  );
}

function Cross() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <path d="M6 6l12 12M18 6L6 18" />
    </svg>
  );
}

function Plus() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" aria-hidden="true">
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}
