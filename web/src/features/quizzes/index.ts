/** What other features use of quizzes: a quiz's mark, the way to take one and its row's words, the course editor's links, deleting one. */
export { QuizIcon } from './QuizIcon';
export { quizLink, quizTakeTexts } from './take';
export { editQuizLink } from './editor/quiz-draft';
export { useDeleteQuizMutation } from './editor/quiz-editor.api';
export { quizEditorTexts } from './editor/quiz-editor-texts';
export { quizResultsTexts } from './results/quiz-results-texts';
