import type { Lecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { useAppDispatch } from '../../lib/store-hooks';
import { lectureLengthsStale, lectureListStale, replaceLectureVideo, useRetryProcessingMutation } from './lectures.api';
import { ProcessingState } from './ProcessingState';
import { replaceVideoTexts as texts } from './replace-video-texts';

/** How often the lecture list is read again while the new video is processed, as the lecture page does for uploads. */
const POLL_MS = 3000;

/**
 * The admin's "Replace video" for one lecture: picks a video file, uploads it with a progress bar
 * (which Cancel stops), then shows where the new video is in the pipeline until it plays in the
 * current one's place. The lecture keeps its id, place and learners' progress (the server's rules).
 *
 * Made for a wrapping flex row (the lecture page puts it on the line of the video's state): the
 * button sits at the row's end, and the upload's or the new video's state takes a line of its own
 * below the row's other items.
 */
export function ReplaceVideoButton({ courseId, lecture }: { courseId: string; lecture: Lecture }) {
  const dispatch = useAppDispatch();
  const [retryProcessing] = useRetryProcessingMutation();
  const picker = useRef<HTMLInputElement>(null);
  /** The upload in flight, if any. */
  const upload = useRef<AbortController>(undefined);
  const [progress, setProgress] = useState<number>();
  const uploading = progress !== undefined;
  const { replacement } = lecture;
  const underWay = replacement?.state === 'waiting' || replacement?.state === 'processing';

  // Whatever page shows the lecture, its list is read again until the new video is ready.
  useEffect(() => {
    if (!underWay) return;
    const timer = setInterval(() => dispatch(lectureListStale(courseId)), POLL_MS);
    return () => clearInterval(timer);
  }, [underWay, courseId, dispatch]);

  // Swapped in: the lecture's length may have changed, and the admin is told the new video plays.
  const hadReplacement = useRef(replacement !== null);
  useEffect(() => {
    if (replacement !== null) {
      hadReplacement.current = true;
      return;
    }
    if (!hadReplacement.current) return;
    hadReplacement.current = false;
    dispatch(lectureLengthsStale(courseId));
    toast.success(texts.replaced(lecture.title));
  }, [replacement, courseId, dispatch, lecture.title]);

  useEffect(() => {
    if (!uploading) return;
    // Closing or reloading the tab: the browser's own "Leave site?" question.
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [uploading]);
  // Leaving the page stops the upload: nothing is replaced.
  useEffect(() => () => upload.current?.abort(), []);

  async function onChoose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be chosen again after a refusal or a cancel.
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('video/')) {
      toast.error(messages.videoType);
      return;
    }
    if (!window.confirm(texts.confirm(lecture.title, file.name))) return;
    const body = new FormData();
    body.set('lectures', file);
    const controller = new AbortController();
    upload.current = controller;
    setProgress(0);
    try {
      await dispatch(replaceLectureVideo({ courseId, lectureId: lecture._id }, body, { onProgress: setProgress, signal: controller.signal }));
    } catch (error) {
      // A refusal has been shown by the client; a cancel is said here.
      if ((error as Error).name === 'AbortError') toast(messages.uploadCancelled);
    } finally {
      if (upload.current === controller) upload.current = undefined;
      setProgress(undefined);
    }
  }

  const percent = Math.round((progress ?? 0) * 100);
  return (
    <>
      {(uploading || replacement) && (
        <div className="order-last basis-full" role="group" aria-label={texts.newVideoOf(lecture.title)}>
          {uploading ? (
            <div className="pb-1 text-xs">
              <div className="flex flex-wrap items-center justify-between gap-x-2">
                <span className="tabular-nums" aria-live="polite">
                  {texts.uploading(percent)}
                </span>
                <button type="button" className="btn btn-ghost btn-xs" onClick={() => upload.current?.abort()}>
                  {texts.cancelUpload}
                </button>
              </div>
              <progress className="progress progress-primary block h-1.5 w-full" value={percent} max={100} aria-label={texts.uploadProgressOf(lecture.title)} />
            </div>
          ) : (
            replacement && (
              <>
                <p className="pb-0.5 text-xs">
                  <span className="font-semibold">{texts.newVideo}</span>{' '}
                  <span className="text-base-content/70">· {replacement.state === 'failed' ? texts.currentKeepsPlaying : texts.currentPlaysUntilReady}</span>
                </p>
                <ProcessingState
                  flush
                  processing={replacement}
                  title={lecture.title}
                  onRetry={() => void retryProcessing({ courseId, lectureId: lecture._id })}
                />
              </>
            )
          )}
        </div>
      )}
      <button
        type="button"
        className="btn btn-ghost btn-xs ml-auto"
        disabled={uploading}
        onClick={() => picker.current?.click()}
        aria-label={texts.replaceVideoOf(lecture.title)}
      >
        {texts.replaceVideo}
      </button>
      <input ref={picker} type="file" accept="video/*" hidden aria-label={texts.chooseVideoFor(lecture.title)} onChange={(event) => void onChoose(event)} />
    </>
  );
}
