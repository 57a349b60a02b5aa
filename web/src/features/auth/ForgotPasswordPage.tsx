import { messages } from '@lms/contract/messages';
import { ForgotPasswordSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { isServerError } from '../../lib/server-state';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { FormCard } from '../../lib/components/FormCard';
import { FormField } from '../../lib/components/FormField';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { useAppDispatch } from '../../lib/store-hooks';
import { requestPasswordReset } from './auth.api';

export default function ForgotPasswordPage() {
  const dispatch = useAppDispatch();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  /** The server's answer, the same whether or not the account exists. */
  const [sent, setSent] = useState<string | null>(null);
  usePageTitle(messages.forgotPasswordTitle);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = ForgotPasswordSchema.safeParse({ email });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    setBusy(true);
    try {
      const answer = await dispatch(requestPasswordReset(check.data));
      setSent(answer.message ?? null);
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!isServerError(error)) throw error;
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormCard title={messages.forgotPasswordTitle}>
      <p>Enter the email of your account and we will send you a link to set a new password.</p>
      <div role="status">{sent && <p className="alert alert-info alert-soft">{sent}</p>}</div>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        <FormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <SubmitButton busy={busy}>Send reset link</SubmitButton>
      </form>
      <Link to={paths.login} className="link link-primary self-center">
        Back to login
      </Link>
    </FormCard>
  );
}
