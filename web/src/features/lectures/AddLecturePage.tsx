import { DESCRIPTION_MAX, TITLE_MAX } from '@lms/contract/courses';
import { AddLectureSchema } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../lib/store-hooks';
import { useLeaveBlocker } from '../../lib/use-leave-blocker';
import { useCourse } from '../courses';
import { usePageTitle } from '../../lib/use-page-title';
import { useObjectUrl } from '../../lib/components/FilePreview';
import { LimitedField } from '../../lib/components/LimitedField';
import { missingFieldsText } from '../../lib/components/missing-fields';
import { addLecture } from './lectures.api';

/**
 * Title, description and a video; the upload shows its progress and can be cancelled; back
 * one page on success. The lecture may be a free preview, and leaving while the video uploads
 * asks first (in the app through the router, closing or reloading the tab through the browser).
 */
export default function AddLecturePage() {
  const course = useCourse();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [video, setVideo] = useState<File>();
  const preview = useObjectUrl(video);
  const [progress, setProgress] = useState<number>();
  /** The upload in flight, if any: what decides whether leaving asks first. */
  const upload = useRef<AbortController>(undefined);
  const uploading = progress !== undefined;
  const blocker = useLeaveBlocker(() => upload.current !== undefined);
  const blocked = blocker.state === 'blocked';
  usePageTitle(messages.addNewLecture);

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

  // Leaving the page by any way the router did not ask about still stops the upload.
  useEffect(() => () => upload.current?.abort(), []);

  if (!course)
    return (
      <p className="p-8 text-center" aria-live="polite">
        Loading the course…
      </p>
    );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    // Every field is required ('All fields are mandatory'); the text names what is missing.
    const missing = missingFieldsText(messages.allFieldsMandatory, [
      ['Title', String(form.get('title') ?? '')],
      ['Description', String(form.get('description') ?? '')],
      ['Video', video],
    ]);
    if (missing) {
      toast.error(missing, { id: 'form-check' });
      return;
    }
    const fields = AddLectureSchema.safeParse({
      title: form.get('title'),
      description: form.get('description'),
      preview: form.get('preview') === 'on' ? 'true' : 'false',
    });
    if (!fields.success || !video) {
      toast.error(fields.error?.issues[0]?.message ?? messages.allFieldsMandatory, { id: 'form-check' });
      return;
    }
    if (!video.type.startsWith('video/')) {
      toast.error(messages.videoType);
      return;
    }
    const body = new FormData();
    body.set('title', fields.data.title);
    body.set('description', fields.data.description);
    body.set('preview', String(fields.data.preview));
    body.set('lectures', video);
    const controller = new AbortController();
    upload.current = controller;
    setProgress(0);
    try {
      await dispatch(addLecture(course!._id, body, { onProgress: setProgress, signal: controller.signal }));
      upload.current = undefined;
      void navigate(-1);
    } catch (error) {
      if ((error as Error).name === 'AbortError') toast(messages.uploadCancelled);
    } finally {
      if (upload.current === controller) upload.current = undefined;
      setProgress(undefined);
    }
  }

  function leave() {
    upload.current?.abort();
    upload.current = undefined;
    blocker.proceed();
  }

  const percent = Math.round((progress ?? 0) * 100);
  return (
    <section className="mx-auto max-w-2xl px-4 py-8">
      <div className="card bg-base-100 shadow-lg ring-1 ring-base-content/10">
        <form className="card-body gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
          <div className="flex items-center gap-3">
            <button type="button" className="btn btn-circle btn-ghost btn-sm -ml-2" onClick={() => void navigate(-1)} aria-label="Go back">
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-5"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
              >
                <path d="M19 12H5M12 19l-7-7 7-7" />
              </svg>
            </button>
            <h1 className="card-title text-2xl">Add new lecture</h1>
          </div>
          <p className="text-base-content/80 wrap-anywhere">Course: {course.title}</p>
          <LimitedField label="Title" name="title" max={TITLE_MAX} tooLong={messages.titleTooLong} disabled={uploading} />
          <LimitedField label="Description" name="description" max={DESCRIPTION_MAX} tooLong={messages.descriptionTooLong} disabled={uploading} multiline />
          <label className="form-control">
            <span className="label mb-1 block">Video</span>
            <input
              name="lectures"
              type="file"
              accept="video/*"
              className="file-input w-full"
              disabled={uploading}
              onChange={(event) => setVideo(event.target.files?.[0])}
            />
          </label>
          {preview && <video src={preview} controls muted className="aspect-video w-full rounded-lg bg-black" aria-label="Preview of the chosen video" />}
          <FreePreviewField disabled={uploading} />
          {uploading && (
            <div className="space-y-2">
              <progress className="progress progress-primary w-full" value={percent} max={100} aria-label="Upload progress" />
              <p aria-live="polite">Uploading… {percent}%</p>
              <button type="button" className="btn btn-outline btn-error" onClick={() => upload.current?.abort()}>
                Cancel upload
              </button>
            </div>
          )}
          <button type="submit" className="btn btn-primary" disabled={uploading}>
            Add new lecture
          </button>
        </form>
      </div>
      {blocked && <LeaveDuringUpload onStay={() => blocker.reset()} onLeave={leave} />}
    </section>
  );
}

/** Whether the new lecture is a free preview that anyone may watch from the course page. */
function FreePreviewField({ disabled }: { disabled: boolean }) {
  const hintId = useId();
  return (
    <div className="rounded-box border border-base-content/15 p-3">
      <label className="flex cursor-pointer items-center gap-3 font-medium">
        <input type="checkbox" name="preview" className="checkbox checkbox-primary" disabled={disabled} aria-describedby={hintId} />
        {messages.freePreview}
      </label>
      <p id={hintId} className="mt-1 pl-9 text-sm text-base-content/70">
        {messages.previewHint}
      </p>
    </div>
  );
}

/** Asked when the admin goes elsewhere in the app while the video uploads: staying is the default. */
function LeaveDuringUpload({ onStay, onLeave }: { onStay: () => void; onLeave: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        onStay();
      }}
    >
      <div className="modal-box">
        <h2 id={titleId} className="text-lg font-bold">
          {messages.leaveUploadTitle}
        </h2>
        <p id={textId} className="py-3">
          {messages.leaveUploadText}
        </p>
        <div className="modal-action flex-wrap">
          <button type="button" className="btn btn-outline btn-error" onClick={onLeave}>
            {messages.leaveAndCancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={onStay} autoFocus>
            {messages.stayHere}
          </button>
        </div>
      </div>
    </dialog>
  );
}
