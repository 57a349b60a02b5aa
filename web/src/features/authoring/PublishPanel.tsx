import type { Course } from '@lms/contract/courses';
import { useId, useState, type FormEvent } from 'react';
import { publishTime, usePublishCourseMutation, useUnpublishCourseMutation } from '../courses';

export const publishTexts = {
  heading: 'Publishing',
  draft: 'Only administrators can see this course. Publish it when its lectures are ready.',
  scheduled: (iso: string) => `It will be published on ${publishTime(iso)}. Until then only administrators can see it.`,
  published: 'Visitors see it in the catalogue, and subscribers can watch it.',
  watching: (count: number) => `${count} ${count === 1 ? 'subscriber is' : 'subscribers are'} watching it.`,
  needsLecture: 'Add at least one lecture before publishing.',
  publishNow: 'Publish now',
  schedule: 'Schedule',
  scheduleLabel: 'Publish at',
  reschedule: 'Change time',
  cancelSchedule: 'Cancel schedule',
  unpublish: 'Unpublish',
  confirmUnpublish: (count: number) =>
    `${count} ${count === 1 ? 'subscriber is' : 'subscribers are'} watching this course. Unpublish it? They will not see it until you publish it again; their progress is kept.`,
};

/** `datetime-local`'s value for a moment, in the browser's time zone: what the input shows and takes. */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * Where a course stands (draft, scheduled, published) and the way to the next state: publish now,
 * at a chosen time, or back to a draft. Unpublishing asks first when subscribers are watching.
 */
export function PublishPanel({ course, lectureCount }: { course: Course; lectureCount: number }) {
  const headingId = useId();
  const timeId = useId();
  const [publish, publishing] = usePublishCourseMutation();
  const [unpublish, unpublishing] = useUnpublishCourseMutation();
  const busy = publishing.isLoading || unpublishing.isLoading;
  const watching = course.subscribersWatching ?? 0;
  const [at, setAt] = useState(() => (course.publishAt ? localInputValue(new Date(course.publishAt)) : ''));
  const empty = lectureCount === 0;

  function onSchedule(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!at) return;
    void publish({ id: course._id, publishAt: new Date(at).toISOString() });
  }

  function onUnpublish() {
    if (course.state === 'published' && watching > 0 && !window.confirm(publishTexts.confirmUnpublish(watching))) return;
    void unpublish(course._id);
  }

  const explanation =
    course.state === 'published'
      ? publishTexts.published
      : course.state === 'scheduled' && course.publishAt
        ? publishTexts.scheduled(course.publishAt)
        : publishTexts.draft;
  return (
    <section aria-labelledby={headingId} className="card bg-base-100 shadow-sm ring-1 ring-base-content/10">
      <div className="card-body gap-3 p-5">
        {/* The state's badge is in the page's header, beside the title. */}
        <h2 id={headingId} className="card-title text-lg">
          {publishTexts.heading}
        </h2>
        <p className="text-sm text-base-content/80">
          {explanation}
          {course.state === 'published' && watching > 0 && <> {publishTexts.watching(watching)}</>}
        </p>
        {course.state === 'published' ? (
          <div>
            <button type="button" className="btn btn-outline" disabled={busy} onClick={onUnpublish}>
              {publishTexts.unpublish}
            </button>
          </div>
        ) : (
          <>
            {empty && <p className="text-sm font-medium">{publishTexts.needsLecture}</p>}
            <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
              <button type="button" className="btn btn-primary" disabled={busy || empty} onClick={() => void publish({ id: course._id })}>
                {publishTexts.publishNow}
              </button>
              <form className="flex flex-wrap items-end gap-2" onSubmit={onSchedule}>
                <div className="flex flex-col gap-1">
                  <label htmlFor={timeId} className="text-sm">
                    {publishTexts.scheduleLabel}
                  </label>
                  <input
                    id={timeId}
                    type="datetime-local"
                    className="input w-auto"
                    value={at}
                    min={localInputValue(new Date())}
                    onChange={(event) => setAt(event.currentTarget.value)}
                    required
                  />
                </div>
                <button type="submit" className="btn btn-outline" disabled={busy || empty || !at}>
                  {course.state === 'scheduled' ? publishTexts.reschedule : publishTexts.schedule}
                </button>
              </form>
              {course.state === 'scheduled' && (
                <button type="button" className="btn btn-ghost" disabled={busy} onClick={onUnpublish}>
                  {publishTexts.cancelSchedule}
                </button>
              )}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
