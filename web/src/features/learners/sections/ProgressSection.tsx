import type { LearnerDetail } from '@lms/contract/learners';
import { formatDate } from '../../../lib/format';
import { learnersTexts as texts } from '../learners-texts';
import { Ago, DotBadge } from './badges';
import { Section } from './Section';

/** Each course started: how far (a bar with its percent), completed or not, started and last watched. */
export function ProgressSection({ learner }: { learner: LearnerDetail }) {
  return (
    <Section title={texts.progress} empty={learner.progress.length === 0} emptyText={texts.noProgress}>
      <ul className="flex flex-col gap-4 text-sm">
        {learner.progress.map((course) => (
          <li key={course.courseId} className="flex flex-col gap-1.5">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium wrap-anywhere">{course.title}</span>
              {course.completed && <DotBadge dot="bg-success">{texts.completed}</DotBadge>}
            </div>
            <div className="flex items-center gap-3">
              <progress
                className={`progress h-2 flex-1 ${course.completed ? 'progress-success' : 'progress-primary'}`}
                value={course.percent}
                max={100}
                aria-label={texts.progressOf(course.title)}
              />
              <span className="w-10 text-right font-medium tabular-nums">{course.percent}%</span>
            </div>
            <p className="text-base-content/70">
              {texts.lectures(course.completedLectures, course.lectureCount)} · {texts.startedOn(formatDate(course.startedAt) ?? '')} · {texts.lastWatched}{' '}
              <Ago iso={course.lastWatchedAt} />
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
