/** The quiz results' pieces other features use: the course editor's link to the page. */
export { quizResultsTexts } from './results/quiz-results-texts';
