import { lazy, Suspense } from 'react';
import { useAuth } from '../auth';
import { useGetCoursesQuery, useMyCourses } from '../courses';
import { useGetPlanQuery } from '../payments';
import { HomeSections } from './HomeSections';
import { NEWEST_COUNT } from './NewestCoursesFrame';

// With the progress feature: the section loads with the signed-in sections.
const ContinueWatching = lazy(() => import('../progress').then((progress) => ({ default: progress.ContinueWatching })));

/**
 * The sections below the hero for someone signed in, through the server-state cache: an
 * administrator's catalogue holds drafts, and the cache drops answers made for another viewer.
 * The learner's courses give "Continue watching" and the bars on the cards.
 */
export default function SignedInHomeSections() {
  const newest = useGetCoursesQuery({ page: 1, limit: NEWEST_COUNT });
  const plan = useGetPlanQuery();
  const { role, data: user } = useAuth((auth) => auth);
  const { byCourse, cardProgress, reader } = useMyCourses();
  return (
    <HomeSections
      newest={newest}
      plan={plan}
      canWatch={role === 'ADMIN' || user?.subscription.status === 'active'}
      isAdmin={role === 'ADMIN'}
      progressOf={(courseId) => cardProgress(byCourse.get(courseId))}
      before={
        user && (
          <Suspense fallback={null}>
            <ContinueWatching className="mx-auto w-full max-w-6xl px-4 pt-12 sm:pt-16" />
          </Suspense>
        )
      }
      reader={reader}
    />
  );
}
