import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import { curriculumItems, type AttemptResult, type LearnerQuiz, type OpenAttempt, type Answer } from '@lms/contract/quizzes';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '../../../lib/format';
import { courseLink, paths } from '../../../lib/paths';
import { isServerError, messageOf } from '../../../lib/server-state';
import { usePageTitle } from '../../../lib/use-page-title';
import { withNext } from '../../../lib/with-next';
import { useAuth } from '../../auth';
import { useCourse } from '../../courses';
import { useGetLecturesQuery } from '../../lectures';
import { checkoutPath } from '../../payments';
import { quizLink } from './quiz-link';
import { forgetAttempt, loadAttempt } from './attempt-storage';
import { AttemptResultView } from './AttemptResultView';
import { AttemptView } from './AttemptView';
import { useGetLearnerQuizQuery, useStartAttemptMutation, useSubmitAttemptMutation } from './quiz-take.api';
import { quizTakeTexts as texts } from './quiz-take-texts';

/**
 * A quiz of a course (`?id=` the course, `&quiz=` the quiz), for a learner who may watch the
 * course's lectures: its rules and their attempts, then the attempt (one question a screen or all
 * on one page, against the clock when it has a limit), then the graded result and a retry while
 * attempts remain. The server grades and keeps time; the page only says what it answered.
 */
export default function QuizPage() {
  const course = useCourse();
  const [search] = useSearchParams();
  const quizId = search.get('quiz') ?? '';
  const isLoggedIn = useAuth((auth) => auth.isLoggedIn);
  const here = `${paths.quiz}?id=${search.get('id') ?? ''}&quiz=${quizId}`;

  if (!isLoggedIn)
    return (
      <Shell>
        <div role="alert" className="alert alert-warning flex flex-col items-start gap-3 sm:flex-row sm:items-center">
          <span>{answers.subscribeToTakeQuizzes}</span>
          <Link to={withNext(paths.login, here)} className="btn btn-primary btn-sm">
            Login
          </Link>
        </div>
      </Shell>
    );
  if (!course || !quizId)
    return (
      <Shell>
        <p className="p-8 text-center" aria-live="polite">
          {texts.loading}
        </p>
      </Shell>
    );
  // A quiz of its own state: another quiz (the next item) starts at its intro.
  return <Quiz key={quizId} courseId={course._id} courseTitle={course.title} quizId={quizId} here={here} />;
}

function Shell({ children }: { children: React.ReactNode }) {
  return <section className="mx-auto max-w-3xl px-4 py-8">{children}</section>;
}

type Phase =
  { kind: 'intro' } | { kind: 'taking'; attempt: OpenAttempt; offset: number } | { kind: 'result'; result: AttemptResult; attemptsLeft: number | null };

