import { EmailChangeSchema, type LearnerDetail } from '@lms/contract/learners';
import { useId, useState } from 'react';
import { ActionDialog } from '../../../lib/components/ActionDialog';
import { isServerError } from '../../../lib/server-state';
import { useEndAccountSessionsMutation } from '../../protection';
import { useChangeEmailMutation } from './actions.api';
import { actionsTexts as texts } from './actions-texts';
import { NoteField } from './NoteField';

/** A new email and why; the server mails a confirmation link to the new address. */
export function EmailDialog({ learner, onClose }: { learner: LearnerDetail; onClose: () => void }) {
  const { profile } = learner;
  const emailId = useId();
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [changeEmail, state] = useChangeEmailMutation();

  async function submit() {
    const check = EmailChangeSchema.safeParse({ email, note });
    if (!check.success) {
      const issue = check.error.issues[0]!;
      setError({ message: issue.message, field: String(issue.path[0]) });
      return false;
    }
    try {
      await changeEmail({ learnerId: profile._id, body: check.data }).unwrap();
      return true;
    } catch (refusal) {
      if (!isServerError(refusal)) throw refusal;
      setError({ message: refusal.message });
      return false;
    }
  }

  return (
    <ActionDialog
      title={texts.changeEmailTitle(profile.fullName)}
      intro={
        <>
          <p>{texts.changeEmailIntro(profile.email)}</p>
          {profile.pendingEmail && <p className="mt-1">{texts.pendingEmail(profile.pendingEmail)}</p>}
        </>
      }
      submitLabel={texts.changeEmailSubmit}
      cancelLabel={texts.cancel}
      closeLabel={texts.close}
      busy={state.isLoading}
      error={error?.message ?? null}
      onSubmit={submit}
      onClose={onClose}
    >
      <div className="fieldset">
        <label htmlFor={emailId} className="fieldset-legend text-sm">
          {texts.newEmail}
        </label>
        <input
          id={emailId}
          type="email"
          className={`input w-full ${error?.field === 'email' ? 'input-error' : ''}`}
          value={email}
          autoComplete="off"
          spellCheck={false}
          maxLength={254}
          autoFocus
          required
          aria-invalid={error?.field === 'email'}
          onChange={(event) => {
            setEmail(event.target.value);
            setError(null);
          }}
        />
      </div>
      <NoteField
        value={note}
        invalid={error?.field === 'note'}
        onChange={(value) => {
          setNote(value);
          setError(null);
        }}
      />
    </ActionDialog>
  );
}

/** Signs every device of the account out, once confirmed. */
export function EndSessionsDialog({ learner, onClose }: { learner: LearnerDetail; onClose: () => void }) {
  const { profile } = learner;
  const [error, setError] = useState<string | null>(null);
  const [endSessions, state] = useEndAccountSessionsMutation();

  async function submit() {
    try {
      await endSessions({ id: profile._id, quiet: true }).unwrap();
      return true;
    } catch (refusal) {
      if (!isServerError(refusal)) throw refusal;
      setError(refusal.message);
      return false;
    }
  }

  return (
    <ActionDialog
      title={texts.endSessionsTitle(profile.fullName)}
      intro={texts.endSessionsIntro(learner.sessions.length)}
      submitLabel={texts.endSessions}
      cancelLabel={texts.cancel}
      closeLabel={texts.close}
      destructive
      busy={state.isLoading}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    />
  );
}
