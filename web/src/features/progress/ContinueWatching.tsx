import type { LearnerCourse } from '@lms/contract/progress';
import { useId } from 'react';
import { Link } from 'react-router';
import { CourseProgressBar } from './CourseProgressBar';
import { clockDuration } from '../../lib/format';
import { paths } from '../../lib/paths';
import { useMyCourses } from './progress.api';
import { progressTexts } from './progress-texts';
import { courseLink } from '../../lib/paths';

/** How many the home page shows; the profile shows them all. */
const HOME_COUNT = 3;

/**
 * "Continue watching": the signed-in learner's courses in progress, most recent first, each opening
 * the lecture where they stopped. On the home page and the profile; nothing for a visitor,
 * or for a learner with nothing in progress unless `emptyText` is asked for.
 */
export function ContinueWatching({
  limit = HOME_COUNT,
  className = '',
  headingClassName = 'text-2xl font-bold sm:text-3xl',
  showEmpty = false,
}: {
  limit?: number;
  className?: string;
  /** The heading's size: a home page section's by default, a profile section's on the profile. */
  headingClassName?: string;
  showEmpty?: boolean;
}) {
  const headingId = useId();
  const { courses, signedIn } = useMyCourses();
  const inProgress = courses.filter((item) => item.resume !== null).slice(0, limit);
  if (!signedIn || (inProgress.length === 0 && !showEmpty)) return null;
  return (
    <section aria-labelledby={headingId} className={className}>
      <h2 id={headingId} className={`mb-4 ${headingClassName}`}>
        {progressTexts.continueWatching}
      </h2>
      {inProgress.length === 0 ? (
        <p className="rounded-box bg-base-200 p-6 text-base-content/80">{progressTexts.noCoursesInProgress}</p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {inProgress.map((item) => (
            <li key={item.courseId}>
              <ContinueCard item={item} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ContinueCard({ item }: { item: LearnerCourse }) {
  const resume = item.resume!;
  const where =
    resume.position >= 1 ? progressTexts.continueLecture(resume.title, clockDuration(resume.position)) : progressTexts.continueLectureStart(resume.title);
  return (
    <Link
      to={courseLink(paths.courseLecture, item.course, resume.lectureId)}
      state={item.course}
      className="flex h-full gap-3 rounded-box bg-base-100 p-3 shadow-sm ring-1 ring-base-content/10 transition hover:shadow-md focus-visible:ring-3 focus-visible:ring-primary focus-visible:outline-none"
    >
      <img
        src={item.course.thumbnail.secure_url}
        alt=""
        width={160}
        height={90}
        loading="lazy"
        className="aspect-video w-28 shrink-0 self-start rounded-field bg-base-300 object-cover sm:w-32"
      />
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="line-clamp-2 font-semibold leading-snug wrap-anywhere">{item.course.title}</span>
        <span className="line-clamp-1 text-sm text-base-content/70 wrap-anywhere">{where}</span>
        <CourseProgressBar
          className="mt-auto"
          percent={item.percent}
          label={progressTexts.courseProgress(item.completedLectures, item.lectureCount, item.percent)}
        />
      </span>
    </Link>
  );
}
