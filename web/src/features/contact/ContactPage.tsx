import { ContactSchema, type Contact } from '@lms/contract/contact';
import { messages } from '@lms/contract/messages';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { isServerError } from '../../lib/server-state';
import { useSite } from '../../lib/site';
import { telHref } from '../../lib/tel-href';
import { usePageTitle } from '../../lib/use-page-title';
import { FormCard } from '../../lib/components/FormCard';
import { FormField } from '../../lib/components/FormField';
import { missingFieldsText } from '../../lib/components/missing-fields';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { useAppDispatch } from '../../lib/store-hooks';
import { sendContactMessage } from './contact.api';

const empty: Contact = { name: '', email: '', message: '' };

/** The spec's contact form, and the seller's email, phone and address beside it where the settings have them. */
export default function ContactPage() {
  const dispatch = useAppDispatch();
  usePageTitle('Contact us');
  const messageId = useId();
  const detailsId = useId();
  const { email, phone, address } = useSite().contact;
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

  const formCard = (
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
  if (!email && !phone && !address) return formCard;
  // The seller's own details beside the spec's form: on a phone below it, from 1024 px at its side.
  return (
    <div className="mx-auto grid w-full max-w-4xl items-start lg:grid-cols-[minmax(0,28rem)_minmax(0,1fr)] lg:gap-4 lg:py-4">
      {formCard}
      <section aria-labelledby={detailsId} className="px-4 pb-8 lg:py-8">
        <div className="rounded-box bg-base-200 p-5 sm:p-6">
          <h2 id={detailsId} className="text-lg font-semibold">
            Other ways to reach us
          </h2>
          <dl className="mt-4 flex flex-col gap-4">
            {email && (
              <div>
                <dt className="text-sm text-base-content/70">Email</dt>
                <dd>
                  <a href={`mailto:${email}`} className="link link-primary break-all">
                    {email}
                  </a>
                </dd>
              </div>
            )}
            {phone && (
              <div>
                <dt className="text-sm text-base-content/70">Phone</dt>
                <dd>
                  <a href={telHref(phone)} className="link link-primary whitespace-nowrap">
                    {phone}
                  </a>
                </dd>
              </div>
            )}
            {address && (
              <div>
                <dt className="text-sm text-base-content/70">Address</dt>
                <dd className="whitespace-pre-line break-words">{address}</dd>
              </div>
            )}
          </dl>
        </div>
      </section>
    </div>
  );
}
