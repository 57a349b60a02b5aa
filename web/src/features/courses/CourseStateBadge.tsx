import type { Course } from '@lms/contract/courses';

const DATE_TIME = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

/** When a scheduled course goes out, in the admin's own time zone. */
export const publishTime = (iso: string) => DATE_TIME.format(new Date(iso));

export const courseStateTexts = {
  draft: 'Draft',
  scheduled: (iso: string) => `Scheduled · ${publishTime(iso)}`,
  published: 'Published',
};

const DOTS = { draft: 'bg-warning', scheduled: 'bg-info', published: 'bg-success' } as const;

/**
 * A course's state as administrators see it, in words with a coloured dot beside them (coloured
 * small text fails contrast). Visitors only ever see published courses, so they never see this.
 */
export function CourseStateBadge({ course, className = '' }: { course: Pick<Course, 'state' | 'publishAt'>; className?: string }) {
  const text =
    course.state === 'scheduled' && course.publishAt
      ? courseStateTexts.scheduled(course.publishAt)
      : courseStateTexts[course.state === 'scheduled' ? 'draft' : course.state];
  return (
    <span className={`badge badge-sm gap-1.5 whitespace-nowrap ${course.state === 'published' ? 'badge-ghost' : 'badge-outline'} ${className}`}>
      <span className={`size-2 rounded-full ${DOTS[course.state]}`} aria-hidden="true" />
      {text}
    </span>
  );
}
