import { Link, useSearchParams } from 'react-router';
import { courseLink, paths } from '../../lib/paths';
import { quizResultsTexts } from '../quizzes';
import { usePageTitle } from '../../lib/use-page-title';
import { CourseForm, CourseStateBadge, useGetCourseQuery } from '../courses';
import { BulkUpload } from './BulkUpload';
import { CurriculumEditor } from './CurriculumEditor';
import { EditorLectureTools } from './EditorLectureTools';
import { PublishPanel } from './PublishPanel';
import { AdminPageHeader } from '../../lib/components/AdminPageHeader';

export const editorTexts = {
  title: 'Edit course',
  trail: 'Where you are',
  loading: 'Loading the course…',
  notFound: 'There is no such course. Choose one from the dashboard.',
  coursePage: 'View course page',
  player: 'Open lectures',
  details: 'Course details',
};

/**
 * A course's editor, where the admin lands after creating it: its state and publishing, its
 * lectures (added in bulk, ordered, edited in place) and its details. The course comes by the
 * `id` in the address, fresh from the server (an administrator's answers include drafts).
 */
export default function CourseEditorPage() {
  const [search] = useSearchParams();
  const id = search.get('id') ?? '';
  const course = useGetCourseQuery(id, { skip: !id });
  usePageTitle(course.currentData ? `${editorTexts.title}: ${course.currentData.title}` : editorTexts.title);

  if (!id || (course.isSuccess && !course.currentData) || course.isError) {
    return (
      <p className="p-8 text-center">
        <Link className="link link-primary" to={paths.dashboard}>
          {editorTexts.notFound}
        </Link>
      </p>
    );
  }
  const current = course.currentData;
  if (!current)
    return (
      <p className="p-8 text-center" aria-live="polite">
        {editorTexts.loading}
      </p>
    );
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader
        title={editorTexts.title}
        heading={current.title}
        subtitle={<CourseStateBadge course={current} className="mt-2" />}
        actions={
          <>
            <Link to={courseLink(paths.courseDescription, current)} state={current} className="btn btn-ghost btn-sm">
              {editorTexts.coursePage}
            </Link>
            <Link to={courseLink(paths.courseLecture, current)} state={current} className="btn btn-ghost btn-sm">
              {editorTexts.player}
            </Link>
            <Link to={courseLink(paths.quizResults, current)} className="btn btn-ghost btn-sm">
              {quizResultsTexts.link}
            </Link>
          </>
        }
      />

      <PublishPanel key={`${current._id}:${current.publishAt}`} course={current} lectureCount={current.numbersOfLectures} />

      <div className="card bg-base-100 shadow-sm ring-1 ring-base-content/10">
        <div className="card-body gap-6 p-5">
          <CurriculumEditor courseId={current._id} renderLectureActions={(lecture) => <EditorLectureTools courseId={current._id} lecture={lecture} />} />
          <BulkUpload courseId={current._id} />
        </div>
      </div>

      <section aria-labelledby="editor-details" className="card bg-base-100 shadow-sm ring-1 ring-base-content/10">
        <div className="card-body gap-4 p-5">
          <h2 id="editor-details" className="card-title text-lg">
            {editorTexts.details}
          </h2>
          <CourseForm key={current._id} course={current} onSaved={() => undefined} />
        </div>
      </section>
    </div>
  );
}
