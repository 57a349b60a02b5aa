import type { EngagementResponse } from '@lms/contract/progress';
import { useId } from 'react';
import { formatDate } from '../../lib/format';

const countFormat = new Intl.NumberFormat('en-IN');

/** The section's words, with it rather than in the catalogue (which ships with every page's first chunk). */
export const texts = {
  activeLearnersThisWeek: 'Active learners this week',
  churnRisk: 'Subscribers who stopped watching',
  churnRiskHint: 'Subscribers of more than 14 days who have not watched anything in the last 14, soonest renewal first',
  churnRiskNone: 'Every subscriber of more than 14 days has watched something in the last 14.',
  churnRiskMore: (shown: number, total: number) => `Showing ${shown} of ${total}`,
  renewalDate: 'Renews on',
  lastWatched: 'Last watched',
  neverWatched: 'Never',
  averageCompletion: 'Average completion',

  heading: 'Learner engagement',
  courses: 'Courses by completion',
  coursesHint: 'Of the learners who started each course: how many finished it, and how far they got on average.',
  noCourses: 'No course has been started yet.',
  learner: 'Learner',
  loading: 'Loading engagement…',
  failed: 'Engagement figures could not be loaded.',
  startedCompleted: (started: number, completed: number) => `${countFormat.format(started)} started · ${countFormat.format(completed)} completed`,
};

/**
 * What learner progress tells the seller, beside the spec's figures. Active learners
 * this week; active subscribers who have stopped watching (those likely to cancel), soonest renewal
 * first; and each course's starters, finishers and average completion as bars.
 */
export function Engagement({ data, status }: { data: EngagementResponse | undefined; status: 'loading' | 'ready' | 'failed' }) {
  const headingId = useId();
  const riskId = useId();
  if (status !== 'ready' || !data) {
    return (
      <section aria-labelledby={headingId} className="flex flex-col gap-4">
        <h2 id={headingId} className="text-2xl font-semibold">
          {texts.heading}
        </h2>
        <p className="rounded-box bg-base-200 p-6 text-base-content/70" aria-live="polite">
          {status === 'failed' ? texts.failed : texts.loading}
        </p>
      </section>
    );
  }
  const started = data.courses.filter((course) => course.started > 0);
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h2 id={headingId} className="text-2xl font-semibold">
        {texts.heading}
      </h2>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <dl className="flex flex-col gap-3">
          <div className="flex flex-col gap-1 rounded-box bg-base-200 p-4">
            <dt className="text-sm font-medium text-base-content/80">{texts.activeLearnersThisWeek}</dt>
            <dd className="text-2xl font-bold tabular-nums">{countFormat.format(data.activeLearnersThisWeek)}</dd>
          </div>
          <div className="flex flex-col gap-1 rounded-box bg-base-200 p-4">
            <dt className="text-sm font-medium text-base-content/80">{texts.churnRisk}</dt>
            <dd className="text-2xl font-bold tabular-nums">{countFormat.format(data.churnRisk.total)}</dd>
          </div>
        </dl>

        <figure className="flex min-w-0 flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
          <figcaption>
            <span className="text-lg font-semibold">{texts.courses}</span>
            <span className="block text-sm text-base-content/70">{texts.coursesHint}</span>
          </figcaption>
          {started.length === 0 ? (
            <p className="text-base-content/70">{texts.noCourses}</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {started.map((course) => (
                <li key={course.courseId} className="flex flex-col gap-1">
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <span className="min-w-0 font-medium wrap-anywhere">{course.title}</span>
                    <span className="text-sm text-base-content/70 tabular-nums">{texts.startedCompleted(course.started, course.completed)}</span>
                  </div>
                  <div className="flex items-center gap-3">
                    <progress
                      className="progress progress-primary h-3 flex-1"
                      value={course.averageCompletion}
                      max={100}
                      aria-label={`${course.title}: ${texts.averageCompletion} ${course.averageCompletion} %`}
                    />
                    <span className="w-14 text-right text-sm font-semibold tabular-nums">{course.averageCompletion} %</span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </figure>
      </div>

      <div className="flex flex-col gap-2">
        <h3 id={riskId} className="text-lg font-semibold">
          {texts.churnRisk}
        </h3>
        <p className="text-sm text-base-content/70">{texts.churnRiskHint}</p>
        {data.churnRisk.learners.length === 0 ? (
          <p className="rounded-box bg-base-200 p-4">{texts.churnRiskNone}</p>
        ) : (
          <div className="overflow-x-auto rounded-box border border-base-300">
            <table className="table" aria-labelledby={riskId}>
              <thead>
                <tr>
                  <th scope="col">{texts.learner}</th>
                  <th scope="col">{texts.renewalDate}</th>
                  <th scope="col">{texts.lastWatched}</th>
                </tr>
              </thead>
              <tbody>
                {data.churnRisk.learners.map((learner) => (
                  <tr key={learner._id}>
                    <td className="max-w-64">
                      <span className="block font-medium wrap-anywhere">{learner.fullName}</span>
                      <a className="link text-sm text-base-content/70 wrap-anywhere" href={`mailto:${learner.email}`}>
                        {learner.email}
                      </a>
                    </td>
                    <td className="whitespace-nowrap tabular-nums">{formatDate(learner.renewsAt)}</td>
                    <td className="whitespace-nowrap tabular-nums">{learner.lastWatchedAt ? formatDate(learner.lastWatchedAt) : texts.neverWatched}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {data.churnRisk.total > data.churnRisk.learners.length && (
          <p className="text-sm text-base-content/70">{texts.churnRiskMore(data.churnRisk.learners.length, data.churnRisk.total)}</p>
        )}
      </div>
    </section>
  );
}
