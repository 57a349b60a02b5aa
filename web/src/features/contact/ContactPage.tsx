import { ContactSchema, type Contact } from '@lms/contract/contact';
import { messages } from '@lms/contract/messages';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { isServerError } from '../../lib/server-state';
import { usePageTitle } from '../../lib/use-page-title';
import { FormCard } from '../../lib/components/FormCard';
import { FormField } from '../../lib/components/FormField';
import { missingFieldsText } from '../../lib/components/missing-fields';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { useAppDispatch } from '../../lib/store-hooks';
import { sendContactMessage } from './contact.api';

const empty: Contact = { name: '', email: '', message: '' };

export default function ContactPage() {
  const dispatch = useAppDispatch();
  usePageTitle('Contact us');
  const messageId = useId();
  const [form, setForm] = useState<Contact>(empty);
  const [busy, setBusy] = useState(false);

  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm((current) => ({ ...current, [event.target.name]: event.target.value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Every field is required ('All fields are mandatory'); the text names what is missing.
    const missing = missingFieldsText(messages.allFieldsMandatory, [
      ['Name', form.name],
      ['Email', form.email],
      ['Message', form.message],
    ]);
    if (missing) {
      toast.error(missing, { id: 'form-check' });
      return;
    }
    // Then the server's own schema: its first problem is the one toast.
    const check = ContactSchema.safeParse(form);
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    setBusy(true);
    try {
      const answer = await dispatch(sendContactMessage(check.data));
      toast.success(answer.message || messages.contactSent);
      setForm(empty);
    } catch (error) {
      // The API client has already shown the server's message or the fallback; what was typed stays.
      if (!isServerError(error)) throw error;
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormCard title="Contact Form">
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        <FormField label="Name" name="name" autoComplete="name" required value={form.name} onChange={onChange} />
        <FormField label="Email" type="email" name="email" autoComplete="email" required value={form.email} onChange={onChange} />
        <div className="fieldset">
          <label htmlFor={messageId} className="fieldset-legend text-sm">
            Message
          </label>
          <textarea id={messageId} name="message" required rows={5} className="textarea w-full resize-y" value={form.message} onChange={onChange} />
        </div>
        <SubmitButton busy={busy}>Submit</SubmitButton>
      </form>
    </FormCard>
  );
}
