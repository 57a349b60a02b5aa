import { messages } from '@lms/contract/messages';
import { AVATAR_ACCEPT, UpdateProfileSchema } from '@lms/contract/users';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { isServerError } from '../../lib/server-state';
import { paths } from '../../lib/paths';
import { useAppDispatch } from '../../lib/store-hooks';
import { useAuth } from './auth.slice';
import { usePageTitle } from '../../lib/use-page-title';
import { AvatarPicker } from '../../lib/components/AvatarPicker';
import { FormCard } from '../../lib/components/FormCard';
import { FormField } from '../../lib/components/FormField';
import { fileSize, imageMaxBytes } from '../../lib/components/image-file';
import { missingFieldsText } from '../../lib/components/missing-fields';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { updateProfile } from './auth.api';

export default function EditProfilePage() {
  const user = useAuth((auth) => auth.data);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [fullName, setFullName] = useState(user?.fullName ?? '');
  const [avatar, setAvatar] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  usePageTitle(messages.editProfileTitle);
  const maxBytes = imageMaxBytes();

  // The route guard lets only logged-in users here, and a logged-in state always holds the user.
  if (!user) return null;
  const userId = user._id;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // fullName and avatar are both required; the picture in use counts as the avatar, so a
    // new name alone is enough. Only a newly chosen file is sent: without one the server keeps the old.
    const missing = missingFieldsText(messages.allFieldsMandatory, [['Full name', fullName]]);
    if (missing) {
      toast.error(missing, { id: 'form-check' });
      return;
    }
    const check = UpdateProfileSchema.safeParse({ fullName });
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    const form = new FormData();
    form.append('fullName', check.data.fullName);
    if (avatar) form.append('avatar', avatar);
    setBusy(true);
    try {
      await dispatch(updateProfile(userId, form));
      void navigate(paths.profile);
    } catch (error) {
      // The API client has already shown the server's message or the fallback.
      if (!isServerError(error)) throw error;
      setBusy(false);
    }
  }

  return (
    <FormCard title={messages.editProfileTitle}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        <AvatarPicker
          label="Profile picture"
          hint={messages.avatarKeepHint(fileSize(maxBytes))}
          accept={AVATAR_ACCEPT}
          maxBytes={maxBytes}
          file={avatar}
          onChange={setAvatar}
          previewAlt={messages.newAvatarAlt}
          current={{ src: user.avatar.secure_url, alt: messages.currentAvatarAlt }}
        />
        <FormField label="Full name" name="fullName" autoComplete="name" required value={fullName} onChange={(e) => setFullName(e.target.value)} />
        <SubmitButton busy={busy}>Update profile</SubmitButton>
      </form>
      <Link to={paths.profile} className="link link-primary self-center">
        Back to profile
      </Link>
    </FormCard>
  );
}
