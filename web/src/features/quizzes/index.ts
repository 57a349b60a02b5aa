/** Quizzes as the course's lists show them: the way to a quiz, the words of its row, its icon. */
export { QuizIcon, quizLink, quizTakeTexts } from './take';
