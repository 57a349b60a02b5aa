import { messages } from '@lms/contract/messages';
import { SignInTokenParamsSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isServerError } from '../../lib/server-state';
import { paths } from '../../lib/paths';
import { useAppDispatch } from '../../lib/store-hooks';
import { usePageTitle } from '../../lib/use-page-title';
import { FormCard } from '../../lib/components/FormCard';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { signInWithLink } from './auth.api';

/**
 * The page a one-time sign-in link opens (decision 0021). It signs in when the person
 * presses the button, never on opening: mail scanners open every link in a mail, and one that
 * signed in on opening would be spent before its owner saw it.
 */
export default function SignInLinkPage() {
  const { token = '' } = useParams();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; final: boolean }>();
  usePageTitle(messages.signInLinkTitle);

  // A link that cannot be a sign-in link, or one the server refused, is answered without a button that would only fail.
  const isWellFormed = SignInTokenParamsSchema.safeParse({ token }).success;
  if (!isWellFormed || refusal?.final) {
    return (
      <FormCard title={messages.signInLinkTitle}>
        <p role="alert" className="alert alert-error">
          {refusal?.message ?? messages.signInLinkInvalid}
        </p>
        <Link to={paths.login} className="btn btn-primary">
          Login
        </Link>
      </FormCard>
    );
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setRefusal(undefined);
    try {
      const user = await dispatch(signInWithLink(token));
      void navigate(user.mustChangePassword ? paths.changePassword : paths.home, { replace: true });
    } catch (error) {
      if (!isServerError(error)) throw error;
      // A used or expired link stays so; anything else (too many tries, no connection) may work on a later press.
      setRefusal({ message: error.message, final: error.status === 400 });
      setBusy(false);
    }
  }

  return (
    <FormCard title={messages.signInLinkTitle}>
      <p>{messages.signInLinkIntro}</p>
      {refusal && (
        <p role="alert" className="alert alert-error">
          {refusal.message}
        </p>
      )}
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        <SubmitButton busy={busy}>{messages.signInLinkSubmit}</SubmitButton>
      </form>
    </FormCard>
  );
}
