import type { Lecture } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { useState } from 'react';
import { useDeleteLectureMutation, useRetryProcessingMutation, useSetLecturePreviewMutation } from './lecture.api';
import { ProcessingState } from './ProcessingState';

/** Under each lecture of the list, for an admin: its processing state, the free-preview switch, and Delete. */
export function LectureAdminTools({ courseId, lecture, onDeleted }: { courseId: string; lecture: Lecture; onDeleted: () => void }) {
  const [deleteLecture] = useDeleteLectureMutation();
  const [setPreview] = useSetLecturePreviewMutation();
  const [retryProcessing] = useRetryProcessingMutation();
  /** The preview switch is on its way to the server. */
  const [switching, setSwitching] = useState(false);
  const ids = { courseId, lectureId: lecture._id };

  async function onDelete() {
    if (!window.confirm(`Delete the lecture "${lecture.title}"?`)) return;
    await deleteLecture(ids);
    onDeleted();
  }

  async function onTogglePreview(preview: boolean) {
    setSwitching(true);
    try {
      await setPreview({ ...ids, preview });
    } finally {
      setSwitching(false);
    }
  }

  return (
    <>
      <ProcessingState processing={lecture.processing} title={lecture.title} onRetry={() => void retryProcessing(ids)} />
      <div className="flex flex-wrap items-center justify-between gap-2 px-3 pb-2">
        <label className="flex cursor-pointer items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="toggle toggle-sm toggle-primary"
            checked={lecture.preview}
            disabled={switching}
            aria-label={messages.previewOn(lecture.title)}
            onChange={(event) => void onTogglePreview(event.target.checked)}
          />
          {/* The switch's own words: a badge, as on the course page, when the lecture is a free preview. */}
          <span className={lecture.preview ? 'badge badge-sm badge-soft badge-primary' : 'text-base-content/70'}>{messages.freePreview}</span>
        </label>
        <button type="button" className="btn btn-ghost btn-sm text-error" onClick={() => void onDelete()} aria-label={`${messages.deleteLecture}: ${lecture.title}`}>
          {messages.deleteLecture}
        </button>
      </div>
    </>
  );
}
