import { messages } from '@lms/contract/messages';
import type { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Answer } from '../../lib/public-answer';
import { courseLink, paths } from '../../lib/paths';
import { CourseCard } from '../courses';
import { BundleOffer } from './BundleOffer';
import { Faq } from './Faq';
import { HowItWorks } from './HowItWorks';
import { NEWEST_COUNT, NewestCoursesFrame, NewestCoursesPlaceholders, courseGridClass } from './NewestCoursesFrame';
import { Testimonials } from './Testimonials';

type CourseList = ResponseOf<typeof endpoints.courses.list>;
type Plan = ResponseOf<typeof endpoints.payments.plan>;
type CardProgress = Parameters<typeof CourseCard>[0]['progress'];

/** What the sections show, read by the visitor's or the signed-in user's module (VisitorHomeSections, SignedInHomeSections). */
export interface HomeSectionsProps {
  /** The catalogue's newest courses (`GET /courses?page=1&limit=3`). */
  newest: Answer<CourseList>;
  plan: Answer<Plan>;
  /** A subscriber or an administrator: pointed to the courses instead of Subscribe. */
  canWatch: boolean;
  /** Offered to create the first course when there is none. */
  isAdmin: boolean;
  /** The signed-in learner's bar on a course's card. */
  progressOf?: (courseId: string) => CardProgress;
  /** Above the newest courses ("Continue watching"), and what reads the learner's courses. */
  before?: ReactNode;
  reader?: ReactNode;
}

/**
 * Everything below the hero, loaded after it: the newest courses from the catalogue, how it
 * works, the bundle with the server's price, what learners say, and the questions. The first
 * screen of `/` never waits for it (`/` has a budget of 110 KB of JavaScript).
 */
export function HomeSections({ newest, plan, canWatch, isAdmin, progressOf, before, reader }: HomeSectionsProps) {
  return (
    <>
      {before}
      <NewestCourses newest={newest} isAdmin={isAdmin} progressOf={progressOf} reader={reader} />
      <HowItWorks />
      <BundleOffer price={plan.data?.price} refundWindowDays={plan.data?.refundWindowDays} loading={plan.isLoading} canWatch={canWatch} />
      <Testimonials />
      <Faq price={plan.data?.price} refundWindowDays={plan.data?.refundWindowDays} />
    </>
  );
}

/** The newest courses as the catalogue's cards; placeholders while they load; what to do when there are none. */
function NewestCourses({ newest, isAdmin, progressOf, reader }: Pick<HomeSectionsProps, 'newest' | 'isAdmin' | 'progressOf' | 'reader'>) {
  const navigate = useNavigate();
  const { data, isLoading, isError, refetch } = newest;
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
              progress={progressOf?.(course._id)}
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
