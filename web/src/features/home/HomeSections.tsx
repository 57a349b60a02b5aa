import { messages } from '@lms/contract/messages';
import { lazy, Suspense } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../lib/paths';
import { useGetCoursesQuery, useMyCourses } from '../courses';
import { useGetPlanQuery } from '../payments';
import { useAuth } from '../auth';
import { courseLink } from '../../lib/paths';
import { CourseCard } from '../courses';
import { BundleOffer } from './BundleOffer';
import { Faq } from './Faq';
import { HowItWorks } from './HowItWorks';
import { NEWEST_COUNT, NewestCoursesFrame, NewestCoursesPlaceholders, courseGridClass } from './NewestCoursesFrame';
import { Testimonials } from './Testimonials';

// A visitor has nothing to continue: the section and the progress feature load only for someone signed in.
const ContinueWatching = lazy(() => import('../progress').then((progress) => ({ default: progress.ContinueWatching })));

/**
 * Everything below the hero, loaded after it (a chunk of its own, with the server-state cache): the
 * newest courses from the catalogue, how it works, the bundle with the server's price, what learners
 * say, and the questions. The first screen of `/` never waits for it (`/` has a budget of 110 KB of JavaScript).
 */
export default function HomeSections() {
  const plan = useGetPlanQuery();
  const { role, data: user } = useAuth((auth) => auth);
  const canWatch = role === 'ADMIN' || user?.subscription.status === 'active';
  return (
    <>
      {user && (
        <Suspense fallback={null}>
          <ContinueWatching className="mx-auto w-full max-w-6xl px-4 pt-12 sm:pt-16" />
        </Suspense>
      )}
      <NewestCourses />
      <HowItWorks />
      <BundleOffer price={plan.data?.price} refundWindowDays={plan.data?.refundWindowDays} loading={plan.isLoading} canWatch={canWatch} />
      <Testimonials />
      <Faq price={plan.data?.price} refundWindowDays={plan.data?.refundWindowDays} />
    </>
  );
}

/** The newest courses as the catalogue's cards; placeholders while they load; what to do when there are none. */
function NewestCourses() {
  const navigate = useNavigate();
  const isAdmin = useAuth((auth) => auth.role === 'ADMIN');
  const { data, isLoading, isError, refetch } = useGetCoursesQuery({ page: 1, limit: NEWEST_COUNT });
  const { byCourse, cardProgress, reader } = useMyCourses();
  const courses = data?.courses ?? [];

  let content;
  if (isLoading) content = <NewestCoursesPlaceholders />;
  else if (isError && courses.length === 0) {
    content = (
      <div className="rounded-box bg-base-200 p-8 text-center">
        <p>{messages.failedGetCourses}</p>
        <button type="button" className="btn btn-outline btn-sm mt-4" onClick={() => void refetch()}>
          {messages.tryAgain}
        </button>
      </div>
    );
  } else if (courses.length === 0) {
    content = (
      <div className="rounded-box bg-base-200 p-8 text-center">
        <p className="text-lg font-semibold">{messages.noCoursesYet}</p>
        {isAdmin ? (
          <Link to={paths.createCourse} className="btn btn-primary mt-4">
            {messages.createFirstCourse}
          </Link>
        ) : (
          <p className="mt-2 text-base-content/80">
            {messages.noCoursesYetHint}{' '}
            <Link to={paths.contact} className="link link-primary">
              Contact us
            </Link>
            .
          </p>
        )}
      </div>
    );
  } else {
    content = (
      <ul className={courseGridClass}>
        {courses.slice(0, NEWEST_COUNT).map((course, index) => (
          <li key={course._id} className={index === NEWEST_COUNT - 1 ? 'sm:max-lg:hidden' : undefined}>
            <CourseCard
              course={course}
              progress={cardProgress(byCourse.get(course._id))}
              onOpen={() => void navigate(courseLink(paths.courseDescription, course), { state: course })}
            />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <NewestCoursesFrame>
      {reader}
      {content}
    </NewestCoursesFrame>
  );
}
