import { messages } from '@lms/contract/messages';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { fileSize, isImageOf, showFileIn } from './image-file';

interface AvatarPickerProps {
  /** The visible label of the file input. */
  label: string;
  file: File | null;
  onChange: (file: File | null) => void;
  /** The input's accept list (the contract's AVATAR_ACCEPT). */
  accept: string;
  /** The largest picture the server takes (image-file.ts's imageMaxBytes()). */
  maxBytes: number;
  /** The form cannot be sent without a picture: said beside the label, and to assistive technology. */
  required?: boolean;
  /** Alt text of the preview image. */
  previewAlt: string;
  hint?: string;
  /** The picture in use now (edit profile), shown until a new file is chosen. */
  current?: { src: string; alt: string };
}

/**
 * A picture file input with a round live preview of the chosen file. A file larger than `maxBytes`,
 * or that is not a jpeg, png or svg picture (by its type and its first bytes), is refused at once,
 * under the input, before anything is uploaded, and the previous choice stays: `onChange` only ever
 * receives a picture the server will take.
 */
export function AvatarPicker({ label, file, onChange, accept, maxBytes, required = false, previewAlt, hint, current }: AvatarPickerProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const refusalId = `${id}-refusal`;
  const [preview, setPreview] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string>();

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const picked = input.files?.[0];
    if (!picked) {
      // The picker was cancelled: what was chosen before stays chosen.
      showFileIn(input, file);
      return;
    }
    const rule =
      picked.size > maxBytes
        ? messages.imageTooLarge(fileSize(maxBytes), fileSize(picked.size))
        : (await isImageOf(picked, ['jpeg', 'png', 'svg']))
          ? undefined
          : messages.avatarType;
    setRefusal(rule && messages.pickedFileRefused(picked.name, rule));
    if (rule) showFileIn(input, file);
    else onChange(picked);
  }

  // One object URL per chosen file, revoked when the file changes or the picker goes away.
  // Made in the effect, not during render, so StrictMode's extra mount/unmount cannot revoke a URL in use.
  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <div className="fieldset">
      <div className="flex justify-center">
        <div className="avatar avatar-placeholder">
          <div className="w-24 rounded-full bg-base-300 text-base-content ring-2 ring-base-300">
            {preview ? (
              <img src={preview} alt={previewAlt} />
            ) : current ? (
              <img src={current.src} alt={current.alt} />
            ) : (
              <svg viewBox="0 0 24 24" width="48" height="48" fill="currentColor" aria-hidden="true" focusable="false">
                <path d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v3h16v-3c0-2.8-3.6-5-8-5z" />
              </svg>
            )}
          </div>
        </div>
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={id} className="fieldset-legend text-sm">
          {label}
        </label>
        {/* The input's `required` says it to assistive technology; the word is for the eyes, outside the label's name. */}
        {required && (
          <span className="badge badge-sm badge-soft badge-primary" aria-hidden="true">
            {messages.required}
          </span>
        )}
      </div>
      <input
        id={id}
        type="file"
        accept={accept}
        required={required}
        className="file-input w-full"
        aria-describedby={[refusal && refusalId, hint && hintId].filter(Boolean).join(' ') || undefined}
        aria-invalid={refusal ? true : undefined}
        onChange={(event) => void onPick(event)}
      />
      {refusal && (
        <p id={refusalId} role="alert" className="text-sm break-words whitespace-normal text-error">
          {refusal}
        </p>
      )}
      {hint && (
        <p id={hintId} className="label whitespace-normal">
          {hint}
        </p>
      )}
    </div>
  );
}
