import type { LearnerCourse } from '@lms/contract/progress';
import { useEffect } from 'react';
import { cardProgress, useMyCourses } from '../progress';
import type { MyCourses } from './my-courses';

const NO_COURSES: LearnerCourse[] = [];

/** Reads the signed-in learner's courses and hands them to the page (see `useMyCourses` in my-courses.tsx). */
export default function MyCoursesReader({ onChange }: { onChange: (mine: MyCourses) => void }) {
  const { courses } = useMyCourses();
  // The same list until an answer arrives: a new empty one each render would hand it over again and again.
  const list = courses.length > 0 ? courses : NO_COURSES;
  useEffect(() => onChange({ byCourse: new Map(list.map((item) => [item.courseId, item])), cardProgress }), [list, onChange]);
  return null;
}
