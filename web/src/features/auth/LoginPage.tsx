import { messages } from '@lms/contract/messages';
import { LoginSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { isServerError } from '../../lib/server-state';
import { nextPath } from '../../lib/next-path';
import { withNext } from '../../lib/with-next';
import { paths } from '../../lib/paths';
import { useAppDispatch } from '../../lib/store-hooks';
import { useAuth } from './auth.slice';
import { usePageTitle } from '../../lib/use-page-title';
import { FormCard } from '../../lib/components/FormCard';
import { FormField } from '../../lib/components/FormField';
import { missingFieldsText } from '../../lib/components/missing-fields';
import { Notice } from '../../lib/components/Notice';
import { PasswordField } from '../../lib/components/PasswordField';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { login } from './auth.api';

export default function LoginPage() {
  usePageTitle('Login');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  // Where to go once logged in: `?next=` or the route guard's `from`, if it is a path of ours.
  const next = nextPath(location.search, location.state);
  // A user already signed in when the page opens has nothing to do here. Read once: logging in
  // on this page signs the user in too, and then the page itself decides where to go.
  const isLoggedIn = useAuth((auth) => auth.isLoggedIn);
  const [signedInAtOpen] = useState(isLoggedIn);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // A lockout stays in view with its wait (and, past the account's limit, the mailed link); a toast would be gone long before.
  const [lockout, setLockout] = useState<string>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Both required ('Please fill all the details'); the text names what is missing.
    const missing = missingFieldsText(messages.fillAllDetails, [
      ['Email', email],
      ['Password', password],
    ]);
    if (missing) {
      toast.error(missing, { id: 'form-check' });
      return;
    }
    const check = LoginSchema.safeParse({ email, password });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    setBusy(true);
    setLockout(undefined);
    try {
      const user = await dispatch(login(check.data, { quiet: true }));
      // A password handed to the user (the initial administrator) must be replaced first.
      void navigate(user.mustChangePassword ? paths.changePassword : (next ?? paths.home), { replace: true });
    } catch (error) {
      if (!isServerError(error)) throw error;
      // The server's message, or the fallback: a lockout on the page, anything else as the API client shows it.
      if (error.status === 429) setLockout(error.message);
      else toast.error(error.message);
      setBusy(false);
    }
  }

  if (signedInAtOpen) return <Navigate to={paths.home} replace />;

  return (
    <FormCard title="Login">
      {next?.startsWith(paths.checkout) && <Notice role="note">{messages.loginToSubscribe}</Notice>}
      {lockout && (
        <p role="alert" className="alert alert-warning text-sm">
          {lockout}
        </p>
      )}
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        <FormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <PasswordField label="Password" name="password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <SubmitButton busy={busy}>Login</SubmitButton>
      </form>
      <Link to={paths.forgotPassword} className="link link-primary self-center">
        Forgot password
      </Link>
      <p className="text-center">
        Don&apos;t have an account?{' '}
        {/* In the middle of a journey (e.g. to /checkout), the other form takes this one's place and carries on to the same place. */}
        <Link to={withNext(paths.signup, next)} replace={Boolean(next)} className="link link-primary">
          Create account
        </Link>
      </p>
    </FormCard>
  );
}
