import type { Course } from '@lms/contract/courses';
import { pagePaths } from '@lms/contract/pages';

/** Every route of the web app, from the one list in contract/ that the server reads too. */
export const paths = pagePaths;

/**
 * Where a page about `course` lives, with the id in the address so a reload finds it again; `lectureId`
 * opens the lecture page at that lecture (where the learner stopped).
 */
export const courseLink = (path: string, course: Pick<Course, '_id'>, lectureId?: string) => ({
  pathname: path,
  search: `?id=${course._id}${lectureId ? `&lecture=${lectureId}` : ''}`,
});
