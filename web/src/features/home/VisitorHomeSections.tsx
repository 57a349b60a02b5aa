import { endpoints } from '@lms/contract/endpoints';
import { messages } from '@lms/contract/messages';
import { usePublicAnswer } from '../../lib/public-answer';
import { HomeSections } from './HomeSections';
import { NEWEST_COUNT } from './NewestCoursesFrame';

/**
 * The sections below the hero for a logged-out visitor: the newest courses and the plan are read
 * without the server-state cache, which a visitor's first load of `/` does not download. A visitor
 * has nothing to continue and no progress on a card.
 */
export default function VisitorHomeSections() {
  const newest = usePublicAnswer(endpoints.courses.list, { query: { page: 1, limit: NEWEST_COUNT } }, { fallback: messages.failedGetCourses });
  const plan = usePublicAnswer(endpoints.payments.plan, {}, { fallback: messages.failedLoadData, quiet: true });
  return <HomeSections newest={newest} plan={plan} canWatch={false} isAdmin={false} />;
}
