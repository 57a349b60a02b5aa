import type { QuizSummary } from '@lms/contract/quizzes';
import { Link } from 'react-router';
import { editQuizLink, QuizIcon, quizEditorTexts as texts, useDeleteQuizMutation } from '../quizzes';

/**
 * A quiz in the curriculum editor, at its place among the lectures: its mark, title and size, and
 * Edit (the quiz editor) and Delete. Quizzes are not dragged: their place is chosen in the editor,
 * and one placed after a lecture follows it when the lecture moves.
 */
export function EditorQuiz({ courseId, quiz }: { courseId: string; quiz: QuizSummary }) {
  const [deleteQuiz, deleting] = useDeleteQuizMutation();

  function onDelete() {
    if (!window.confirm(texts.confirmDeleteRow(quiz.title))) return;
    void deleteQuiz({ courseId, quizId: quiz._id });
  }

  return (
    <li aria-label={texts.quizRowOf(quiz.title)} className="bg-base-100 px-2 py-2.5 sm:px-3">
      <div className="flex items-start gap-2">
        <span className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-field bg-primary/10 text-primary">
          <QuizIcon />
        </span>
        <div className="min-w-0 flex-1 pt-0.5">
          <p className="font-medium wrap-anywhere">{quiz.title}</p>
          <p className="text-sm text-base-content/70">
            {[
              texts.questionCount(quiz.questionCount),
              texts.passMarkShort(quiz.passMark),
              quiz.timeLimitMinutes !== null && texts.minutesShort(quiz.timeLimitMinutes),
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        </div>
        <span className="mt-1 badge badge-sm shrink-0 badge-outline">{texts.quizBadge}</span>
      </div>
      <div className="mt-1.5 flex flex-wrap items-center gap-1 sm:pl-9">
        <Link to={editQuizLink(courseId, { quizId: quiz._id })} className="btn btn-ghost btn-xs" aria-label={texts.editOf(quiz.title)}>
          {texts.edit}
        </Link>
        <button
          type="button"
          className="btn btn-ghost btn-xs text-error"
          disabled={deleting.isLoading}
          aria-label={texts.deleteOf(quiz.title)}
          onClick={onDelete}
        >
          {texts.delete}
        </button>
      </div>
    </li>
  );
}
