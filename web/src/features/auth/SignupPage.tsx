import { messages } from '@lms/contract/messages';
import { AVATAR_ACCEPT, RegisterSchema } from '@lms/contract/users';
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
import { AvatarPicker } from '../../lib/components/AvatarPicker';
import { FormCard } from '../../lib/components/FormCard';
import { FormField } from '../../lib/components/FormField';
import { fileSize, imageMaxBytes } from '../../lib/components/image-file';
import { missingFieldsText } from '../../lib/components/missing-fields';
import { Notice } from '../../lib/components/Notice';
import { PasswordField } from '../../lib/components/PasswordField';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { register } from './auth.api';

/** The fields' labels, which the check names when one is left empty. */
const LABELS = { avatar: 'Profile picture', fullName: 'Full name', email: 'Email', password: 'Password' };

export default function SignupPage() {
  usePageTitle('Sign up');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  // Where to go once signed up (e.g. back to /checkout), if it is a path of ours.
  const next = nextPath(location.search, location.state);
  // A user already signed in when the page opens goes home. Read once: signing up signs in too.
  const isLoggedIn = useAuth((auth) => auth.isLoggedIn);
  const [signedInAtOpen] = useState(isLoggedIn);
  const [avatar, setAvatar] = useState<File | null>(null);
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const maxBytes = imageMaxBytes();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Every field, the avatar too, is required with one text, checked before any other rule; it names what is missing.
    const missing = missingFieldsText(messages.fillAllDetails, [
      [LABELS.avatar, avatar],
      [LABELS.fullName, fullName],
      [LABELS.email, email],
      [LABELS.password, password],
    ]);
    if (missing) {
      toast.error(missing, { id: 'form-check' });
      return;
    }
    const check = RegisterSchema.safeParse({ fullName, email, password });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    const form = new FormData();
    form.append('fullName', check.data.fullName);
    form.append('email', check.data.email);
    form.append('password', check.data.password);
    form.append('avatar', avatar!);
    setBusy(true);
    try {
      await dispatch(register(form));
      void navigate(next ?? paths.home, { replace: true });
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!isServerError(error)) throw error;
      setBusy(false);
    }
  }

  if (signedInAtOpen) return <Navigate to={paths.home} replace />;

  return (
    <FormCard title="Sign up">
      {next?.startsWith(paths.checkout) && <Notice role="note">{messages.signupToSubscribe}</Notice>}
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        <AvatarPicker
          label={LABELS.avatar}
          required
          hint={messages.avatarHint(fileSize(maxBytes))}
          accept={AVATAR_ACCEPT}
          maxBytes={maxBytes}
          file={avatar}
          onChange={setAvatar}
          previewAlt="Your chosen profile picture"
        />
        <FormField label={LABELS.fullName} name="fullName" autoComplete="name" required value={fullName} onChange={(e) => setFullName(e.target.value)} />
        <FormField label={LABELS.email} type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <PasswordField isNew label={LABELS.password} name="password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <SubmitButton busy={busy}>Create account</SubmitButton>
      </form>
      <p className="text-center">
        Already have an account? {/* In the middle of a journey (e.g. to /checkout), the other form takes this one's place and carries on to the same place. */}
        <Link to={withNext(paths.login, next)} replace={Boolean(next)} className="link link-primary">
          Login
        </Link>
      </p>
    </FormCard>
  );
}
