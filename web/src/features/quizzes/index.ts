/** What other features use of quizzes: the course editor's links, a quiz's mark and words, deleting one. */
export { editQuizLink } from './editor/quiz-draft';
export { QuizIcon } from './editor/QuizIcon';
export { useDeleteQuizMutation } from './editor/quiz-editor.api';
export { quizEditorTexts } from './editor/quiz-editor-texts';
export { quizResultsTexts } from './results/quiz-results-texts';
