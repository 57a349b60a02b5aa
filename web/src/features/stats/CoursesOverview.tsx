import { useId, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { isoDuration, spokenDuration } from '../../lib/format';
import { paths } from '../../lib/paths';
import { CourseStateBadge, useDeleteCourseMutation } from '../courses';

export type LoadStatus = 'loading' | 'ready' | 'failed';

/** Our texts around the table; its column names are the spec's, from the catalogue. */
const texts = {
  columns: messages.courseTableColumns,
  loading: 'Loading courses…',
  failed: 'The courses could not be loaded.',
  empty: 'No courses yet.',
  shown: (count: number, total: number) => `Showing the first ${count} of ${total} courses.`,
  manageLectures: (title: string) => `Manage lectures of ${title}`,
  edit: (title: string) => `Edit ${title}`,
  watching: (count: number) => `${count} ${count === 1 ? 'subscriber' : 'subscribers'} watching`,
  delete: (title: string) => `Delete ${title}`,
};

/** Columns hidden on small screens: category, instructor, lecture count, description. */
const wide = 'hidden md:table-cell';

interface Props {
  courses: Course[];
  /** Courses on the server, when more than the list holds. */
  total: number;
  status: LoadStatus;
}

/** 'Courses Overview', the course table with its actions. */
export function CoursesOverview({ courses, total, status }: Props) {
  const headingId = useId();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState<string>();
  const [deleteCourse] = useDeleteCourseMutation();

  // The course goes along; the id in the address lets the page find it again after a reload.
  const open = (path: string, course: Course) => void navigate({ pathname: path, search: `?id=${course._id}` }, { state: { ...course } });

  async function onDelete(course: Course) {
    if (!window.confirm(messages.confirmDeleteCourse)) return;
    setDeleting(course._id);
    // A deletion reloads the course list (the mutation invalidates it); a failure has
    // already been shown by the API client, and the list stays.
    await deleteCourse(course._id);
    setDeleting(undefined);
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-2xl font-semibold">
          {messages.coursesOverview}
        </h2>
        <Link to={paths.createCourse} className="btn btn-primary">
          {messages.createNewCourse}
        </Link>
      </div>
      {status === 'ready' && total > courses.length && <p className="text-sm text-base-content/70">{texts.shown(courses.length, total)}</p>}
      <div className="w-full overflow-x-auto rounded-box border border-base-300">
        {/* Phones: a little less padding, so the number, the title and the actions fit 360 px without scrolling. */}
        <table className="table table-zebra max-md:[&_:is(th,td)]:px-3" aria-labelledby={headingId}>
          <thead>
            <tr>
              {texts.columns.map((name, index) => (
                <th key={name} scope="col" className={index >= 2 && index <= 5 ? wide : undefined}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {courses.length === 0 ? (
              <tr>
                <td colSpan={texts.columns.length} className="text-center">
                  {status === 'loading' ? texts.loading : status === 'failed' ? texts.failed : texts.empty}
                </td>
              </tr>
            ) : (
              courses.map((course, index) => (
                <tr key={course._id}>
                  <td>{index + 1}</td>
                  <th scope="row" className="min-w-32 font-medium wrap-anywhere">
                    {course.title}
                    <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs font-normal text-base-content/70">
                      <CourseStateBadge course={course} />
                      {course.subscribersWatching !== undefined && course.subscribersWatching > 0 && <span>{texts.watching(course.subscribersWatching)}</span>}
                    </span>
                  </th>
                  <td className={`${wide} wrap-anywhere`}>{course.category}</td>
                  <td className={`${wide} wrap-anywhere`}>{course.createdBy}</td>
                  <td className={wide}>
                    {course.numbersOfLectures}
                    {/* How long the course runs, once its videos are measured. */}
                    {course.totalDuration !== null && (
                      <time dateTime={isoDuration(course.totalDuration)} className="block text-xs whitespace-nowrap text-base-content/70">
                        {spokenDuration(course.totalDuration)}
                      </time>
                    )}
                  </td>
                  <td className={`${wide} max-w-xs`}>
                    <p className="line-clamp-2 wrap-anywhere" title={course.description}>
                      {course.description}
                    </p>
                  </td>
                  <td>
                    <div className="flex gap-1">
                      <IconButton label={texts.manageLectures(course.title)} onClick={() => open(paths.courseLecture, course)} className="btn-ghost">
                        <path d="M4 6h10M4 12h10M4 18h6M17 10l5 3-5 3z" />
                      </IconButton>
                      <IconButton label={texts.edit(course.title)} onClick={() => open(paths.editCourse, course)} className="btn-ghost">
                        <path d="M4 20h4L19 9l-4-4L4 16zM13 7l4 4" />
                      </IconButton>
                      <IconButton
                        label={texts.delete(course.title)}
                        onClick={() => void onDelete(course)}
                        // Red only for what destroys (STYLE).
                        className="btn-ghost btn-error"
                        busy={deleting === course._id}
                      >
                        <path d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6" />
                      </IconButton>
                    </div>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

interface IconButtonProps {
  label: string;
  onClick: () => void;
  className: string;
  busy?: boolean;
  children: ReactNode;
}

/** A square icon button; `label` is its accessible name and its tooltip. */
function IconButton({ label, onClick, className, busy = false, children }: IconButtonProps) {
  return (
    <button type="button" aria-label={label} title={label} onClick={onClick} disabled={busy} className={`btn btn-square btn-sm ${className}`}>
      {busy ? (
        <span className="loading loading-spinner loading-xs" aria-hidden="true" />
      ) : (
        <svg
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          {children}
        </svg>
      )}
    </button>
  );
}
