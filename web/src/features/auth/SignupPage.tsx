import { messages } from '@lms/contract/messages';
import { AVATAR_ACCEPT, RegisterSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../app/api';
import { paths } from '../../app/paths';
import { useAppDispatch } from '../../app/store';
import { AvatarPicker } from '../../components/AvatarPicker';
import { FormCard } from '../../components/FormCard';
import { FormField } from '../../components/FormField';
import { PasswordField } from '../../components/PasswordField';
import { SubmitButton } from '../../components/SubmitButton';
import { register } from './auth.api';

export default function SignupPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [avatar, setAvatar] = useState<File | null>(null);
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Spec §5: the avatar is required with the same text as the other fields, whose presence the schema checks first.
    if (!avatar) {
      toast.error(messages.fillAllDetails, { id: 'form-check' });
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
    form.append('avatar', avatar);
    setBusy(true);
    try {
      await dispatch(register(form));
      navigate(paths.home, { replace: true });
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!(error instanceof ApiError)) throw error;
      setBusy(false);
    }
  }

  return (
    <FormCard title="Sign up">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
        <AvatarPicker
          label="Profile picture"
          hint="jpg, jpeg, png or svg"
          accept={AVATAR_ACCEPT}
          file={avatar}
          onChange={setAvatar}
          previewAlt="Your chosen profile picture"
        />
        <FormField label="Full name" name="fullName" autoComplete="name" required value={fullName} onChange={(e) => setFullName(e.target.value)} />
        <FormField label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <PasswordField
          isNew
          label="Password"
          name="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <SubmitButton busy={busy}>Create account</SubmitButton>
      </form>
      <p className="text-center">
        Already have an account?{' '}
        <Link to={paths.login} className="link link-primary">
          Login
        </Link>
      </p>
    </FormCard>
  );
}
