import type { InputHTMLAttributes } from 'react';
import { FormField } from './FormField';

interface PasswordFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  /** A password being chosen: says the rule up front and lets password managers suggest one. */
  isNew?: boolean;
}

/** The rule of the contract's passwordPattern, said as a hint before anything is typed. */
const NEW_PASSWORD_HINT = '6 to 16 characters, with at least one number and one of !@#$%^&*';

export function PasswordField({ isNew = false, ...input }: PasswordFieldProps) {
  return (
    <FormField type="password" autoComplete={isNew ? 'new-password' : 'current-password'} hint={isNew ? NEW_PASSWORD_HINT : undefined} required {...input} />
  );
}
