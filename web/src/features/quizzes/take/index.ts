/** Quizzes as the course's lists show them: the way to a quiz, its row's words, its mark. */
export { quizLink } from './quiz-link';
export { quizTakeTexts } from './quiz-take-texts';
