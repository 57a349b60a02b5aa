import { GrantAccessSchema, GRANT_DAYS_MAX, RevokeAccessSchema, type LearnerDetail } from '@lms/contract/learners';
import { useId, useState } from 'react';
import { ActionDialog } from '../../../lib/components/ActionDialog';
import { formatDate } from '../../../lib/format';
import { isServerError } from '../../../lib/server-state';
import { useGrantAccessMutation, useRevokeAccessMutation } from './actions.api';
import { actionsTexts as texts } from './actions-texts';
import { NoteField } from './NoteField';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A date of India's calendar (`2026-12-31`) as the pages show dates; midday, so no time zone moves it to another day. */
const dayOf = (date: string) => formatDate(`${date}T12:00:00+05:30`);

/** The grant in force, if any: one at a time. */
export const grantInForce = (learner: LearnerDetail) => learner.grants.find((grant) => grant.state === 'active');

/**
 * Complimentary access for a number of days or until a date, with a note; the dialog shows when it
 * would end before it is granted. A grant in force is replaced (the server ends it).
 */
export function GrantDialog({ learner, onClose }: { learner: LearnerDetail; onClose: () => void }) {
  const { profile } = learner;
  const extending = grantInForce(learner) !== undefined;
  const daysId = useId();
  const untilId = useId();
  const [by, setBy] = useState<'days' | 'until'>('days');
  const [days, setDays] = useState('30');
  const [until, setUntil] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<{ message: string; fields: string[] } | null>(null);
  const [grant, state] = useGrantAccessMutation();

  const body = by === 'days' ? { days: days.trim() === '' ? Number.NaN : Number(days), note } : { until, note };
  const check = GrantAccessSchema.safeParse(body);
  // What the learner would get, once the form says it.
  const ends = !check.success
    ? undefined
    : check.data.days !== undefined
      ? formatDate(new Date(Date.now() + check.data.days * DAY_MS).toISOString())
      : dayOf(check.data.until!);

  async function submit() {
    if (!check.success) {
      setError({ message: check.error.issues[0]!.message, fields: check.error.issues.map((issue) => String(issue.path[0])) });
      return false;
    }
    try {
      await grant({ learnerId: profile._id, body: check.data }).unwrap();
      return true;
    } catch (refusal) {
      if (!isServerError(refusal)) throw refusal;
      setError({ message: refusal.message, fields: [] });
      return false;
    }
  }
  const edited = () => setError(null);
  // The fields a check failed on (the message is the dialog's alert).
  const invalid = (field: string) => error?.fields.includes(field) ?? false;

  return (
    <ActionDialog
      title={extending ? texts.extendTitle(profile.fullName) : texts.grantTitle(profile.fullName)}
      intro={extending ? texts.extendIntro : texts.grantIntro}
      submitLabel={texts.grantSubmit}
      cancelLabel={texts.cancel}
      closeLabel={texts.close}
      busy={state.isLoading}
      error={error?.message ?? null}
      onSubmit={submit}
      onClose={onClose}
    >
      <fieldset className="fieldset">
        <legend className="fieldset-legend text-sm">{texts.grantFor}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-1">
          {(['days', 'until'] as const).map((choice) => (
            <label key={choice} className="flex cursor-pointer items-center gap-2 py-1">
              <input
                type="radio"
                name="grant-by"
                className="radio radio-sm"
                checked={by === choice}
                onChange={() => {
                  setBy(choice);
                  edited();
                }}
              />
              <span>{choice === 'days' ? texts.byDays : texts.byDate}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {by === 'days' ? (
        <div className="fieldset">
          <label htmlFor={daysId} className="fieldset-legend text-sm">
            {texts.days}
          </label>
          <input
            id={daysId}
            type="number"
            inputMode="numeric"
            min={1}
            max={GRANT_DAYS_MAX}
            step={1}
            className={`input w-32 ${invalid('days') ? 'input-error' : ''}`}
            value={days}
            autoFocus
            required
            aria-invalid={invalid('days')}
            onChange={(event) => {
              setDays(event.target.value);
              edited();
            }}
          />
        </div>
      ) : (
        <div className="fieldset">
          <label htmlFor={untilId} className="fieldset-legend text-sm">
            {texts.until}
          </label>
          <input
            id={untilId}
            type="date"
            className={`input w-48 ${invalid('until') ? 'input-error' : ''}`}
            value={until}
            required
            aria-invalid={invalid('until')}
            onChange={(event) => {
              setUntil(event.target.value);
              edited();
            }}
          />
        </div>
      )}
      <NoteField
        value={note}
        hint={texts.grantNoteHint}
        invalid={invalid('note')}
        onChange={(value) => {
          setNote(value);
          edited();
        }}
      />
      {ends && (
        <p className="mt-3 text-sm font-medium" role="status">
          {texts.grantEnds(ends)}
        </p>
      )}
    </ActionDialog>
  );
}

/** Ends the complimentary access in force now, with a note. */
export function RevokeDialog({ learner, onClose }: { learner: LearnerDetail; onClose: () => void }) {
  const { profile } = learner;
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [revoke, state] = useRevokeAccessMutation();
  const until = formatDate(grantInForce(learner)?.endsAt) ?? '';

  async function submit() {
    const check = RevokeAccessSchema.safeParse({ note });
    if (!check.success) {
      setError(check.error.issues[0]!.message);
      return false;
    }
    try {
      await revoke({ learnerId: profile._id, body: check.data }).unwrap();
      return true;
    } catch (refusal) {
      if (!isServerError(refusal)) throw refusal;
      setError(refusal.message);
      return false;
    }
  }

  return (
    <ActionDialog
      title={texts.revokeTitle(profile.fullName)}
      intro={texts.revokeIntro(until)}
      submitLabel={texts.revoke}
      cancelLabel={texts.cancel}
      closeLabel={texts.close}
      destructive
      busy={state.isLoading}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <NoteField
        value={note}
        autoFocus
        invalid={error !== null}
        onChange={(value) => {
          setNote(value);
          setError(null);
        }}
      />
    </ActionDialog>
  );
}
