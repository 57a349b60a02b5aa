import type { Lecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { useEffect, useState } from 'react';
import { useDeleteLectureMutation, useRetryProcessingMutation, useSetLecturePreviewMutation } from './lectures.api';
import { ProcessingState } from './ProcessingState';
import { ReplaceVideoButton } from './ReplaceVideoButton';

/** Under each lecture of the list, for an admin: its processing state, the free-preview switch, Replace video, and Delete. */
export function LectureAdminTools({ courseId, lecture, onDeleted }: { courseId: string; lecture: Lecture; onDeleted: () => void }) {
  const [deleteLecture] = useDeleteLectureMutation();
  const [setPreview] = useSetLecturePreviewMutation();
  const [retryProcessing] = useRetryProcessingMutation();
  /**
   * Where the preview switch is going while the server is asked, and whether it has answered. The
   * switch shows that until the list holds the answer: the list is read again every few seconds
   * while a video is processed, and a read that left before the switch would move it back.
   */
  const [switching, setSwitching] = useState<{ to: boolean; answered: boolean } | null>(null);
  const ids = { courseId, lectureId: lecture._id };

  async function onDelete() {
    if (!window.confirm(`Delete the lecture "${lecture.title}"?`)) return;
    await deleteLecture(ids);
    onDeleted();
  }

  async function onTogglePreview(preview: boolean) {
    setSwitching({ to: preview, answered: false });
    const answer = await setPreview({ ...ids, preview });
    // Refused: back to what the list holds (the client has said why).
    setSwitching('error' in answer ? null : { to: preview, answered: true });
  }
  useEffect(() => {
    if (switching?.answered && lecture.preview === switching.to) setSwitching(null);
  }, [lecture.preview, switching]);
  const preview = switching?.to ?? lecture.preview;

  return (
    <>
      <div className="flex flex-wrap items-center gap-x-2 px-3">
        <div className="min-w-0 flex-1">
          <ProcessingState flush processing={lecture.processing} title={lecture.title} onRetry={() => void retryProcessing(ids)} />
        </div>
        <ReplaceVideoButton courseId={courseId} lecture={lecture} />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2 px-3 pb-2">
        <label className="flex cursor-pointer items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="toggle toggle-sm toggle-primary"
            checked={preview}
            disabled={switching !== null}
            aria-label={messages.previewOn(lecture.title)}
            onChange={(event) => void onTogglePreview(event.target.checked)}
          />
          {/* The switch's own words: a badge, as on the course page, when the lecture is a free preview. */}
          <span className={preview ? 'badge badge-sm badge-soft badge-primary' : 'text-base-content/70'}>{messages.freePreview}</span>
        </label>
        <button
          type="button"
          className="btn btn-ghost btn-sm text-error"
          onClick={() => void onDelete()}
          aria-label={`${messages.deleteLecture}: ${lecture.title}`}
        >
          {messages.deleteLecture}
        </button>
      </div>
    </>
  );
}
