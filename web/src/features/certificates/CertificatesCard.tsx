import { CERTIFICATE_NAME_MAX, CertificateNameSchema, type Certificate } from '@lms/contract/certificates';
import { useEffect, useId, useRef, useState } from 'react';
import { formatDate } from '../../lib/format';
import { isServerError } from '../../lib/server-state';
import { CertificateActions } from './CertificateActions';
import { useChooseCertificateNameMutation, useGetMyCertificatesQuery } from './certificates.api';
import { certificatesTexts as texts } from './certificates-texts';

/** How often the list is read again while a certificate's PDF is being made (a job makes it within seconds). */
const ISSUING_POLL_MS = 3000;

/** On the profile: the learner's certificates, each to download and share, and the name printed on them. */
export function CertificatesCard({ className = '' }: { className?: string }) {
  const headingId = useId();
  const [issuing, setIssuing] = useState(false);
  const mine = useGetMyCertificatesQuery(undefined, { pollingInterval: issuing ? ISSUING_POLL_MS : 0 });
  const certificates = mine.data?.certificates ?? [];
  const nowIssuing = certificates.some((certificate) => certificate.state === 'issuing');
  useEffect(() => setIssuing(nowIssuing), [nowIssuing]);

  return (
    <section aria-labelledby={headingId} className={`space-y-4 *:max-w-3xl ${className}`}>
      <h2 id={headingId} className="text-xl font-semibold">
        {texts.heading}
      </h2>
      {mine.isLoading ? (
        <div className="skeleton h-24 w-full rounded-box" aria-hidden="true" />
      ) : !mine.data ? (
        <p role="alert" className="rounded-box bg-base-200 p-4 text-sm">
          {texts.loadMineFailed}
        </p>
      ) : (
        <>
          <CertificateName chosen={mine.data.name.chosen} suggested={mine.data.name.default} />
          {certificates.length === 0 ? (
            <p className="rounded-box bg-base-200 p-4 text-sm text-base-content/80">{texts.none}</p>
          ) : (
            <ul className="divide-y divide-base-content/10 rounded-box bg-base-100 shadow-sm ring-1 ring-base-content/10">
              {certificates.map((certificate) => (
                <CertificateRow key={certificate._id} certificate={certificate} onBeingMade={() => void mine.refetch()} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function CertificateRow({ certificate, onBeingMade }: { certificate: Certificate; onBeingMade: () => void }) {
  const revoked = certificate.revokedAt !== null;
  const issuing = certificate.state === 'issuing';
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3 p-4">
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold wrap-anywhere">{certificate.courseTitle}</h3>
        <p className="text-sm text-base-content/80">{texts.issued(formatDate(certificate.issuedAt) ?? '')}</p>
      </div>
      {/* The word carries the state; the dot adds the colour. */}
      <span className="badge badge-sm badge-ghost gap-1.5">
        <span className={`size-2 rounded-full ${revoked ? 'bg-error' : issuing ? 'bg-warning' : 'bg-success'}`} aria-hidden="true" />
        {revoked ? texts.revokedBadge : issuing ? texts.beingMade : texts.ready}
      </span>
      <div className="basis-full">
        {revoked ? (
          <p className="text-sm text-base-content/80">{texts.revokedOn(formatDate(certificate.revokedAt!) ?? '')}</p>
        ) : (
          <CertificateActions certificate={certificate} onBeingMade={onBeingMade} />
        )}
      </div>
    </li>
  );
}

/** The name printed on every certificate: chosen once (confirmed first), then shown as fixed. */
function CertificateName({ chosen, suggested }: { chosen: string | null; suggested: string }) {
  const [name, setName] = useState(suggested);
  const [error, setError] = useState('');
  const [choose, { isLoading }] = useChooseCertificateNameMutation();
  const dialog = useRef<HTMLDialogElement>(null);
  const inputId = useId();
  const noteId = useId();
  const errorId = useId();
  const titleId = useId();

  if (chosen !== null) {
    return (
      <div className="flex flex-wrap items-baseline gap-x-2 rounded-box bg-base-200 p-4 text-sm">
        <span className="text-base-content/80">{texts.nameFixed}:</span>
        <strong className="font-semibold wrap-anywhere">{chosen}</strong>
        <span className="basis-full text-xs text-base-content/70">{texts.nameFixedNote}</span>
      </div>
    );
  }

  function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const checked = CertificateNameSchema.safeParse({ name });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? texts.nameFailed);
      return;
    }
    setError('');
    dialog.current?.showModal();
  }

  async function onConfirm() {
    try {
      await choose({ name: name.trim() }).unwrap();
      dialog.current?.close();
    } catch (failure) {
      dialog.current?.close();
      setError(isServerError(failure) ? failure.message : texts.nameFailed);
    }
  }

  return (
    <div className="rounded-box bg-base-200 p-4">
      <form noValidate onSubmit={onSubmit}>
        <label htmlFor={inputId} className="text-sm font-semibold">
          {texts.nameLabel}
        </label>
        <p id={noteId} className="mt-0.5 text-sm text-base-content/80">
          {texts.nameNote}
        </p>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row">
          <input
            id={inputId}
            className={`input w-full sm:flex-1 ${error ? 'input-error' : ''}`}
            value={name}
            maxLength={CERTIFICATE_NAME_MAX}
            autoComplete="name"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${errorId} ${noteId}` : noteId}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={isLoading}>
            {texts.saveName}
          </button>
        </div>
        {error && (
          <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-error">
            {error}
          </p>
        )}
      </form>
      <dialog ref={dialog} className="modal modal-bottom sm:modal-middle" aria-labelledby={titleId}>
        <div className="modal-box">
          <h3 id={titleId} className="text-lg font-bold">
            {texts.confirmNameTitle}
          </h3>
          <p className="mt-4 font-serif text-2xl font-semibold wrap-anywhere">{name.trim()}</p>
          <p className="mt-3 text-sm text-base-content/80">{texts.confirmNameText}</p>
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => dialog.current?.close()} disabled={isLoading}>
              {texts.cancel}
            </button>
            <button type="button" className="btn btn-primary" onClick={() => void onConfirm()} disabled={isLoading} aria-busy={isLoading}>
              {isLoading && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {texts.confirmName}
            </button>
          </div>
        </div>
        <form method="dialog" className="modal-backdrop">
          <button disabled={isLoading}>{texts.close}</button>
        </form>
      </dialog>
    </div>
  );
}
