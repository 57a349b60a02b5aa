import type { LearnerCourse } from '@lms/contract/progress';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useAuth } from '../auth';

/** A course card's bar, for a course the learner started. */
export type CardProgress = { percent: number; label: string } | undefined;

/** The signed-in learner's courses, as the cards and the course page show them. */
export interface MyCourses {
  byCourse: Map<string, LearnerCourse>;
  cardProgress: (item: LearnerCourse | undefined) => CardProgress;
}

const NONE: MyCourses = { byCourse: new Map(), cardProgress: () => undefined };

// With the progress feature and its cache: loaded only once someone is signed in.
const MyCoursesReader = lazy(() => import('./MyCoursesReader'));

/**
 * The signed-in learner's courses, and `reader`, which the page renders to fetch them. A visitor
 * has none, and their first load of the catalogue, the home page or a course page carries nothing
 * of the progress feature (each page has a budget of JavaScript).
 */
export function useMyCourses(): MyCourses & { reader: ReactNode } {
  const signedIn = useAuth((auth) => auth.isLoggedIn);
  const [mine, setMine] = useState(NONE);
  return {
    ...(signedIn ? mine : NONE),
    reader: signedIn && (
      <Suspense fallback={null}>
        <MyCoursesReader onChange={setMine} />
      </Suspense>
    ),
  };
}
