import { paths } from '../../../lib/paths';

/** Where a quiz of a course is taken (`?id=` the course, `&quiz=` the quiz). */
export const quizLink = (courseId: string, quizId: string) => ({ pathname: paths.quiz, search: `?id=${courseId}&quiz=${quizId}` });
