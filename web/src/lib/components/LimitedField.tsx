import { messages } from '@lms/contract/messages';
import { useId, useState, type FormEvent } from 'react';

interface LimitedFieldProps {
  label: string;
  name: string;
  /** The most characters the server takes (read from the contract). */
  max: number;
  /** What the server would answer for a longer text (the contract's message). */
  tooLong: string;
  defaultValue?: string;
  multiline?: boolean;
  disabled?: boolean;
}

/**
 * A text field with a live "57/120" count. A longer text is kept as typed and said to be too long,
 * in words, under the field: never cut silently (a `maxLength` would drop the end of a paste).
 */
export function LimitedField({ label, name, max, tooLong, defaultValue = '', multiline = false, disabled }: LimitedFieldProps) {
  const id = useId();
  const [length, setLength] = useState(defaultValue.length);
  const over = length - max;
  const describedBy = over > 0 ? `${id}-count ${id}-error` : `${id}-count`;
  const common = {
    id,
    name,
    defaultValue,
    disabled,
    'aria-describedby': describedBy,
    'aria-invalid': over > 0 || undefined,
    onInput: (event: FormEvent<HTMLInputElement | HTMLTextAreaElement>) => setLength(event.currentTarget.value.length),
  };
  return (
    <div>
      <div className="mb-1 flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="label">
          {label}
        </label>
        <span id={`${id}-count`} className={`text-xs tabular-nums ${over > 0 ? 'font-semibold text-error' : 'text-base-content/70'}`}>
          {messages.charactersUsed(length, max)}
          <span className="sr-only"> characters</span>
        </span>
      </div>
      {multiline ? (
        <textarea {...common} className={`textarea h-32 w-full ${over > 0 ? 'textarea-error' : ''}`} />
      ) : (
        <input {...common} type="text" className={`input w-full ${over > 0 ? 'input-error' : ''}`} />
      )}
      {over > 0 && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-error">
          {tooLong} ({messages.charactersOver(over)})
        </p>
      )}
    </div>
  );
}
