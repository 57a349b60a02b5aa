import type { AdminCertificate } from '@lms/contract/certificates';
import { useEffect, useId, useRef, useState } from 'react';
import { certificatesAdminTexts as texts } from './certificates-admin-texts';

/** What the administrator is asked to confirm: revoking a certificate, or restoring it. */
export interface Revocation {
  certificate: AdminCertificate;
  revoke: boolean;
}

interface Props {
  revocation: Revocation | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * Asks before revoking or restoring: a revoked certificate's public page says so at once, to anyone
 * checking it. Open while `revocation` is set; Cancel, Escape and a click outside close it.
 */
export function ConfirmRevocation({ revocation, busy, onCancel, onConfirm }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Kept while the dialog closes, so its words do not vanish before it does.
  const [shown, setShown] = useState<Revocation | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (revocation) {
      setShown(revocation);
      if (element && !element.open) element.showModal();
    } else if (element?.open) element.close();
  }, [revocation]);

  const who = shown?.certificate.learner.fullName ?? '';
  const course = shown?.certificate.courseTitle ?? '';
  const revoke = shown?.revoke ?? true;

  return (
    // Escape and the backdrop close it too (the browser says `close`).
    <dialog ref={dialog} className="modal modal-bottom sm:modal-middle" aria-labelledby={titleId} onClose={() => !busy && onCancel()}>
      <div className="modal-box">
        <h2 id={titleId} className="text-lg font-bold">
          {revoke ? texts.revokeTitle : texts.restoreTitle}
        </h2>
        <p className="py-4 wrap-anywhere">{revoke ? texts.revokeBody(who, course) : texts.restoreBody(who, course)}</p>
        <div className="modal-action">
          <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
            {texts.cancel}
          </button>
          <button type="button" className={`btn ${revoke ? 'btn-error' : 'btn-primary'}`} onClick={onConfirm} disabled={busy} aria-busy={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {revoke ? texts.revoke : texts.restore}
          </button>
        </div>
      </div>
      <form method="dialog" className="modal-backdrop">
        <button disabled={busy}>{texts.close}</button>
      </form>
    </dialog>
  );
}
