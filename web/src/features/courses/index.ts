/** The catalogue as other features use it: its reads, the admin's delete, a course's card, the page's course. */
export { selectCourseList, useDeleteCourseMutation, useGetCoursesQuery, useGetCurriculumQuery, type CoursesQuery } from './courses.api';
export { CourseCard } from './CourseCard';
export { useCourse } from './use-course';
export { useMyCourses } from './my-courses';
export { CourseStateBadge, publishTime } from './CourseStateBadge';
export { CourseForm } from './CourseForm';
export { cacheSentCourse, useGetCourseQuery, usePublishCourseMutation, useUnpublishCourseMutation } from './courses.api';