function Quiz({ courseId, courseTitle, quizId, here }: { courseId: string; courseTitle: string; quizId: string; here: string }) {
  const role = useAuth((auth) => auth.role);
  const answer = useGetLearnerQuizQuery(quizId);
  const curriculum = useGetLecturesQuery(courseId);
  const [start, starting] = useStartAttemptMutation();
  const [submitAttempt, submitting] = useSubmitAttemptMutation();
  const [phase, setPhase] = useState<Phase>({ kind: 'intro' });
  /** What the server said of the last start or submit that did not go through (time up, already graded, no attempts left). */
  const [notice, setNotice] = useState<string | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  /** The page's top: a new attempt and a result begin there, wherever the last screen was scrolled to. */
  const top = useRef<HTMLElement>(null);
  const quiz = answer.currentData?.quiz;
  usePageTitle(quiz ? texts.pageTitle(quiz.title) : undefined);

  const items = curriculum.currentData ? curriculumItems(curriculum.currentData.sections, curriculum.currentData.lectures, curriculum.currentData.quizzes) : [];
  const place = items.findIndex((item) => item.kind === 'quiz' && item.quiz._id === quizId);
  const following = place >= 0 ? items[place + 1] : undefined;
  const backToCourse = courseLink(paths.courseLecture, { _id: courseId });

  async function begin() {
    setNotice(null);
    try {
      const { attempt, message } = await start(quizId).unwrap();
      const kept = loadAttempt(attempt._id).offset;
      // A new attempt's start is the server's now; an attempt resumed keeps the offset measured at its start (else the local clock).
      const offset = kept ?? (message === answers.attemptStarted ? Date.now() - Date.parse(attempt.startedAt) : 0);
      setPhase({ kind: 'taking', attempt, offset });
      top.current?.scrollIntoView?.({ block: 'start' });
    } catch (error) {
      setNotice(messageOf(isServerError(error) ? error : undefined, texts.startFailed));
      void answer.refetch();
    }
  }

  async function submit(attempt: OpenAttempt, given: Answer[]) {
    setSubmitError(null);
    try {
      const graded = await submitAttempt({ courseId, quizId, attemptId: attempt._id, answers: given }).unwrap();
      forgetAttempt(attempt._id);
      setPhase({ kind: 'result', result: graded.attempt, attemptsLeft: graded.attemptsLeft });
      top.current?.scrollIntoView?.({ block: 'start' });
    } catch (error) {
      const refusal = isServerError(error) ? error : undefined;
      if (refusal?.status === 409) {
        // Time up, or graded already (another tab): the attempt is over; the quiz's state is fetched again.
        forgetAttempt(attempt._id);
        setNotice(refusal.message);
        setPhase({ kind: 'intro' });
        void answer.refetch();
      } else setSubmitError(messageOf(refusal, texts.submitFailed));
    }
  }

  const heading = (
    <header ref={top} className="mb-6 scroll-mt-20 space-y-1">
      <Link to={backToCourse} className="link text-sm text-base-content/70 link-hover wrap-anywhere">
        <span aria-hidden="true">← </span>
        {courseTitle}
      </Link>
      <h1 className="text-2xl font-bold wrap-anywhere sm:text-3xl">
        <span className="sr-only">{texts.quiz}: </span>
        {quiz?.title ?? texts.quiz}
      </h1>
    </header>
  );

  if (answer.isError && !quiz) {
    const refusal = answer.error as { status?: number; message?: string } | undefined;
    return (
      <Shell>
        {heading}
        <div role="alert" className="alert alert-warning flex flex-col items-start gap-3 sm:flex-row sm:items-center">
          <span className="wrap-anywhere">{messageOf(refusal, texts.loadFailed)}</span>
          {refusal?.status === 403 && role !== 'ADMIN' ? (
            <Link to={checkoutPath({ from: here })} className="btn btn-primary btn-sm">
              {messages.subscribe}
            </Link>
          ) : refusal?.status === 404 ? (
            <Link to={backToCourse} className="btn btn-sm">
              {texts.backToCourse}
            </Link>
          ) : (
            <button type="button" className="btn btn-sm" onClick={() => void answer.refetch()}>
              {texts.tryAgain}
            </button>
          )}
        </div>
      </Shell>
    );
  }
  if (!quiz)
    return (
      <Shell>
        {heading}
        <div aria-hidden="true" className="space-y-3">
          <div className="skeleton h-6 w-2/3" />
          <div className="skeleton h-24 w-full" />
          <div className="skeleton h-12 w-40" />
        </div>
        <p className="sr-only" aria-live="polite">
          {texts.loading}
        </p>
      </Shell>
    );

  const nextLink =
    following?.kind === 'lecture'
      ? { to: courseLink(paths.courseLecture, { _id: courseId }, following.lecture._id), title: following.lecture.title }
      : following?.kind === 'quiz'
        ? { to: quizLink(courseId, following.quiz._id), title: following.quiz.title }
        : null;

  return (
    <Shell>
      {heading}
      {phase.kind === 'taking' ? (
        <>
          {submitError && (
            <p role="alert" className="alert alert-error mb-4">
              {submitError}
            </p>
          )}
          <AttemptView attempt={phase.attempt} offset={phase.offset} busy={submitting.isLoading} onSubmit={(given) => void submit(phase.attempt, given)} />
        </>
      ) : phase.kind === 'result' ? (
        <AttemptResultView
          result={phase.result}
          actions={
            <>
              {phase.attemptsLeft !== 0 && (
                <button type="button" className="btn btn-primary" disabled={starting.isLoading} onClick={() => void begin()}>
                  {texts.retry}
                </button>
              )}
              {nextLink && (phase.result.passed || phase.attemptsLeft === 0) ? (
                <Link to={nextLink.to} className={`btn ${phase.attemptsLeft === 0 || phase.result.passed ? 'btn-primary' : 'btn-ghost'} wrap-anywhere`}>
                  {texts.nextItem(nextLink.title)}
                </Link>
              ) : null}
              <Link to={backToCourse} className="btn btn-ghost">
                {texts.backToCourse}
              </Link>
            </>
          }
        />
      ) : (
        <QuizIntro
          quiz={quiz}
          notice={notice}
          busy={starting.isLoading}
          onStart={() => void begin()}
          backToCourse={
            <Link to={backToCourse} className="btn btn-ghost">
              {texts.backToCourse}
            </Link>
          }
        />
      )}
    </Shell>
  );
}

