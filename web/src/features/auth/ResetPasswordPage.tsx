import { messages } from '@lms/contract/messages';
import { ResetPasswordSchema, ResetTokenParamsSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate, useParams } from 'react-router';
import { isServerError } from '../../lib/server-state';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { FormCard } from '../../lib/components/FormCard';
import { PasswordField } from '../../lib/components/PasswordField';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { useAppDispatch } from '../../lib/store-hooks';
import { resetPassword } from './auth.api';

export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  usePageTitle(messages.resetPasswordTitle);

  // A link that cannot be a reset link is answered at once, without a form that would only fail.
  if (!ResetTokenParamsSchema.safeParse({ token }).success) {
    return (
      <FormCard title={messages.resetPasswordTitle}>
        <p role="alert" className="alert alert-error">
          {messages.resetLinkInvalid}
        </p>
        <Link to={paths.forgotPassword} className="btn btn-primary">
          Ask for a new link
        </Link>
      </FormCard>
    );
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = ResetPasswordSchema.safeParse({ password });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    if (confirm !== password) {
      toast.error(confirm ? messages.passwordsDoNotMatch : messages.fillAllDetails, { id: 'form-check' });
      return;
    }
    setBusy(true);
    try {
      await dispatch(resetPassword(token, check.data));
      void navigate(paths.login, { replace: true });
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!isServerError(error)) throw error;
      setBusy(false);
    }
  }

  return (
    <FormCard title={messages.resetPasswordTitle}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        <PasswordField isNew label="New password" name="password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          name="confirmPassword"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <SubmitButton busy={busy}>Reset password</SubmitButton>
      </form>
    </FormCard>
  );
}
