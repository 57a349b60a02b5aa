import { SuspensionSchema } from '@lms/contract/protection';
import { useId, useState } from 'react';
import { ActionDialog } from '../../lib/components/ActionDialog';
import { isServerError } from '../../lib/server-state';
import { useSetSuspensionMutation } from './protection.api';
import { protectionTexts as texts } from './protection-texts';

/** Whose account, and whether it is suspended now (the dialog does the other). */
export interface SuspensionTarget {
  _id: string;
  fullName: string;
  email: string;
  suspended: boolean;
}

/**
 * Suspending an account asks why (the learner is mailed the reason, and the audit trail keeps it);
 * restoring one only asks to confirm. Open while mounted; a refusal is said inside it.
 */
export function SuspensionDialog({ account, onClose }: { account: SuspensionTarget; onClose: () => void }) {
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [setSuspension, state] = useSetSuspensionMutation();
  const suspend = !account.suspended;

  async function submit() {
    const check = SuspensionSchema.safeParse(suspend ? { suspended: true, reason } : { suspended: false });
    if (!check.success) {
      setError(check.error.issues[0]!.message);
      return false;
    }
    try {
      await setSuspension({ id: account._id, ...check.data }).unwrap();
      return true;
    } catch (refusal) {
      if (!isServerError(refusal)) throw refusal;
      setError(refusal.message);
      return false;
    }
  }

  return (
    <ActionDialog
      title={suspend ? texts.suspendTitle(account.fullName) : texts.restoreTitle(account.fullName)}
      intro={suspend ? texts.confirmSuspend(account.fullName, account.email) : texts.confirmRestore(account.fullName, account.email)}
      submitLabel={suspend ? texts.suspend : texts.restore}
      cancelLabel={texts.cancel}
      closeLabel={texts.close}
      destructive={suspend}
      busy={state.isLoading}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      {suspend && (
        <div className="fieldset">
          <label htmlFor={reasonId} className="fieldset-legend text-sm">
            {texts.reason}
          </label>
          <textarea
            id={reasonId}
            className={`textarea w-full ${error ? 'textarea-error' : ''}`}
            rows={3}
            maxLength={500}
            value={reason}
            autoFocus
            required
            aria-invalid={error !== null}
            aria-describedby={`${reasonId}-hint`}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
          <p id={`${reasonId}-hint`} className="label whitespace-normal">
            {texts.reasonHint}
          </p>
        </div>
      )}
    </ActionDialog>
  );
}
