import { ChangePasswordSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../app/api';
import { paths } from '../../app/paths';
import { FormCard } from '../../components/FormCard';
import { PasswordField } from '../../components/PasswordField';
import { SubmitButton } from '../../components/SubmitButton';
import { changePassword } from './auth.api';

export default function ChangePasswordPage() {
  const navigate = useNavigate();
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = ChangePasswordSchema.safeParse({ oldPassword, newPassword });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    setBusy(true);
    try {
      await changePassword(check.data);
      navigate(paths.profile);
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!(error instanceof ApiError)) throw error;
      setBusy(false);
    }
  }

  return (
    <FormCard title="Change password">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
        <PasswordField
          label="Old password"
          name="oldPassword"
          value={oldPassword}
          onChange={(e) => setOldPassword(e.target.value)}
        />
        <PasswordField
          isNew
          label="New password"
          name="newPassword"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
        />
        <SubmitButton busy={busy}>Change password</SubmitButton>
      </form>
      <Link to={paths.profile} className="link link-primary self-center">
        Back to profile
      </Link>
    </FormCard>
  );
}
