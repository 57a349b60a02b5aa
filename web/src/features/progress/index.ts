/** The learner's progress, as the catalogue, the course and lecture pages, the home page and the profile show it. */
export { ContinueWatching } from './ContinueWatching';
export { CourseProgressBar } from './CourseProgressBar';
export {
  cacheSentProgress,
  cardProgress,
  resumePosition,
  useGetCourseProgressQuery,
  useMarkCompletedMutation,
  useMyCourses,
  useSetAutoplayNextMutation,
} from './progress.api';
export { progressTexts } from './progress-texts';
export { useProgressTracking } from './use-progress-tracking';
