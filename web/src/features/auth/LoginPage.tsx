import { LoginSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../app/api';
import { paths } from '../../app/paths';
import { useAppDispatch } from '../../app/store';
import { FormCard } from '../../components/FormCard';
import { FormField } from '../../components/FormField';
import { PasswordField } from '../../components/PasswordField';
import { SubmitButton } from '../../components/SubmitButton';
import { login } from './auth.api';

/** Where the route guard sent the visitor from (see RequireAuth), if it is a path of ours. */
function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : paths.home;
}

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = LoginSchema.safeParse({ email, password });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    setBusy(true);
    try {
      await dispatch(login(check.data));
      navigate(returnPath(location.state), { replace: true });
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!(error instanceof ApiError)) throw error;
      setBusy(false);
    }
  }

  return (
    <FormCard title="Login">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
        <FormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <PasswordField
          label="Password"
          name="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <SubmitButton busy={busy}>Login</SubmitButton>
      </form>
      <Link to={paths.forgotPassword} className="link link-primary self-center">
        Forgot password
      </Link>
      <p className="text-center">
        Don&apos;t have an account?{' '}
        <Link to={paths.signup} className="link link-primary">
          Create account
        </Link>
      </p>
    </FormCard>
  );
}
