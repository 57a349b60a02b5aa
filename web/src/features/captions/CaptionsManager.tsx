import type { Caption } from '@lms/contract/captions';
import type { Lecture } from '@lms/contract/lectures';
import { lazy, Suspense, useEffect, useId, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import toast from 'react-hot-toast';
import { fileSize } from '../../lib/components/image-file';
import { formatDate } from '../../lib/format';
import { useAppDispatch } from '../../lib/store-hooks';
import { AddCaptionsForm, CAPTION_ACCEPT } from './AddCaptionsForm';
import { replaceCaption, useDeleteCaptionMutation, useGetCaptionsQuery, useUpdateCaptionMutation } from './captions.api';
import { captionsTexts as texts } from './captions-texts';
import { UploadProgress } from './UploadProgress';
import { PlusIcon } from '../../lib/components/icons';

// The editor (its player, its list of cues) loads when an admin opens it, not with the lecture page.
const CueEditor = lazy(() => import('./CueEditor').then((module) => ({ default: module.CueEditor })));

export type EditedLecture = Pick<Lecture, '_id' | 'title' | 'secure_url' | 'hls_url' | 'poster_url'>;

/**
 * Where an administrator manages a lecture's captions, beside its files: each language with its
 * label, tag, cue count and version; make default, rename in place, replace the file (with its
 * progress), edit the cues (the cue editor), delete (asked first); and a form to add a language.
 */
export function CaptionsManager({ courseId, lecture }: { courseId: string; lecture: EditedLecture }) {
  const ids = { courseId, lectureId: lecture._id };
  const answer = useGetCaptionsQuery(ids);
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string>();
  const data = answer.currentData;
  const captions = data?.captions ?? [];
  const full = data !== undefined && captions.length >= data.maxCaptions;
  const edited = captions.find((caption) => caption._id === editing);

  return (
    <section aria-labelledby={headingId} className="rounded-box border border-base-content/15 bg-base-100 p-3 sm:p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} ref={heading} tabIndex={-1} className="font-semibold outline-none">
          {texts.heading}
        </h3>
        {!adding && (
          <button ref={addButton} type="button" className="btn btn-sm btn-outline" disabled={!data || full} onClick={() => setAdding(true)}>
            <PlusIcon />
            {texts.add}
          </button>
        )}
      </div>
      {data && (
        <p className="mt-1 text-xs text-base-content/70">
          {full ? texts.full(data.maxCaptions) : texts.hint(fileSize(data.maxBytes), captions.length, data.maxCaptions)}
        </p>
      )}

      {answer.isError && !data && (
        <p role="alert" className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          {texts.listFailed}
          <button type="button" className="btn btn-ghost btn-xs" onClick={() => void answer.refetch()}>
            {texts.retry}
          </button>
        </p>
      )}
      {answer.isLoading && (
        <div aria-hidden="true" className="mt-3">
          <div className="skeleton h-14 w-full" />
        </div>
      )}
      {data && captions.length === 0 && !adding && <p className="mt-3 max-w-prose text-sm text-base-content/70">{texts.empty}</p>}

      {captions.length > 0 && (
        <ul className="mt-2 divide-y divide-base-content/10">
          {captions.map((caption) => (
            <CaptionRow
              key={caption._id}
              courseId={courseId}
              lectureId={lecture._id}
              caption={caption}
              maxBytes={data?.maxBytes ?? 0}
              onEditCues={() => setEditing(caption._id)}
              onDeleted={() => heading.current?.focus()}
            />
          ))}
        </ul>
      )}

      {adding && data && (
        <AddCaptionsForm
          courseId={courseId}
          lectureId={lecture._id}
          captions={captions}
          maxBytes={data.maxBytes}
          onDone={() => {
            setAdding(false);
            heading.current?.focus();
          }}
          onCancel={() => {
            setAdding(false);
            // The button is back once the form is gone.
            setTimeout(() => addButton.current?.focus());
          }}
        />
      )}

      {edited && (
        <Suspense fallback={null}>
          <CueEditor courseId={courseId} lecture={lecture} caption={edited} onClose={() => setEditing(undefined)} />
        </Suspense>
      )}
    </section>
  );
}

interface RowProps {
  courseId: string;
  lectureId: string;
  caption: Caption;
  maxBytes: number;
  onEditCues: () => void;
  onDeleted: () => void;
}

/** One language: what it is, and what may be done with it. */
function CaptionRow({ courseId, lectureId, caption, maxBytes, onEditCues, onDeleted }: RowProps) {
  const ids = { courseId, lectureId, captionId: caption._id };
  const dispatch = useAppDispatch();
  const [updateCaption, update] = useUpdateCaptionMutation();
  const [deleteCaption, removal] = useDeleteCaptionMutation();
  const [renaming, setRenaming] = useState<string>();
  const [upload, setUpload] = useState<{ name: string; fraction: number }>();
  const picker = useRef<HTMLInputElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const inFlight = useRef<AbortController>(undefined);
  useEffect(() => () => inFlight.current?.abort(), []);
  const updated = formatDate(caption.updatedAt);
  const busy = update.isLoading || removal.isLoading || upload !== undefined;
  /** Set as the rename field closes: the Rename button takes the focus once it is back, and enabled again after a save. */
  const [focusRename, setFocusRename] = useState(false);
  useEffect(() => {
    if (!focusRename || busy || renaming !== undefined) return;
    renameButton.current?.focus();
    setFocusRename(false);
  }, [focusRename, busy, renaming]);

  async function onRename() {
    const label = renaming?.trim();
    if (!label || label === caption.label) {
      stopRenaming();
      return;
    }
    const answer = await updateCaption({ ...ids, change: { label } });
    if (!('error' in answer)) stopRenaming();
  }
  function stopRenaming() {
    setRenaming(undefined);
    setFocusRename(true);
  }
  function onRenameKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      // Not the dialog's or the page's Escape: this one only leaves the field.
      event.stopPropagation();
      stopRenaming();
    }
  }

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!/\.(vtt|srt)$/i.test(file.name)) {
      toast.error(texts.wrongKind(file.name));
      return;
    }
    if (file.size > maxBytes) {
      toast.error(texts.tooLarge(fileSize(maxBytes), fileSize(file.size)));
      return;
    }
    const controller = new AbortController();
    inFlight.current = controller;
    setUpload({ name: file.name, fraction: 0 });
    try {
      await dispatch(replaceCaption(ids, { file }, { onProgress: (fraction) => setUpload({ name: file.name, fraction }), signal: controller.signal }));
    } catch (error) {
      // Refusals were shown by the client; a cancel is said here.
      if ((error as Error).name === 'AbortError') toast(texts.uploadCancelled);
    } finally {
      if (inFlight.current === controller) inFlight.current = undefined;
      setUpload(undefined);
    }
  }

  async function onDelete() {
    if (!window.confirm(texts.confirmRemove(caption.label, caption.language))) return;
    const answer = await deleteCaption(ids);
    if (!('error' in answer)) onDeleted();
  }

  return (
    <li className="py-3">
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
        <div className="min-w-0 flex-1 basis-48">
          {renaming === undefined ? (
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <span className="font-medium wrap-anywhere">{caption.label}</span>
              <code className="rounded bg-base-200 px-1.5 py-0.5 text-xs text-base-content/80">{caption.language}</code>
              {caption.isDefault && <span className="badge badge-sm badge-soft badge-primary">{texts.defaultBadge}</span>}
            </p>
          ) : (
            <form
              className="flex flex-wrap items-center gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                void onRename();
              }}
            >
              <input
                className="input input-sm min-w-0 flex-1 basis-40"
                value={renaming}
                maxLength={40}
                autoFocus
                aria-label={texts.newLabel(caption.label)}
                disabled={update.isLoading}
                onChange={(event) => setRenaming(event.target.value)}
                onKeyDown={onRenameKey}
              />
              <button type="submit" className="btn btn-primary btn-sm" disabled={update.isLoading}>
                {texts.save}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={stopRenaming}>
                {texts.cancel}
              </button>
            </form>
          )}
          <p className="mt-1 text-xs text-base-content/70">
            {[texts.cues(caption.cueCount), texts.version(caption.version), updated && texts.updated(updated)].filter(Boolean).join(' · ')}
          </p>
        </div>
        <button type="button" className="btn btn-sm btn-outline shrink-0" disabled={busy} aria-label={texts.editCuesOf(caption.label)} onClick={onEditCues}>
          <PencilIcon />
          {texts.editCues}
        </button>
      </div>
      <div className="mt-2 -ml-2 flex flex-wrap items-center gap-1">
        {!caption.isDefault && (
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            disabled={busy}
            aria-label={texts.makeDefaultOf(caption.label)}
            onClick={() => void updateCaption({ ...ids, change: { isDefault: true } })}
          >
            {texts.makeDefault}
          </button>
        )}
        {renaming === undefined && (
          <button
            ref={renameButton}
            type="button"
            className="btn btn-ghost btn-xs"
            disabled={busy}
            aria-label={texts.renameOf(caption.label)}
            onClick={() => setRenaming(caption.label)}
          >
            {texts.rename}
          </button>
        )}
        <input
          ref={picker}
          type="file"
          accept={CAPTION_ACCEPT}
          className="hidden"
          aria-label={texts.replaceOf(caption.label)}
          onChange={(event) => void onPick(event)}
        />
        <button
          type="button"
          className="btn btn-ghost btn-xs"
          disabled={busy}
          aria-label={texts.replaceOf(caption.label)}
          onClick={() => picker.current?.click()}
        >
          {texts.replace}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-xs text-error"
          disabled={busy}
          aria-label={texts.removeOf(caption.label)}
          onClick={() => void onDelete()}
        >
          {texts.remove}
        </button>
      </div>
      {upload && (
        <div className="mt-2">
          <UploadProgress name={upload.name} fraction={upload.fraction} onCancel={() => inFlight.current?.abort()} />
        </div>
      )}
    </li>
  );
}

function PencilIcon() {
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
      <path d="M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
    </svg>
  );
}
