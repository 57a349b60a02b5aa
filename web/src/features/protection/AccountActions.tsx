import type { AccountSummary } from '@lms/contract/protection';
import { useState } from 'react';
import { useAuth } from '../auth';
import { useEndAccountSessionsMutation } from './protection.api';
import { protectionTexts as texts } from './protection-texts';
import { SuspensionDialog } from './SuspensionDialog';

/**
 * What an administrator does about an account found sharing or leaking: end its sessions (every
 * device signs in again), or suspend it (and restore it later). Each asks first; suspending asks
 * why, since the learner is mailed the reason. `describedBy` is
 * the id of what names the account, so that each button says whose it is.
 */
export function AccountActions({ account, describedBy }: { account: AccountSummary; describedBy?: string }) {
  const me = useAuth((auth) => auth.data?._id);
  const [endSessions, ending] = useEndAccountSessionsMutation();
  const [asking, setAsking] = useState(false);
  const busy = ending.isLoading;

  function onEndSessions() {
    if (!window.confirm(texts.confirmEndSessions(account.fullName, account.email))) return;
    // A failure is the API client's toast.
    endSessions({ id: account._id }).catch(() => undefined);
  }

  return (
    <div role="group" aria-label={texts.actionsFor(account.fullName)} className="flex flex-wrap gap-2">
      <button
        type="button"
        className="btn btn-outline btn-sm"
        disabled={busy || account.activeSessions === 0}
        aria-busy={ending.isLoading}
        aria-describedby={describedBy}
        onClick={onEndSessions}
      >
        {ending.isLoading ? (
          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        ) : (
          <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h9" />
          </svg>
        )}
        {texts.endSessions}
      </button>
      {/* Nobody suspends their own account: the server refuses it too. */}
      {account._id !== me && (
        <button
          type="button"
          // Neutral, not red: red outline text fails contrast on the grey rows of the dashboard.
          className="btn btn-outline btn-sm"
          disabled={busy}
          aria-haspopup="dialog"
          aria-describedby={describedBy}
          onClick={() => setAsking(true)}
        >
          <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            {account.suspended ? <path d="M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3" /> : <path d="M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8" />}
          </svg>
          {account.suspended ? texts.restore : texts.suspend}
        </button>
      )}
      {asking && <SuspensionDialog account={account} onClose={() => setAsking(false)} />}
    </div>
  );
}

/** An account's name, email and state, as both lists show it; `id` names the account for its actions. */
export function AccountLine({ account, id, as: Heading = 'h3' }: { account: AccountSummary; id: string; as?: 'h2' | 'h3' }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <div id={id} className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <Heading className="min-w-0 font-semibold wrap-anywhere">{account.fullName}</Heading>
        <a href={`mailto:${account.email}`} className="link link-hover min-w-0 text-sm break-all">
          {account.email}
        </a>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-xs text-base-content/80">
        {account.suspended && <span className="badge badge-sm badge-error">{texts.suspended}</span>}
        {account.role === 'ADMIN' && <span className="badge badge-sm badge-ghost">{texts.administrator}</span>}
        <span>{texts.sessions(account.activeSessions)}</span>
      </div>
    </div>
  );
}
