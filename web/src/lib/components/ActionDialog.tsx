import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';

interface Props {
  title: string;
  /** What the action does, under the title. */
  intro?: ReactNode;
  submitLabel: string;
  cancelLabel: string;
  /** The name of the backdrop's button (a click outside closes, as Escape does). */
  closeLabel: string;
  busy: boolean;
  /** The refusal to show above the buttons (the server's words, or a field's check), or null. */
  error: string | null;
  /** Red for what cannot be undone (a refund, a suspension); the primary colour otherwise. */
  destructive?: boolean;
  /** Checks and sends; true when it is done and the dialog may close. */
  onSubmit: () => Promise<boolean>;
  /** The dialog has closed (done, cancelled, Escape or a click outside): its opener unmounts it. */
  onClose: () => void;
  children?: ReactNode;
}

/**
 * An administrator's action in a modal dialog, open while mounted: from the bottom on a phone,
 * centred from `sm`. A refusal is said inside it (role="alert") and keeps what was typed; while
 * the request is in flight nothing closes it and the submit is disabled, so one press is one request.
 * The browser's own close gives focus back to the button that opened it.
 */
export function ActionDialog({ title, intro, submitLabel, cancelLabel, closeLabel, busy, error, destructive = false, onSubmit, onClose, children }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const errorId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

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
    <dialog
      ref={dialog}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      aria-describedby={error ? errorId : undefined}
      // Escape waits while the request is in flight: its answer belongs in this dialog.
      onCancel={(event) => busy && event.preventDefault()}
      onClose={onClose}
    >
      <div className="modal-box sm:max-w-lg">
        <h2 id={titleId} className="text-xl font-bold wrap-anywhere">
          {title}
        </h2>
        {intro && <div className="mt-1 text-sm text-base-content/80 wrap-anywhere">{intro}</div>}
        <form noValidate onSubmit={(event) => void submit(event)} className="mt-2 flex flex-col">
          {children}
          {error && (
            <p id={errorId} role="alert" className="mt-3 flex items-start gap-2 rounded-box bg-error/10 px-3 py-2 text-sm text-base-content">
              <svg
                viewBox="0 0 24 24"
                width="18"
                height="18"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                className="mt-px shrink-0 text-error"
                aria-hidden="true"
              >
                <circle cx="12" cy="12" r="9" />
                <path d="M12 7v6M12 16.5v.5" />
              </svg>
              <span className="wrap-anywhere">{error}</span>
            </p>
          )}
          <div className="modal-action flex-wrap">
            <button type="button" className="btn btn-ghost" onClick={close} disabled={busy}>
              {cancelLabel}
            </button>
            <button type="submit" className={`btn ${destructive ? 'btn-error' : 'btn-primary'}`} disabled={busy} aria-busy={busy}>
              {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {submitLabel}
            </button>
          </div>
        </form>
      </div>
      {/* A click outside the box closes the dialog, as Escape does. */}
      <form method="dialog" className="modal-backdrop">
        <button disabled={busy}>{closeLabel}</button>
      </form>
    </dialog>
  );
}
