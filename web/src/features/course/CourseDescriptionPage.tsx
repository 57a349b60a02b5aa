import { messages } from '@lms/contract/messages';
import { useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { useAppSelector } from '../../app/store';
import { courseLink, useCourse } from './use-course';

/** Spec §2: the course's details; 'watch lectures' for an active subscriber or an admin, otherwise 'Subscribe'. */
export default function CourseDescriptionPage() {
  const course = useCourse();
  const navigate = useNavigate();
  const { role, data } = useAppSelector((state) => state.auth);
  if (!course) return <p className="p-8 text-center" aria-live="polite">Loading the course…</p>;
  const canWatch = role === 'ADMIN' || data?.subscription.status === 'active';

  return (
    <section className="mx-auto grid max-w-5xl gap-8 px-4 py-8 md:grid-cols-2">
      <div className="space-y-4">
        <img src={course.thumbnail.secure_url} alt={`Cover of ${course.title}`} className="aspect-video w-full rounded-xl object-cover shadow" />
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="font-semibold">Total lectures</dt>
          <dd>{course.numbersOfLectures}</dd>
          <dt className="font-semibold">Instructor</dt>
          <dd>{course.createdBy}</dd>
          <dt className="font-semibold">Category</dt>
          <dd>{course.category}</dd>
        </dl>
        {canWatch ? (
          <button type="button" className="btn btn-primary w-full" onClick={() => navigate(courseLink(paths.courseLecture, course), { state: course })}>
            {messages.watchLectures}
          </button>
        ) : (
          <button type="button" className="btn btn-primary w-full" onClick={() => navigate(paths.checkout)}>
            {messages.subscribe}
          </button>
        )}
      </div>
      <div className="space-y-4">
        <h1 className="text-3xl font-bold">{course.title}</h1>
        <h2 className="text-xl font-semibold">Course description</h2>
        <p className="whitespace-pre-line leading-relaxed">{course.description}</p>
      </div>
    </section>
  );
}
