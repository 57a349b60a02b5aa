import type { SignedInSession } from '@lms/contract/protection';
import { useEffect, useId, useRef, useState } from 'react';
import { formatDate } from '../../lib/format';
import { useGetSessionsQuery, useSignOutOtherSessionsMutation, useSignOutSessionMutation } from './sessions.api';
import { sessionsTexts as texts } from './sessions-texts';

/** What the confirmation asks about: one other device, or every other one. */
type Pending = { kind: 'one'; session: SignedInSession } | { kind: 'others'; count: number };

/**
 * On the profile: every browser signed in to the account (browser, system, address block, when it
 * signed in and was last active), this one marked, and signing out any other or all of them.
 */
export function SignedInDevices({ className = '' }: { className?: string }) {
  const headingId = useId();
  const sessions = useGetSessionsQuery();
  const [signOutSession] = useSignOutSessionMutation();
  const [signOutOthers] = useSignOutOtherSessionsMutation();
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((session) => !session.current);

  async function onConfirm() {
    if (!pending) return;
    setBusy(true);
    // The API client has shown the answer, or the refusal, as a toast.
    await (pending.kind === 'one' ? signOutSession(pending.session.id) : signOutOthers());
    setBusy(false);
    setPending(null);
  }

  return (
    <section aria-labelledby={headingId} className={`space-y-4 *:max-w-3xl ${className}`}>
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 basis-64">
          <h2 id={headingId} className="text-xl font-semibold">
            {texts.title}
          </h2>
          <p className="text-sm text-base-content/80">{texts.intro}</p>
        </div>
        {others.length > 0 && (
          <button type="button" className="btn btn-sm btn-outline btn-error max-sm:w-full" onClick={() => setPending({ kind: 'others', count: others.length })}>
            {texts.signOutOthers}
          </button>
        )}
      </div>
      {sessions.isLoading ? (
        <div className="skeleton h-24 w-full rounded-box" aria-hidden="true" />
      ) : sessions.isError ? (
        <p className="flex flex-wrap items-center gap-3 rounded-box bg-base-200 p-4 text-sm text-base-content/80" role="alert">
          {texts.loadFailed}
          <button type="button" className="btn btn-sm" onClick={() => void sessions.refetch()}>
            {texts.retry}
          </button>
        </p>
      ) : (
        <>
          <ul className="divide-y divide-base-content/10 rounded-box bg-base-100 shadow-sm ring-1 ring-base-content/10">
            {list.map((session) => (
              <SessionRow key={session.id} session={session} onSignOut={() => setPending({ kind: 'one', session })} />
            ))}
          </ul>
          {others.length === 0 && <p className="text-sm text-base-content/80">{texts.onlyThis}</p>}
        </>
      )}
      <ConfirmDialog pending={pending} busy={busy} onCancel={() => setPending(null)} onConfirm={() => void onConfirm()} />
    </section>
  );
}

function SessionRow({ session, onSignOut }: { session: SignedInSession; onSignOut: () => void }) {
  const device = texts.device(session);
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-3 p-4">
      <span className="grid size-11 shrink-0 place-items-center rounded-full bg-base-200 text-base-content/80" title={texts.deviceTypes[session.deviceType]}>
        <DeviceIcon type={session.deviceType} />
        <span className="sr-only">{texts.deviceTypes[session.deviceType]}</span>
      </span>
      <div className="min-w-0 flex-1 basis-48">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
          <span className="wrap-anywhere">{device}</span>
          {session.current && <span className="badge badge-sm badge-primary">{texts.thisDevice}</span>}
        </p>
        <p className="text-sm text-base-content/80 wrap-anywhere">
          <span className="sr-only">{texts.place}: </span>
          {session.place}
        </p>
        <p className="text-sm text-base-content/80">
          {texts.signedIn(formatDate(session.firstSeenAt) ?? '')} · {texts.active(session)}
        </p>
      </div>
      {!session.current && (
        <button type="button" className="btn btn-sm btn-outline max-sm:ml-15" aria-label={texts.signOutLabel(device)} onClick={onSignOut}>
          {texts.signOut}
        </button>
      )}
    </li>
  );
}

function ConfirmDialog({ pending, busy, onCancel, onConfirm }: { pending: Pending | null; busy: boolean; onCancel: () => void; onConfirm: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Kept while the dialog closes, so its words do not vanish before it does.
  const [shown, setShown] = useState<Pending | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (pending) {
      setShown(pending);
      if (element && !element.open) element.showModal();
    } else if (element?.open) element.close();
  }, [pending]);

  const title = shown?.kind === 'others' ? texts.confirmOthersTitle : texts.confirmOneTitle;
  const body =
    shown?.kind === 'others'
      ? texts.confirmOthers(shown.count)
      : shown?.kind === 'one'
        ? texts.confirmOne(texts.device(shown.session), shown.session.place)
        : '';
  const action = shown?.kind === 'others' ? texts.signOutOthers : texts.signOut;

  return (
    // Escape and the backdrop close it too (the browser says `close`).
    <dialog ref={dialog} className="modal modal-bottom sm:modal-middle" aria-labelledby={titleId} onClose={() => !busy && onCancel()}>
      <div className="modal-box">
        <h3 id={titleId} className="text-lg font-bold">
          {title}
        </h3>
        <p className="py-4">{body}</p>
        <div className="modal-action">
          <button type="button" className="btn" onClick={onCancel} disabled={busy}>
            {texts.cancel}
          </button>
          <button type="button" className="btn btn-error" onClick={onConfirm} disabled={busy} aria-busy={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {action}
          </button>
        </div>
      </div>
      <form method="dialog" className="modal-backdrop">
        <button disabled={busy}>{texts.close}</button>
      </form>
    </dialog>
  );
}

/** A computer, a phone or a tablet, outlined. */
function DeviceIcon({ type }: { type: SignedInSession['deviceType'] }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="22"
      height="22"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {type === 'mobile' ? (
        <>
          <rect x="7" y="2.5" width="10" height="19" rx="2" />
          <path d="M11 18.5h2" />
        </>
      ) : type === 'tablet' ? (
        <>
          <rect x="4.5" y="2.5" width="15" height="19" rx="2" />
          <path d="M11 18.5h2" />
        </>
      ) : (
        <>
          <rect x="2.5" y="4" width="19" height="12.5" rx="1.5" />
          <path d="M8.5 20.5h7M12 16.5v4" />
        </>
      )}
    </svg>
  );
}
