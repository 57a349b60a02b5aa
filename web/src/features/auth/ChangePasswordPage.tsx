import { messages } from '@lms/contract/messages';
import { ChangePasswordSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { isServerError } from '../../lib/server-state';
import { paths } from '../../lib/paths';
import { useAppDispatch } from '../../lib/store-hooks';
import { useAuth } from './auth.slice';
import { usePageTitle } from '../../lib/use-page-title';
import { FormCard } from '../../lib/components/FormCard';
import { PasswordField } from '../../lib/components/PasswordField';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { changePassword, logout, refreshUser } from './auth.api';

/**
 * The change-password page, linked from the profile. A user whose password was handed to
 * them (the initial administrator) is kept here until they choose their own (see Layout); then the
 * user is reloaded and an administrator goes on to the site's short setup, anyone else home.
 */
export default function ChangePasswordPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAuth((auth) => auth.data);
  const forced = user?.mustChangePassword === true;
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const title = forced ? messages.choosePasswordTitle : messages.changePasswordTitle;
  usePageTitle(title);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = ChangePasswordSchema.safeParse({ oldPassword, newPassword });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    setBusy(true);
    try {
      await dispatch(changePassword(check.data));
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!isServerError(error)) throw error;
      setBusy(false);
      return;
    }
    if (!forced) {
      void navigate(paths.profile);
      return;
    }
    // The server no longer holds this user back: learn it from `me`, or, should that fail, take its word.
    const fresh = await dispatch(refreshUser((stored) => ({ ...stored, mustChangePassword: false })));
    // The first administrator goes on to set up the site (its name, logo, colour, contact), each step skippable.
    void navigate(fresh?.role === 'ADMIN' ? paths.setup : paths.home, { replace: true });
  }

  async function onLogout() {
    await dispatch(logout()).catch(() => undefined);
    void navigate(paths.home);
  }

  return (
    <FormCard title={title}>
      {forced && (
        <div className="space-y-2">
          <p className="text-base-content/80">{messages.choosePasswordIntro}</p>
          <p className="text-sm">
            {messages.signedInAs} <strong className="wrap-anywhere">{user.email}</strong>
          </p>
        </div>
      )}
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        {/* For password managers: whose password this is. */}
        {user && <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />}
        <PasswordField
          label={forced ? messages.choosePasswordCurrent : 'Old password'}
          name="oldPassword"
          value={oldPassword}
          onChange={(e) => setOldPassword(e.target.value)}
        />
        <PasswordField isNew label="New password" name="newPassword" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} />
        <SubmitButton busy={busy}>{forced ? messages.choosePasswordSubmit : 'Change password'}</SubmitButton>
      </form>
      {forced ? (
        <button type="button" className="btn btn-ghost btn-sm self-center" onClick={() => void onLogout()}>
          Logout
        </button>
      ) : (
        <Link to={paths.profile} className="link link-primary self-center">
          Back to profile
        </Link>
      )}
    </FormCard>
  );
}
