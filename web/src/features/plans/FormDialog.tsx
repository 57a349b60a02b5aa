import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { adminTexts } from './plans-texts';

interface Props {
  title: string;
  submitLabel: string;
  busy: boolean;
  /** Checks and sends the form; true when it is done and the dialog may close. */
  onSubmit: () => Promise<boolean>;
  /** The dialog has closed (saved, cancelled, Escape or a click outside): the page unmounts it. */
  onClose: () => void;
  children: ReactNode;
}

/**
 * A form in a modal dialog, open while mounted: from the bottom on a phone, centred from `sm`. Its
 * submit is the view's one primary action; Cancel, Escape and a click outside close it. A refusal
 * (shown by the API client as the server's message) keeps it open with what was typed.
 */
export function FormDialog({ title, submitLabel, busy, onSubmit, onClose, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  // The browser's own close gives focus back to the button that opened the dialog.
  const close = () => {
    dialog.current?.close();
    onClose();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    if (await onSubmit()) close();
  }

  return (
    <dialog ref={dialog} className="modal modal-bottom sm:modal-middle" aria-labelledby={titleId} onClose={onClose}>
      <div className="modal-box sm:max-w-lg">
        <h2 id={titleId} className="text-xl font-bold wrap-anywhere">
          {title}
        </h2>
        <form noValidate onSubmit={(event) => void submit(event)} className="mt-2 flex flex-col">
          {children}
          <div className="modal-action flex-wrap">
            <button type="button" className="btn btn-ghost" onClick={close} disabled={busy}>
              {adminTexts.cancel}
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
              {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {submitLabel}
            </button>
          </div>
        </form>
      </div>
      {/* A click outside the box closes the dialog, as Escape does. */}
      <form method="dialog" className="modal-backdrop">
        <button disabled={busy}>{adminTexts.close}</button>
      </form>
    </dialog>
  );
}

interface ChoiceProps<T extends string> {
  legend: string;
  name: string;
  options: readonly T[];
  labelOf: (option: T) => string;
  value: T;
  onChange: (value: T) => void;
  hint?: string;
}

/** Radio buttons in a row (wrapping on a phone), quiet: the chosen one is marked, not coloured like an action. */
export function ChoiceField<T extends string>({ legend, name, options, labelOf, value, onChange, hint }: ChoiceProps<T>) {
  const hintId = useId();
  return (
    <fieldset className="fieldset" aria-describedby={hint ? hintId : undefined}>
      <legend className="fieldset-legend text-sm">{legend}</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {options.map((option) => (
          <label key={option} className="flex cursor-pointer items-center gap-2 text-sm">
            <input type="radio" name={name} value={option} className="radio radio-sm" checked={value === option} onChange={() => onChange(option)} />
            {labelOf(option)}
          </label>
        ))}
      </div>
      {hint && (
        <p id={hintId} className="label whitespace-normal">
          {hint}
        </p>
      )}
    </fieldset>
  );
}
