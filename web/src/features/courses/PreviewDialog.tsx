import type { CurriculumLecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { VideoPlayer } from '../../lib/components/VideoPlayer';
import { useEffect, useId, useRef, useState } from 'react';
import { clockDuration } from '../../lib/format';
import { resumePosition, useGetCourseProgressQuery } from '../progress';
import { useProgressTracking } from '../progress';
import { useAuth } from '../auth';
import { PlayIcon } from './PlayIcon';
import { useGetCaptionsQuery } from '../captions';

/** A free preview lecture, with the video URL the curriculum gives anyone. */
export type PlayablePreview = CurriculumLecture & { secure_url: string };

interface PreviewDialogProps {
  courseId: string;
  courseTitle: string;
  /** Every free preview of the course, to switch between them. */
  previews: PlayablePreview[];
  playing: PlayablePreview;
  onSelect: (lecture: PlayablePreview) => void;
  onClose: () => void;
  /** The video's URL was refused (out of date once its ladder is ready): fetch the curriculum again. */
  onVideoRefused?: () => void;
}

/**
 * A free preview in a modal dialog, playing at once (the click that opened it allows sound).
 * Escape, the close button or a click outside closes it, and the video stops: it is paused and
 * taken out of the page, so no sound plays on behind the course page.
 */
export function PreviewDialog({ courseId, courseTitle, previews, playing, onSelect, onClose, onVideoRefused }: PreviewDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const titleId = useId();
  // A signed-in viewer's place in a preview is kept, and resumed, as on the lecture page.
  const signedIn = useAuth((auth) => auth.isLoggedIn);
  const viewer = useAuth((auth) => auth.data?._id) ?? 'guest';
  // A free preview's captions are anyone's, as its video is: the CC menu, as on the lecture page (no room for a transcript).
  const captions = useGetCaptionsQuery({ courseId, lectureId: playing._id }).currentData?.captions;
  const progress = useGetCourseProgressQuery(courseId, { skip: !signedIn });
  const progressSettled = !signedIn || progress.isSuccess || progress.isError;
  const saved = progress.currentData?.lectures.find((row) => row.lectureId === playing._id);
  // Fixed once the progress is known, so that saves while it plays never restart the player.
  const [startAt, setStartAt] = useState<{ lectureId: string; at: number }>();
  useEffect(() => {
    if (!progressSettled) return;
    setStartAt((before) => (before?.lectureId === playing._id ? before : { lectureId: playing._id, at: resumePosition(playing.duration, saved) }));
  }, [progressSettled, playing._id, playing.duration, saved]);
  const openedAt = startAt?.lectureId === playing._id ? startAt.at : undefined;
  useProgressTracking({ video, lectureId: playing._id, courseId, enabled: signedIn && openedAt !== undefined });

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.querySelector('video')?.pause();
  }, []);

  function close() {
    video.current?.pause();
    if (dialog.current?.open) dialog.current.close();
    onClose();
  }

  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: closed our way, so the video stops and the page forgets the dialog.
        event.preventDefault();
        close();
      }}
    >
      <div className="modal-box w-[calc(100vw-1.5rem)] max-w-3xl overflow-hidden p-0">
        <div className="flex items-start justify-between gap-3 p-4 sm:px-6">
          <div className="min-w-0">
            <p className="text-sm font-semibold text-base-content/70">{messages.freePreview}</p>
            <h2 id={titleId} className="text-lg leading-snug font-bold wrap-anywhere sm:text-xl">
              {courseTitle}
            </h2>
          </div>
          <button type="button" className="btn btn-circle btn-ghost btn-sm shrink-0" onClick={close} aria-label={messages.closePreview}>
            <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {openedAt === undefined ? (
          <div className="skeleton aspect-video w-full rounded-none" aria-hidden="true" />
        ) : (
          <VideoPlayer
            key={playing._id}
            startAt={openedAt}
            autoPlay
            videoRef={video}
            src={playing.secure_url}
            hlsSrc={playing.hls_url}
            poster={playing.poster_url}
            label={messages.previewFor(playing.title)}
            onSourceRefused={onVideoRefused}
            captions={captions}
            viewer={viewer}
            className=""
            barClassName="px-4 pt-2 sm:px-6"
          />
        )}
        <div className="space-y-2 p-4 sm:px-6">
          <h3 className="font-semibold wrap-anywhere">{playing.title}</h3>
          {playing.description && <p className="text-sm whitespace-pre-line text-base-content/80 wrap-anywhere">{playing.description}</p>}
          {previews.length > 1 && (
            <div className="pt-2">
              <h3 className="mb-1 text-sm font-semibold text-base-content/70">{messages.morePreviews}</h3>
              <ul className="-mx-2">
                {previews.map((lecture) => (
                  <li key={lecture._id}>
                    <button
                      type="button"
                      className={`flex w-full cursor-pointer items-center gap-3 rounded-field px-2 py-2 text-left hover:bg-base-200 ${lecture._id === playing._id ? 'bg-primary/10 font-semibold text-primary' : ''}`}
                      aria-current={lecture._id === playing._id ? 'true' : undefined}
                      onClick={() => onSelect(lecture)}
                    >
                      <PlayIcon />
                      <span className="min-w-0 flex-1 wrap-anywhere">{lecture.title}</span>
                      {lecture.duration !== null && <span className="text-sm tabular-nums text-base-content/70">{clockDuration(lecture.duration)}</span>}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
      </div>
      <div className="modal-backdrop">
        <button type="button" tabIndex={-1} aria-hidden="true" onClick={close}>
          {messages.closePreview}
        </button>
      </div>
    </dialog>
  );
}
