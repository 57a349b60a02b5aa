import type { AdminAttempt, QuizResults } from '@lms/contract/quizzes';
import { useEffect, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '../../../lib/format';
import { courseLink, paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { useGetCourseQuery } from '../../courses';
import { ATTEMPTS_PAGE_SIZE, useGetQuizAttemptsQuery, useGetQuizResultsQuery } from './quiz-results.api';
import { quizResultsTexts as texts } from './quiz-results-texts';
import { Pagination } from '../../../lib/components/Pagination';
import { AdminPageHeader } from '../../../lib/components/AdminPageHeader';

/** A page number from the address: a whole number from 1, else the first page. */
function pageOf(text: string | null): number {
  const page = Number(text);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * Admin only (the router guards it): a course's quizzes (`?id=`), each with its attempts, learners,
 * pass rate, average score and hardest questions; below, the finished attempts newest first, a page
 * at a time. A learner's name narrows the list to their attempts (`&learner=`), kept in the address
 * with the page so that a reload or a link shows the same list.
 */
export default function QuizResultsPage() {
  const [params, setParams] = useSearchParams();
  const courseId = params.get('id') ?? '';
  const learner = params.get('learner') ?? undefined;
  const page = pageOf(params.get('page'));
  const course = useGetCourseQuery(courseId, { skip: !courseId });
  const results = useGetQuizResultsQuery(courseId, { skip: !courseId });
  const attempts = useGetQuizAttemptsQuery({ courseId, page, userId: learner }, { skip: !courseId });
  const courseTitle = course.currentData?.title;
  usePageTitle(courseTitle ? `${texts.title}: ${courseTitle}` : texts.title);

  function go(next: { learner?: string; page?: number }, replace = false) {
    const search = new URLSearchParams({ id: courseId });
    if (next.learner) search.set('learner', next.learner);
    if (next.page && next.page > 1) search.set('page', String(next.page));
    setParams(search, { replace });
  }

  const answer = attempts.currentData;
  const pages = Math.max(1, Math.ceil((answer?.total ?? 0) / ATTEMPTS_PAGE_SIZE));
  // A page past the last (an old link): the last page instead.
  const pastTheEnd = answer !== undefined && answer.attempts.length === 0 && page > pages;
  useEffect(() => {
    if (pastTheEnd) go({ learner, page: pages }, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pastTheEnd]);

  if (!courseId) {
    return (
      <p className="p-8 text-center">
        <Link className="link link-primary" to={paths.dashboard}>
          {texts.noCourse}
        </Link>
      </p>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader
        title={texts.title}
        via={[{ to: courseLink(paths.editCourse, { _id: courseId }), label: texts.editor }]}
        subtitle={courseTitle ? <p className="mt-1 text-lg font-medium wrap-anywhere">{courseTitle}</p> : <div className="skeleton mt-2 h-6 w-64" />}
        intro={texts.intro}
      />

      {results.currentData ? (
        results.currentData.quizzes.length === 0 ? (
          <EmptyState title={texts.noQuizzes} hint={texts.noQuizzesHint} />
        ) : (
          <ul aria-label={texts.quizzesLabel} className="grid grid-cols-1 gap-4 lg:grid-cols-2">
            {results.currentData.quizzes.map((quiz) => (
              <QuizCard key={quiz.quizId} quiz={quiz} />
            ))}
          </ul>
        )
      ) : (
        <Pending failed={results.isError && !results.isFetching} message={texts.failed} onRetry={() => void results.refetch()} />
      )}

      {results.currentData && results.currentData.quizzes.length > 0 && (
        <section aria-labelledby="quiz-attempts-heading" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <h2 id="quiz-attempts-heading" className="text-xl font-semibold">
              {texts.attemptsHeading}
            </h2>
            <p className="text-sm text-base-content/80 tabular-nums" aria-live="polite">
              {answer ? texts.total(answer.total) : ''}
            </p>
          </div>
          {learner && <LearnerFilter name={answer?.attempts[0]?.learner.fullName} onClear={() => go({})} />}
          {answer ? (
            answer.total === 0 ? (
              <EmptyState title={learner ? texts.noLearnerAttempts : texts.noAttempts} hint={learner ? undefined : texts.noAttemptsHint} />
            ) : (
              <>
                <AttemptsTable attempts={answer.attempts} filtered={learner !== undefined} onLearner={(id) => go({ learner: id })} />
                {pages > 1 && <Pagination label={texts.pagination} page={page} pages={pages} onPage={(next) => go({ learner, page: next })} />}
              </>
            )
          ) : (
            <Pending failed={attempts.isError && !attempts.isFetching} message={texts.attemptsFailed} onRetry={() => void attempts.refetch()} />
          )}
        </section>
      )}
    </div>
  );
}

function QuizCard({ quiz }: { quiz: QuizResults }) {
  const headingId = `quiz-${quiz.quizId}`;
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-5 shadow-sm">
      <div className="flex items-start justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold wrap-anywhere">
          {quiz.title}
        </h2>
        <span className="badge shrink-0 badge-ghost whitespace-nowrap">{texts.questions(quiz.questionCount)}</span>
      </div>
      {quiz.attempts === 0 ? (
        <div className="rounded-box bg-base-200 px-4 py-5 text-center">
          <p className="font-medium">{texts.noAttempts}</p>
          <p className="text-sm text-base-content/70">{texts.noAttemptsHint}</p>
        </div>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Figure label={texts.attempts} value={quiz.attempts.toLocaleString('en-IN')} />
            <Figure label={texts.learners} value={quiz.learners.toLocaleString('en-IN')} />
            <Figure label={texts.passRate} value={percentOrNone(quiz.passRate)} bar={quiz.passRate} />
            <Figure label={texts.averageScore} value={percentOrNone(quiz.averageScore)} bar={quiz.averageScore} />
          </dl>
          <div className="flex flex-col gap-2">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3">
              <h3 className="font-semibold">{texts.hardest}</h3>
              <span className="text-xs text-base-content/70">{texts.hardestHint}</span>
            </div>
            {quiz.hardestQuestions.length === 0 ? (
              <p className="text-sm text-base-content/70">{texts.noHardest}</p>
            ) : (
              <ol className="flex flex-col gap-3">
                {quiz.hardestQuestions.map((question) => (
                  <li key={question.questionId} className="flex flex-col gap-1">
                    <span className="line-clamp-2 text-sm wrap-anywhere" title={question.prompt}>
                      {question.prompt}
                    </span>
                    <span className="flex items-center gap-3">
                      <Bar value={question.correctRate} label={texts.correctRateLabel(question.prompt)} />
                      <span className="shrink-0 text-xs text-base-content/80 tabular-nums">{texts.correctRate(question.correctRate, question.answered)}</span>
                    </span>
                  </li>
                ))}
              </ol>
            )}
          </div>
        </>
      )}
    </li>
  );
}

const percentOrNone = (value: number | null) => (value === null ? texts.none : texts.percent(value));

/** One figure of a quiz: its value large, a bar under a percent (read at a glance across the cards). */
function Figure({ label, value, bar }: { label: string; value: string; bar?: number | null }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-box bg-base-200 px-3 py-2">
      <dt className="text-xs text-base-content/70">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
      {bar !== undefined && bar !== null && <Bar value={bar} />}
    </div>
  );
}

/** A horizontal bar of a percent, in the theme's primary colour; a meter to assistive technology when it has a label. */
function Bar({ value, label }: { value: number; label?: string }) {
  const width = `${Math.max(0, Math.min(100, value))}%`;
  const a11y = label
    ? { role: 'meter', 'aria-label': label, 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': value, 'aria-valuetext': texts.percent(value) }
    : { 'aria-hidden': true };
  return (
    <span className="block h-2 w-full min-w-12 overflow-hidden rounded-full bg-base-300" {...a11y}>
      <span className="block h-full rounded-full bg-primary" style={{ width }} />
    </span>
  );
}

function LearnerFilter({ name, onClear }: { name: string | undefined; onClear: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-box border border-base-300 bg-base-200 px-4 py-2">
      <p className="font-medium wrap-anywhere">{name ? texts.filteredTo(name) : texts.filteredToUnknown}</p>
      <button type="button" className="btn btn-outline btn-sm" onClick={onClear}>
        <span aria-hidden="true">‹</span>
        {texts.showAll}
      </button>
    </div>
  );
}

function AttemptsTable({ attempts, filtered, onLearner }: { attempts: AdminAttempt[]; filtered: boolean; onLearner: (id: string) => void }) {
  return (
    <div className="overflow-x-auto rounded-box border border-base-300 bg-base-100">
      <table className="table table-sm sm:table-md" aria-label={texts.attemptsLabel}>
        <thead>
          <tr>
            <th scope="col">{texts.learner}</th>
            <th scope="col">{texts.quiz}</th>
            <th scope="col" className="hidden sm:table-cell">
              {texts.version}
            </th>
            <th scope="col">{texts.score}</th>
            <th scope="col">{texts.date}</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((attempt) => (
            <tr key={attempt._id}>
              <th scope="row" className="max-w-56 font-normal">
                {filtered ? (
                  <span className="block font-medium wrap-anywhere">{attempt.learner.fullName}</span>
                ) : (
                  <button
                    type="button"
                    className="link text-left font-medium wrap-anywhere link-hover"
                    aria-label={texts.showLearner(attempt.learner.fullName)}
                    onClick={() => onLearner(attempt.learner._id)}
                  >
                    {attempt.learner.fullName}
                  </button>
                )}
                <span className="block text-xs text-base-content/70 wrap-anywhere">{attempt.learner.email}</span>
              </th>
              <td className="min-w-32">
                <span className="block wrap-anywhere">{attempt.quizTitle}</span>
                <span className="block text-xs text-base-content/70">
                  {texts.attemptNumber(attempt.number)}
                  <span className="sm:hidden"> · {texts.versionNumber(attempt.version)}</span>
                </span>
              </td>
              <td className="hidden tabular-nums sm:table-cell">{texts.versionNumber(attempt.version)}</td>
              <td>
                <span className="flex flex-col items-start gap-1">
                  <span className="font-semibold tabular-nums">{texts.percent(attempt.score)}</span>
                  <ResultBadge attempt={attempt} />
                </span>
              </td>
              <td className="whitespace-nowrap">
                <time dateTime={attempt.submittedAt ?? attempt.startedAt}>{formatDate(attempt.submittedAt ?? attempt.startedAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Passed or failed in words, the colour on a dot beside it (coloured small text fails contrast); an expired attempt says so. */
function ResultBadge({ attempt }: { attempt: AdminAttempt }) {
  const [dot, words] = attempt.passed ? ['bg-success', texts.passed] : ['bg-error', attempt.state === 'expired' ? texts.timeUp : texts.failed_];
  return (
    <span className="badge gap-1.5 badge-ghost badge-sm whitespace-nowrap">
      <span className={`size-2 shrink-0 rounded-full ${dot}`} aria-hidden="true" />
      {words}
    </span>
  );
}

function EmptyState({ title, hint }: { title: string; hint?: string }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-box border border-dashed border-base-300 px-6 py-10 text-center">
      <h2 className="text-lg font-semibold">{title}</h2>
      {hint && <p className="max-w-md text-base-content/80">{hint}</p>}
    </div>
  );
}

function Pending({ failed, message, onRetry }: { failed: boolean; message: string; onRetry: () => void }): ReactNode {
  if (failed)
    return (
      <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-box bg-base-200 p-6">
        <p className="text-base-content/80">{message}</p>
        <button type="button" className="btn btn-outline btn-sm" onClick={onRetry}>
          {texts.retry}
        </button>
      </div>
    );
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2" aria-busy="true">
      <span className="sr-only">{texts.loading}</span>
      <div className="skeleton h-56 w-full" />
      <div className="skeleton h-56 w-full" />
    </div>
  );
}
