import { useId } from 'react';
import { actionsTexts as texts } from './actions-texts';

/** Why the administrator does it: every action on a learner says it, for the activity log. */
export function NoteField({
  value,
  onChange,
  invalid,
  hint = texts.noteHint,
  autoFocus = false,
}: {
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
  hint?: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <div className="fieldset">
      <label htmlFor={id} className="fieldset-legend text-sm">
        {texts.note}
      </label>
      <input
        id={id}
        type="text"
        className={`input w-full ${invalid ? 'input-error' : ''}`}
        value={value}
        maxLength={200}
        autoComplete="off"
        required
        autoFocus={autoFocus}
        aria-invalid={invalid}
        aria-describedby={`${id}-hint`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={`${id}-hint`} className="label whitespace-normal">
        {hint}
      </p>
    </div>
  );
}
