import { DESCRIPTION_MAX, TITLE_MAX } from '@lms/contract/courses';
import type { Lecture, UpdateLecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { useEffect, useId, useRef, type FormEvent } from 'react';
import { LimitedField } from '../../lib/components/LimitedField';
import { curriculumTexts as texts } from './curriculum-texts';

/**
 * A lecture's title, description and free-preview flag, edited in place under its row. Only what
 * changed is sent; Save with nothing changed, Cancel and Escape close it. A refusal (the server's
 * words, as a toast) keeps it open with what was typed.
 */
export function LectureEditForm({
  lecture,
  busy,
  onSave,
  onCancel,
}: {
  lecture: Lecture;
  busy: boolean;
  onSave: (change: UpdateLecture) => void;
  onCancel: () => void;
}) {
  const previewHintId = useId();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector<HTMLInputElement>('input[name="title"]')?.focus(), []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const fields = new FormData(event.currentTarget);
    const title = String(fields.get('title') ?? '').trim();
    const description = String(fields.get('description') ?? '').trim();
    const preview = fields.get('preview') === 'on';
    const change: UpdateLecture = {
      ...(title !== lecture.title && { title }),
      ...(description !== lecture.description && { description }),
      ...(preview !== lecture.preview && { preview }),
    };
    if (Object.keys(change).length === 0) onCancel();
    else onSave(change);
  }

  return (
    <form
      ref={form}
      noValidate
      aria-label={texts.editing(lecture.title)}
      className="mx-2 mb-2 space-y-3 rounded-box border border-base-content/15 bg-base-200/60 p-3"
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <LimitedField label={texts.title} name="title" max={TITLE_MAX} tooLong={messages.titleTooLong} defaultValue={lecture.title} disabled={busy} />
      <LimitedField
        label={texts.description}
        name="description"
        max={DESCRIPTION_MAX}
        tooLong={messages.descriptionTooLong}
        defaultValue={lecture.description}
        disabled={busy}
        multiline
      />
      <label className="flex cursor-pointer items-center gap-3 font-medium">
        <input
          type="checkbox"
          name="preview"
          className="checkbox checkbox-primary checkbox-sm"
          defaultChecked={lecture.preview}
          disabled={busy}
          aria-describedby={previewHintId}
        />
        {messages.freePreview}
      </label>
      <p id={previewHintId} className="-mt-2 pl-8 text-sm text-base-content/70">
        {messages.previewHint}
      </p>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel} disabled={busy}>
          {texts.cancel}
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy} aria-busy={busy}>
          {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {texts.save}
        </button>
      </div>
    </form>
  );
}
