/** The quiz editor's pieces the course editor's curriculum uses: the editor's address, a quiz's mark and words, deleting one. */
export { editQuizLink } from './editor/quiz-draft';
export { QuizIcon } from './editor/QuizIcon';
export { useDeleteQuizMutation } from './editor/quiz-editor.api';
export { quizEditorTexts } from './editor/quiz-editor-texts';
