import { lazy, Suspense } from 'react';

// Shown only to a signed-in learner, who has the progress feature loaded already (see my-courses.tsx).
const CourseProgressBar = lazy(() => import('../progress').then((progress) => ({ default: progress.CourseProgressBar })));

/** The progress feature's bar, without bringing that feature into a visitor's first load. */
export function ProgressBar(props: { percent: number; label: string; className?: string }) {
  return (
    <Suspense fallback={null}>
      <CourseProgressBar {...props} />
    </Suspense>
  );
}
