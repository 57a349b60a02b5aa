import { RESOURCE_KINDS } from '@lms/contract/media';
import type { Lecture } from '@lms/contract/lectures';
import type { Resource } from '@lms/contract/resources';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { fileSize } from '../../lib/components/image-file';
import { useAppDispatch } from '../../lib/store-hooks';
import { attachResource, useDeleteResourceMutation, useGetResourcesQuery } from './resources.api';
import { resourcesTexts as texts } from './resources-texts';

/** What the file picker offers: the endings and types the server takes (it judges the content itself). */
const ACCEPT = Object.entries(RESOURCE_KINDS)
  .flatMap(([mime, endings]) => [mime, ...endings.map((ending) => `.${ending}`)])
  .join(',');

/**
 * A lecture's files (handouts, slides, exercises), each with its type and size and a link that
 * downloads it. For an administrator (`canEdit`), "Attach file" with the upload's progress and a
 * cancel, and Remove (asked first). A learner sees the section only when the lecture has files.
 */
export function LectureResources({ courseId, lecture, canEdit }: { courseId: string; lecture: Pick<Lecture, '_id' | 'title'>; canEdit: boolean }) {
  const ids = { courseId, lectureId: lecture._id };
  const answer = useGetResourcesQuery(ids);
  const [deleteResource] = useDeleteResourceMutation();
  const dispatch = useAppDispatch();
  const picker = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const hintId = useId();
  const [upload, setUpload] = useState<{ name: string; fraction: number }>();
  const [removing, setRemoving] = useState<string>();
  /** The upload in flight, if any: leaving the lecture stops it. */
  const inFlight = useRef<AbortController>(undefined);
  useEffect(() => () => inFlight.current?.abort(), []);

  const data = answer.currentData;
  const resources = data?.resources ?? [];
  if (!canEdit && resources.length === 0) return null;
  const full = data !== undefined && resources.length >= data.maxFiles;

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be picked again after a refusal.
    event.target.value = '';
    if (!file || !data) return;
    if (file.size > data.maxBytes) {
      toast.error(texts.tooLarge(fileSize(data.maxBytes), fileSize(file.size)));
      return;
    }
    const controller = new AbortController();
    inFlight.current = controller;
    setUpload({ name: file.name, fraction: 0 });
    try {
      await dispatch(attachResource(ids, file, { onProgress: (fraction) => setUpload({ name: file.name, fraction }), signal: controller.signal }));
    } catch (error) {
      // Refusals were shown by the client; a cancel is said here.
      if ((error as Error).name === 'AbortError') toast(texts.uploadCancelled);
    } finally {
      if (inFlight.current === controller) inFlight.current = undefined;
      setUpload(undefined);
    }
  }

  async function onRemove(resource: Resource) {
    if (!window.confirm(texts.confirmRemove(resource.name))) return;
    setRemoving(resource._id);
    const removed = await deleteResource({ ...ids, resourceId: resource._id });
    setRemoving(undefined);
    // Its button is gone: focus goes back to the section rather than to the top of the page.
    if (!('error' in removed)) heading.current?.focus();
  }

  const percent = Math.round((upload?.fraction ?? 0) * 100);
  return (
    <section aria-labelledby={headingId} className="rounded-box border border-base-content/15 bg-base-100 p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} ref={heading} tabIndex={-1} className="font-semibold outline-none">
          {texts.heading}
        </h3>
        {canEdit && (
          <>
            <input ref={picker} type="file" accept={ACCEPT} className="hidden" aria-label={texts.attach} onChange={(event) => void onPick(event)} />
            <button
              type="button"
              className="btn btn-sm btn-outline"
              disabled={!data || upload !== undefined || full}
              aria-describedby={hintId}
              onClick={() => picker.current?.click()}
            >
              <PaperclipIcon />
              {texts.attach}
            </button>
          </>
        )}
      </div>
      {canEdit && data && (
        <p id={hintId} className="mt-1 text-xs text-base-content/70">
          {full ? texts.full(data.maxFiles) : texts.attachHint(fileSize(data.maxBytes))}
        </p>
      )}

      {canEdit && answer.isError && !data && (
        <p role="alert" className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          {texts.loadFailed}
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => void answer.refetch()}>
            {texts.retry}
          </button>
        </p>
      )}
      {canEdit && answer.isLoading && (
        <div aria-hidden="true" className="mt-3 space-y-2">
          <div className="skeleton h-10 w-full" />
        </div>
      )}
      {canEdit && data && resources.length === 0 && !upload && <p className="mt-3 text-sm text-base-content/70">{texts.noFiles}</p>}

      {resources.length > 0 && (
        <ul className="mt-2 divide-y divide-base-content/10">
          {resources.map((resource) => (
            <li key={resource._id} className="flex items-center gap-3 py-2">
              <KindMark mime={resource.mime} />
              <div className="min-w-0 flex-1">
                <a
                  href={resource.url}
                  download={resource.name}
                  className="link link-hover font-medium wrap-anywhere"
                  aria-label={texts.download(resource.name)}
                >
                  {resource.name}
                </a>
                <p className="text-xs text-base-content/70">
                  {texts.kinds[resource.mime] ?? resource.mime} · {fileSize(resource.bytes)}
                </p>
              </div>
              {canEdit && (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm shrink-0 text-error"
                  disabled={removing === resource._id}
                  aria-label={texts.removeFile(resource.name)}
                  onClick={() => void onRemove(resource)}
                >
                  {texts.remove}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      {upload && (
        <div className="mt-3 space-y-2">
          <progress className="progress progress-primary w-full" value={percent} max={100} aria-label={texts.uploadProgress} />
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p aria-live="polite" className="min-w-0 text-sm wrap-anywhere">
              {texts.uploading(upload.name, percent)}
            </p>
            <button type="button" className="btn btn-ghost btn-sm text-error" onClick={() => inFlight.current?.abort()}>
              {texts.cancelUpload}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

/** The file's kind at a glance: its short name on a tile (PDF, ZIP, IMG, TXT). */
function KindMark({ mime }: { mime: string }) {
  const short = mime.startsWith('image/')
    ? 'IMG'
    : mime === 'text/plain'
      ? 'TXT'
      : (RESOURCE_KINDS[mime as keyof typeof RESOURCE_KINDS]?.[0]?.toUpperCase() ?? 'FILE');
  return (
    <span
      aria-hidden="true"
      className="grid size-10 shrink-0 place-items-center rounded-field bg-primary/10 text-[0.65rem] font-bold tracking-wide text-primary"
    >
      {short}
    </span>
  );
}

function PaperclipIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
    </svg>
  );
}