/** Before an attempt: the rules, the learner's attempts so far, and the one way on. */
function QuizIntro({
  quiz,
  notice,
  busy,
  onStart,
  backToCourse,
}: {
  quiz: LearnerQuiz;
  notice: string | null;
  busy: boolean;
  onStart: () => void;
  backToCourse: React.ReactNode;
}) {
  const action = quiz.openAttempt ? texts.carryOn : quiz.attempts.length > 0 ? texts.retry : texts.start;
  const canStart = quiz.openAttempt !== null || quiz.attemptsLeft !== 0;
  const facts = [
    texts.questionCount(quiz.questionCount),
    texts.passMark(quiz.passMark),
    texts.attemptsLeft(quiz.attemptsLeft),
    texts.timeLimit(quiz.timeLimitMinutes),
  ];
  return (
    <div className="space-y-6">
      {notice && (
        <p role="alert" className="alert alert-warning">
          {notice}
        </p>
      )}
      <div className="rounded-box border border-base-content/15 bg-base-100 p-5 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          {quiz.passed && <span className="badge badge-success">{texts.passedBadge}</span>}
          {quiz.bestScore !== null && <span className="text-sm text-base-content/80 tabular-nums">{texts.bestScore(quiz.bestScore)}</span>}
        </div>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {facts.map((fact) => (
            <li key={fact} className="flex items-center gap-2 text-base-content/90">
              <span className="size-1.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />
              {fact}
            </li>
          ))}
        </ul>
        <div className="mt-6 flex flex-wrap items-center gap-3">
          {canStart ? (
            <button type="button" className="btn btn-primary btn-lg" disabled={busy} onClick={onStart}>
              {busy ? texts.starting : action}
            </button>
          ) : (
            <p className="text-base-content/80">{texts.noAttemptsLeft}</p>
          )}
          {backToCourse}
        </div>
      </div>

      {quiz.attempts.length > 0 && (
        <section aria-labelledby="past-attempts">
          <h2 id="past-attempts" className="mb-2 text-lg font-semibold">
            {texts.pastAttempts}
          </h2>
          <ul className="divide-y divide-base-content/10 rounded-box border border-base-content/15">
            {quiz.attempts.map((attempt) => (
              <li key={attempt._id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
                <span className="font-medium">{texts.attemptRow(attempt.number)}</span>
                <span className="tabular-nums">{texts.score(attempt.score)}</span>
                <span className={`badge badge-sm ${attempt.passed ? 'badge-success' : 'badge-ghost'}`}>
                  {attempt.passed ? texts.passed : attempt.state === 'expired' ? texts.expired : texts.failed}
                </span>
                <span className="ml-auto text-sm text-base-content/70">{formatDate(attempt.submittedAt ?? attempt.startedAt)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
