import type { Answer, LearnerQuestion, OpenAttempt } from '@lms/contract/quizzes';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { clockDuration } from '../../../lib/format';
import { isAnswered, loadAttempt, saveAttempt, submissionOf, type Draft } from './attempt-storage';
import { quizTakeTexts as texts } from './quiz-take-texts';

/** The server's time now, by the offset measured when the attempt began (local minus server). */
const serverNow = (offset: number) => Date.now() - offset;

/** Seconds left until `endsAt` on the server's clock, ticking each second; null without a limit. */
function useSecondsLeft(endsAt: string | null, offset: number): number | null {
  const left = useCallback(() => (endsAt === null ? null : Math.max(0, Math.ceil((Date.parse(endsAt) - serverNow(offset)) / 1000))), [endsAt, offset]);
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (endsAt === null) return;
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
  }, [endsAt, left]);
  return seconds;
}

/**
 * An attempt under way: one question a screen (with the keyboard: ← → between questions, 1–9
 * choose, Enter goes on) or every question on one page, the share answered, and the time left
 * when there is a limit; at 0 what is answered is submitted. The answers live in the tab's
 * session storage as they are given: a reload carries on where the learner was.
 */
export function AttemptView({
  attempt,
  offset,
  busy,
  onSubmit,
}: {
  attempt: OpenAttempt;
  /** The local clock minus the server's, in milliseconds. */
  offset: number;
  busy: boolean;
  onSubmit: (answers: Answer[]) => void;
}) {
  const questions = attempt.questions;
  const oneByOne = attempt.layout === 'one';
  const [draft, setDraft] = useState<Draft>(() => loadAttempt(attempt._id).draft);
  const [at, setAt] = useState(() => Math.min(loadAttempt(attempt._id).at, Math.max(questions.length - 1, 0)));
  const [confirming, setConfirming] = useState(false);
  const secondsLeft = useSecondsLeft(attempt.endsAt, offset);
  const timeUp = secondsLeft === 0;
  const autoSubmitted = useRef(false);

  useEffect(() => saveAttempt(attempt._id, { draft, offset, at }), [attempt._id, draft, offset, at]);

  const answered = questions.filter((question) => isAnswered(draft, question.id)).length;
  const unanswered = questions.length - answered;
  const submit = useCallback(() => {
    setConfirming(false);
    onSubmit(submissionOf(questions, draft));
  }, [onSubmit, questions, draft]);
  const askToSubmit = useCallback(() => {
    if (unanswered > 0) setConfirming(true);
    else submit();
  }, [unanswered, submit]);

  // The server stops taking answers at endsAt (with a short grace for the network): what is answered goes now.
  useEffect(() => {
    if (!timeUp || autoSubmitted.current) return;
    autoSubmitted.current = true;
    submit();
  }, [timeUp, submit]);

  const choose = useCallback(
    (question: LearnerQuestion, optionId: string) =>
      setDraft((before) => {
        if (question.type === 'single') return { ...before, [question.id]: { optionIds: [optionId] } };
        const chosen = (before[question.id] as { optionIds: string[] } | undefined)?.optionIds ?? [];
        const optionIds = chosen.includes(optionId) ? chosen.filter((id) => id !== optionId) : [...chosen, optionId];
        return { ...before, [question.id]: { optionIds } };
      }),
    [],
  );
  const type = (question: LearnerQuestion, text: string) => setDraft((before) => ({ ...before, [question.id]: { text } }));

  const last = questions.length - 1;
  const goTo = useCallback((index: number) => setAt(Math.min(Math.max(index, 0), last)), [last]);
  const current = questions[at];
  const disabled = busy || timeUp;

  // The keyboard, one question a screen. In the short answer's field only Enter is ours (the arrows and digits type).
  useEffect(() => {
    if (!oneByOne) return;
    function onKey(event: KeyboardEvent) {
      if (event.altKey || event.ctrlKey || event.metaKey || disabled || confirming || !current) return;
      const target = event.target as HTMLElement | null;
      const typing = target?.tagName === 'TEXTAREA' || (target?.tagName === 'INPUT' && (target as HTMLInputElement).type === 'text');
      if (event.key === 'Enter') {
        // A focused button or link does its own thing on Enter.
        if (target?.tagName === 'BUTTON' || target?.tagName === 'A') return;
        event.preventDefault();
        if (at < last) goTo(at + 1);
        else askToSubmit();
        return;
      }
      if (typing) return;
      if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
        event.preventDefault();
        goTo(at + (event.key === 'ArrowRight' ? 1 : -1));
      } else if (/^[1-9]$/.test(event.key)) {
        const option = current.options[Number(event.key) - 1];
        if (option) {
          event.preventDefault();
          choose(current, option.id);
        }
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [oneByOne, disabled, confirming, current, at, last, goTo, askToSubmit, choose]);

  const submitArea = confirming ? (
    <ConfirmSubmit unanswered={unanswered} onSubmit={submit} onCancel={() => setConfirming(false)} />
  ) : (
    <button type="button" className="btn btn-primary" disabled={disabled} onClick={askToSubmit}>
      {busy ? texts.submitting : texts.submit}
    </button>
  );

  return (
    <div className="space-y-6">
      <div className="sticky top-0 z-10 -mx-4 space-y-2 bg-base-100/95 px-4 py-3 backdrop-blur">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="font-medium tabular-nums" aria-live="polite">
            {oneByOne ? texts.questionOf(at + 1, questions.length) : texts.answeredOf(answered, questions.length)}
          </p>
          {secondsLeft !== null && <Countdown seconds={secondsLeft} />}
        </div>
        {oneByOne ? (
          <progress
            className="progress progress-primary h-2 w-full"
            value={at + 1}
            max={questions.length}
            aria-label={texts.questionOf(at + 1, questions.length)}
          />
        ) : (
          <progress
            className="progress progress-primary h-2 w-full"
            value={answered}
            max={questions.length}
            aria-label={texts.answeredOf(answered, questions.length)}
          />
        )}
        {oneByOne && <p className="hidden text-xs text-base-content/70 sm:block">{texts.keyboardHint}</p>}
      </div>

      {timeUp && (
        <p role="status" className="alert alert-warning">
          {texts.timeUpSubmitting}
        </p>
      )}

      {oneByOne ? (
        current && (
          <>
            <QuestionCard
              key={current.id}
              question={current}
              number={at + 1}
              draft={draft}
              disabled={disabled}
              onChoose={choose}
              onType={type}
              numbered
              autoFocus
            />
            <div className="flex flex-wrap items-center justify-between gap-3">
              <button type="button" className="btn btn-ghost" disabled={at === 0 || disabled} onClick={() => goTo(at - 1)}>
                <span aria-hidden="true">←</span> {texts.previous}
              </button>
              {at < last ? (
                <button type="button" className="btn btn-primary" disabled={disabled} onClick={() => goTo(at + 1)}>
                  {texts.next} <span aria-hidden="true">→</span>
                </button>
              ) : (
                submitArea
              )}
            </div>
            {at < last && confirming && submitArea}
          </>
        )
      ) : (
        <>
          <ol className="space-y-6">
            {questions.map((question, index) => (
              <li key={question.id}>
                <QuestionCard question={question} number={index + 1} draft={draft} disabled={disabled} onChoose={choose} onType={type} />
              </li>
            ))}
          </ol>
          <div className="flex justify-end">{submitArea}</div>
        </>
      )}
    </div>
  );
}

/** The time left, calm until the last minute. */
function Countdown({ seconds }: { seconds: number }) {
  const clock = clockDuration(seconds);
  return (
    <p
      role="timer"
      aria-label={texts.timeLeftSpoken(clock)}
      className={`flex items-center gap-2 tabular-nums ${seconds <= 60 ? 'font-semibold text-error' : 'text-base-content/80'}`}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <circle cx="12" cy="13" r="8" />
        <path d="M12 9v4l2 2M9 2h6" strokeLinecap="round" />
      </svg>
      <span className="sr-only">{texts.timeLeft}: </span>
      {clock}
    </p>
  );
}

/** Submitting with questions left blank: asked once, in place. */
function ConfirmSubmit({ unanswered, onSubmit, onCancel }: { unanswered: number; onSubmit: () => void; onCancel: () => void }) {
  const confirm = useRef<HTMLButtonElement>(null);
  const textId = useId();
  useEffect(() => confirm.current?.focus(), []);
  return (
    <div
      role="alertdialog"
      aria-describedby={textId}
      className="flex w-full flex-col gap-3 rounded-box border border-warning/60 bg-base-200 p-4 sm:flex-row sm:items-center"
    >
      <p id={textId} className="flex-1">
        {texts.unansweredConfirm(unanswered)}
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          {texts.keepAnswering}
        </button>
        <button ref={confirm} type="button" className="btn btn-primary" onClick={onSubmit}>
          {texts.submitAnyway}
        </button>
      </div>
    </div>
  );
}

/** One question: its prompt and its options as large targets (radios or checkboxes), or a field for a short answer. */
function QuestionCard({
  question,
  number,
  draft,
  disabled,
  onChoose,
  onType,
  numbered = false,
  autoFocus = false,
}: {
  question: LearnerQuestion;
  number: number;
  draft: Draft;
  disabled: boolean;
  onChoose: (question: LearnerQuestion, optionId: string) => void;
  onType: (question: LearnerQuestion, text: string) => void;
  /** Show each option's key (1–9). */
  numbered?: boolean;
  autoFocus?: boolean;
}) {
  const fieldId = useId();
  const hintId = useId();
  const answer = draft[question.id];
  const chosen = answer && 'optionIds' in answer ? answer.optionIds : [];
  const heading = useRef<HTMLFieldSetElement>(null);
  // A new screen's question takes the focus, so a screen reader reads it and Tab starts at its options.
  useEffect(() => {
    if (autoFocus) heading.current?.focus({ preventScroll: true });
  }, [autoFocus]);
  const prompt = (
    <>
      <span className="mr-2 text-base-content/60 tabular-nums">{number}.</span>
      <span className="whitespace-pre-line">{question.prompt}</span>
    </>
  );
  return (
    <fieldset
      ref={heading}
      tabIndex={autoFocus ? -1 : undefined}
      aria-describedby={question.type === 'text' ? undefined : hintId}
      className="min-w-0 rounded-box border border-base-content/15 bg-base-100 p-4 sm:p-6"
      // Focused only to be read out when its screen comes, not to be acted on: no ring (the site's ring rule is unlayered, above any class).
      style={{ outline: 'none' }}
    >
      {question.type === 'text' ? (
        <>
          <label htmlFor={fieldId} className="block text-lg font-semibold wrap-anywhere">
            {prompt}
          </label>
          <input
            id={fieldId}
            type="text"
            className="input mt-4 w-full text-base"
            placeholder={texts.yourAnswer}
            maxLength={200}
            autoComplete="off"
            disabled={disabled}
            value={answer && 'text' in answer ? answer.text : ''}
            onChange={(event) => onType(question, event.target.value)}
          />
        </>
      ) : (
        <>
          <legend className="float-left w-full text-lg font-semibold wrap-anywhere">{prompt}</legend>
          <p id={hintId} className="clear-both pt-1 text-sm text-base-content/70">
            {question.type === 'multiple' ? texts.selectAll : texts.chooseOne}
          </p>
          <div className="mt-4 space-y-2">
            {question.options.map((option, index) => {
              const checked = chosen.includes(option.id);
              return (
                <label
                  key={option.id}
                  className={`flex min-h-12 cursor-pointer items-center gap-3 rounded-field border px-4 py-3 transition-colors has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-primary ${checked ? 'border-primary bg-primary/10' : 'border-base-content/20 hover:bg-base-200'}`}
                >
                  <input
                    type={question.type === 'single' ? 'radio' : 'checkbox'}
                    name={question.id}
                    className={question.type === 'single' ? 'radio radio-primary' : 'checkbox checkbox-primary'}
                    // The whole option shows the focus ring (its label), not the small control in it.
                    style={{ outline: 'none' }}
                    checked={checked}
                    disabled={disabled}
                    onChange={() => onChoose(question, option.id)}
                  />
                  <span className="min-w-0 flex-1 wrap-anywhere">{option.text}</span>
                  {numbered && index < 9 && (
                    <kbd className="kbd kbd-sm hidden shrink-0 sm:inline-flex" aria-hidden="true">
                      {index + 1}
                    </kbd>
                  )}
                </label>
              );
            })}
          </div>
        </>
      )}
    </fieldset>
  );
}
