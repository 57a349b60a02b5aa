import type { Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { lazy, Suspense, useId, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { checkoutPath } from '../payments';
import { paths } from '../../lib/paths';
import { useGetCurriculumQuery } from './courses.api';
import { useGetPlanQuery } from '../payments';
import { useAuth } from '../auth';
import { useMyCourses } from './my-courses';
import { courseLink } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { initialsOf } from '../../lib/components/initials';
import { Curriculum, curriculumSummary, isPlayable } from './Curriculum';
import type { PlayablePreview } from './PreviewDialog';
import { PriceCard } from './PriceCard';

// The player with its captions and progress: loaded when a visitor opens a preview, not with the page.
const PreviewDialog = lazy(() => import('./PreviewDialog').then((module) => ({ default: module.PreviewDialog })));

/**
 * The course's details, with 'watch lectures' for an active subscriber or an admin and
 * 'Subscribe' otherwise. The page that sells it, reachable by its link alone
 * (`?id=`): the public curriculum with durations and free previews anyone can play, and the price
 * card. A course passed by the catalogue shows at once while the curriculum loads.
 */
export default function CourseDescriptionPage() {
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { role, data: user } = useAuth((auth) => auth);
  const passed = (location.state as Course | null)?._id ? (location.state as Course) : undefined;
  const id = search.get('id') ?? passed?._id;
  const answer = useGetCurriculumQuery(id ?? '', { skip: !id });
  const plan = useGetPlanQuery();
  // By id: a fresh curriculum (new video URLs) reaches the preview playing.
  const [playingId, setPlayingId] = useState<string>();
  const { byCourse, cardProgress, reader } = useMyCourses();
  const mine = byCourse.get(id ?? '');

  const curriculum = answer.currentData;
  const course = curriculum?.course ?? (passed?._id === id ? passed : undefined);
  const notFound = answer.isError && (answer.error as { status?: number } | undefined)?.status === 404;
  usePageTitle(notFound ? messages.courseNotFound : course?.title);

  if (!id) return <Navigate to={paths.courses} replace />;
  if (notFound) return <CourseNotFound />;
  const failure = answer.isError ? <LoadFailure onRetry={() => void answer.refetch()} /> : undefined;
  if (failure && !course) {
    return <section className="mx-auto max-w-xl px-4 py-16">{failure}</section>;
  }

  const access = role === 'ADMIN' ? 'admin' : user?.subscription.status === 'active' ? 'subscriber' : 'none';
  const previews = (curriculum?.lectures ?? []).filter(isPlayable);
  const playing = previews.find((lecture) => lecture._id === playingId);
  const setPlaying = (lecture: PlayablePreview | undefined) => setPlayingId(lecture?._id);
  const summary = curriculum ? curriculumSummary(curriculum.lectureCount, curriculum.totalDuration) : undefined;

  return (
    <article
      aria-busy={!curriculum && !failure}
      className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-6 sm:py-10 lg:grid-cols-[minmax(0,1fr)_22rem] lg:grid-rows-[auto_1fr] lg:gap-x-12"
    >
      {reader}
      <CourseHeader course={course} />

      {/* On a phone, after the header and before the curriculum; on a desktop, a right column that stays in view. */}
      <div className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <div className="lg:sticky lg:top-6">
          <PriceCard
            course={course}
            plan={plan.data}
            planLoading={plan.isLoading}
            access={access}
            summary={failure ? null : summary}
            // The checkout brings the buyer back here after paying ("Go to dashboard").
            onSubscribe={() => void navigate(checkoutPath({ from: `${paths.courseDescription}?id=${encodeURIComponent(id)}` }))}
            progress={cardProgress(mine)}
            // A course the learner started opens where they stopped. The id in the address is
            // enough: pressed before the course has loaded, the lecture page fetches it itself.
            onWatch={() => void navigate(courseLink(paths.courseLecture, { _id: id }, mine?.resume?.lectureId), { state: course })}
            onPreview={previews[0] ? () => setPlaying(previews[0]) : undefined}
          />
        </div>
      </div>

      <div className="min-w-0 space-y-10 lg:col-start-1 lg:row-start-2">
        <Curriculum
          sections={curriculum?.sections}
          lectures={curriculum?.lectures}
          quizzes={curriculum?.quizzes}
          courseId={id}
          lectureCount={curriculum?.lectureCount}
          totalDuration={curriculum?.totalDuration}
          canWatch={access !== 'none'}
          onPlay={setPlaying}
          failure={failure}
        />
        {course ? <CourseDetails course={course} /> : <DetailsPlaceholder />}
      </div>

      {playing && course && (
        <Suspense fallback={null}>
          <PreviewDialog
            courseId={course._id}
            courseTitle={course.title}
            previews={previews}
            playing={playing}
            onSelect={setPlaying}
            onClose={() => setPlaying(undefined)}
            onVideoRefused={() => void answer.refetch()}
          />
        </Suspense>
      )}
    </article>
  );
}

/** Where the course sits in the catalogue (its category), its title and its instructor. */
function CourseHeader({ course }: { course: Course | undefined }) {
  if (!course) {
    return (
      // The header's own lines at their own heights (a two-line title on a phone, one on wider
      // screens), so that the price card below does not move when the course arrives.
      <header aria-hidden="true" className="min-w-0 lg:col-start-1 lg:row-start-1">
        <div className="skeleton h-5 w-40" />
        {/* Two lines of 2.34375rem (text-3xl, leading-tight) on a phone; one of 2.8125rem from sm. */}
        <div className="mt-3 flex h-[4.6875rem] flex-col justify-between sm:h-[2.8125rem]">
          <div className="skeleton h-8 w-full sm:h-full sm:max-w-xl" />
          <div className="skeleton h-8 w-2/3 sm:hidden" />
        </div>
        <div className="mt-4 skeleton h-6 w-56" />
      </header>
    );
  }
  const category = { pathname: paths.courses, search: `?${new URLSearchParams({ category: course.category })}` };
  return (
    <header className="min-w-0 lg:col-start-1 lg:row-start-1">
      <nav aria-label="Breadcrumb" className="text-sm">
        <ol className="flex flex-wrap items-center gap-x-2 gap-y-1 text-base-content/70">
          <li>
            <Link to={paths.courses} className="link link-hover">
              Courses
            </Link>
          </li>
          <li aria-hidden="true">/</li>
          <li className="min-w-0 wrap-anywhere">
            <Link to={category} className="link font-medium text-primary link-hover">
              {course.category}
            </Link>
          </li>
        </ol>
      </nav>
      <h1 className="mt-3 text-3xl leading-tight font-bold tracking-tight wrap-anywhere sm:text-4xl">{course.title}</h1>
      {/* The category is in the trail above, what the course holds in its content and card below. */}
      <p className="mt-4 wrap-anywhere text-base-content/80">
        {messages.createdBy} <span className="font-semibold text-base-content">{course.createdBy}</span>
      </p>
    </header>
  );
}

/** The description, as the instructor wrote it (paragraphs kept), and who teaches the course. */
function CourseDetails({ course }: { course: Course }) {
  const descriptionId = useId();
  const instructorId = useId();
  return (
    <>
      <section aria-labelledby={descriptionId}>
        <h2 id={descriptionId} className="text-2xl font-bold">
          {messages.courseDescription}
        </h2>
        <p className="mt-3 max-w-prose text-base leading-7 whitespace-pre-line text-base-content/90 wrap-anywhere">{course.description}</p>
      </section>
      <section aria-labelledby={instructorId}>
        <h2 id={instructorId} className="text-2xl font-bold">
          {messages.instructor}
        </h2>
        <div className="mt-3 flex items-center gap-4">
          <div className="avatar avatar-placeholder">
            <div className="w-14 rounded-full bg-primary/10 text-primary">
              <span className="text-lg font-bold" aria-hidden="true">
                {initialsOf(course.createdBy)}
              </span>
            </div>
          </div>
          <p className="min-w-0 text-lg font-semibold wrap-anywhere">{course.createdBy}</p>
        </div>
      </section>
    </>
  );
}

function DetailsPlaceholder() {
  return (
    <div aria-hidden="true" className="space-y-3">
      <div className="skeleton h-7 w-56" />
      <div className="skeleton h-4 w-full max-w-prose" />
      <div className="skeleton h-4 w-full max-w-prose" />
      <div className="skeleton h-4 w-2/3 max-w-prose" />
    </div>
  );
}

/** An unknown or mistyped id: said plainly, with the way to the catalogue. */
function CourseNotFound() {
  return (
    <section className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <p className="text-7xl font-extrabold tracking-widest text-base-content/30" aria-hidden="true">
        404
      </p>
      <h1 className="text-3xl font-bold">{messages.courseNotFound}</h1>
      <p className="text-base-content/80">{messages.courseNotFoundText}</p>
      <Link to={paths.courses} className="btn btn-primary">
        {messages.browseCourses}
      </Link>
    </section>
  );
}

/** The server could not be reached, or failed: say so where the curriculum goes, and offer to ask again. */
function LoadFailure({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-box border border-base-content/15 p-5">
      <p>{messages.courseLoadFailed}</p>
      <button type="button" className="btn btn-outline btn-sm btn-primary" onClick={onRetry}>
        {messages.tryAgain}
      </button>
    </div>
  );
}
