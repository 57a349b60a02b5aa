import type { Lecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { CaptionsManager } from '../captions';
import { LectureResources, ReplaceVideoButton, useDeleteLectureMutation } from '../lectures';
import { editQuizLink, quizEditorTexts } from '../quizzes';

export const toolTexts = {
  files: 'Files',
  filesOf: (title: string) => `Files of “${title}”`,
  captions: 'Captions',
  captionsOf: (title: string) => `Captions of “${title}”`,
  confirmDelete: (title: string) => `Delete the lecture "${title}"? Its video, its files and its learners' progress in it go with it.`,
};

/**
 * What the course editor adds to each lecture's row: its files and its captions (each in a panel
 * opened on demand, so a long curriculum does not ask for every lecture's), a new video, a quiz
 * right after it, and deleting it. Laid out for the row's wrapping flex line; the files' panel takes a line of its own.
 */
export function EditorLectureTools({ courseId, lecture }: { courseId: string; lecture: Lecture }) {
  const panelId = useId();
  const captionsPanelId = useId();
  const [filesOpen, setFilesOpen] = useState(false);
  const [captionsOpen, setCaptionsOpen] = useState(false);
  const [deleteLecture, deleting] = useDeleteLectureMutation();

  function onDelete() {
    if (!window.confirm(toolTexts.confirmDelete(lecture.title))) return;
    void deleteLecture({ courseId, lectureId: lecture._id });
  }

  return (
    <>
      <button
        type="button"
        className={`btn btn-ghost btn-xs ${filesOpen ? 'btn-active' : ''}`}
        aria-expanded={filesOpen}
        aria-controls={panelId}
        aria-label={toolTexts.filesOf(lecture.title)}
        onClick={() => setFilesOpen((open) => !open)}
      >
        {toolTexts.files}
      </button>
      <button
        type="button"
        className={`btn btn-ghost btn-xs ${captionsOpen ? 'btn-active' : ''}`}
        aria-expanded={captionsOpen}
        aria-controls={captionsPanelId}
        aria-label={toolTexts.captionsOf(lecture.title)}
        onClick={() => setCaptionsOpen((open) => !open)}
      >
        {toolTexts.captions}
      </button>
      <Link
        to={editQuizLink(courseId, { afterLectureId: lecture._id })}
        className="btn btn-ghost btn-xs"
        aria-label={quizEditorTexts.addQuizAfterOf(lecture.title)}
      >
        {quizEditorTexts.addQuizAfter}
      </Link>
      <button
        type="button"
        className="btn btn-ghost btn-xs text-error"
        disabled={deleting.isLoading}
        aria-label={`${messages.deleteLecture}: ${lecture.title}`}
        onClick={onDelete}
      >
        {messages.deleteLecture}
      </button>
      <ReplaceVideoButton courseId={courseId} lecture={lecture} />
      {filesOpen && (
        <div id={panelId} className="mt-2 w-full basis-full rounded-field border border-base-300 p-3">
          <LectureResources courseId={courseId} lecture={lecture} canEdit />
        </div>
      )}
      {captionsOpen && (
        <div id={captionsPanelId} className="mt-2 w-full basis-full rounded-field border border-base-300 p-3">
          <CaptionsManager courseId={courseId} lecture={lecture} />
        </div>
      )}
    </>
  );
}
