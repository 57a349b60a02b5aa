import type { Course } from '@lms/contract/courses';
import { pagePaths } from '@lms/contract/pages';

/**
 * Every route of the web app, from the one list in contract/ that the server reads too,
 * and the places inside a page that links point at.
 */
export const paths = {
  ...pagePaths,
  /** Where the refund rule is explained in full: the home page's question about it, until it has a page of its own. */
  refundPolicy: '/#faq-refund',
} as const;

/**
 * Where a page about `course` lives, with the id in the address so a reload finds it again; `lectureId`
 * opens the lecture page at that lecture (where the learner stopped).
 */
export const courseLink = (path: string, course: Pick<Course, '_id'>, lectureId?: string) => ({
  pathname: path,
  search: `?id=${course._id}${lectureId ? `&lecture=${lectureId}` : ''}`,
});
