import { useId, type InputHTMLAttributes } from 'react';

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  /** The visible label, tied to the input. */
  label: string;
  /** A line under the input, announced with it. */
  hint?: string;
}

/** A labelled text input in a daisyUI fieldset. Errors are toasts (spec), so there is no error slot. */
export function FormField({ label, hint, id, className = '', ...input }: FormFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  return (
    <div className="fieldset">
      <label htmlFor={inputId} className="fieldset-legend text-sm">
        {label}
      </label>
      <input id={inputId} className={`input w-full ${className}`} aria-describedby={hint ? hintId : undefined} {...input} />
      {hint && (
        <p id={hintId} className="label whitespace-normal">
          {hint}
        </p>
      )}
    </div>
  );
}
