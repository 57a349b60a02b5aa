import { answers } from '@lms/contract/answers';
import { BillingDetailsSchema, INDIAN_STATES, isValidGstin, type BillingDetails } from '@lms/contract/billing';
import { imitatesInvoiceLabel } from '@lms/contract/plain-text';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { FormField } from '../../lib/components/FormField';
import { useGetBillingDetailsQuery, useSaveBillingDetailsMutation } from './billing.api';
import { billingTexts } from './billing-texts';

/** The buyer's tax details, in a disclosure: most buyers never need it, so they are read when it opens. */
export function TaxDetails() {
  const [open, setOpen] = useState(false);
  const saved = useGetBillingDetailsQuery(undefined, { skip: !open });

  return (
    <details
      onToggle={(event) => setOpen(event.currentTarget.open)}
      className="rounded-box bg-base-100 shadow-sm ring-1 ring-base-content/10 [&[open]>summary>svg]:rotate-180"
    >
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 p-4 font-medium">
        <span>{billingTexts.detailsTitle}</span>
        <svg
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          className="shrink-0 transition-transform"
          aria-hidden="true"
        >
          <path d="m6 9 6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </summary>
      <div className="px-4 pb-4">
        <p className="mb-1 text-sm text-base-content/80">{billingTexts.detailsIntro}</p>
        {/* The form starts from what is saved: nothing typed before it arrived can be overwritten. */}
        {saved.data ? <TaxDetailsForm saved={saved.data.details} /> : <div className="skeleton h-40 w-full" aria-hidden="true" />}
      </div>
    </details>
  );
}

/**
 * The states as people look for them: by name, A to Z (the contract lists them by GST code, the
 * option's value). "Other Territory" is no state's name, so it comes last.
 */
const STATES_BY_NAME = Object.entries(INDIAN_STATES).sort(
  ([codeA, a], [codeB, b]) => Number(codeA === '97') - Number(codeB === '97') || a.localeCompare(b, 'en'),
);

type DetailsField = keyof BillingDetails;
/** The fields in the order the form shows them: the first one refused gets the focus. */
const DETAIL_FIELDS: DetailsField[] = ['businessName', 'gstin', 'stateCode', 'address'];

/** The field a refusal of the server is about, from its message (the contract's, one field each but the label's). */
const FIELD_OF_MESSAGE: Record<string, DetailsField> = {
  [answers.businessNameTooLong]: 'businessName',
  [answers.businessNameNotPlain]: 'businessName',
  [answers.businessNameRequired]: 'businessName',
  [answers.gstinInvalid]: 'gstin',
  [answers.gstinStateMismatch]: 'stateCode',
  [answers.stateInvalid]: 'stateCode',
  [answers.billingAddressTooLong]: 'address',
  [answers.billingAddressNotPlain]: 'address',
  [answers.billingAddressTooManyLines]: 'address',
};

/**
 * A valid GSTIN picks its state; the same schema as the server's checks the form before it is sent.
 * What it refuses is said under the field it is about, and that field gets the focus.
 */
function TaxDetailsForm({ saved }: { saved: BillingDetails }) {
  const [save, saving] = useSaveBillingDetailsMutation();
  const [form, setForm] = useState({
    businessName: saved.businessName ?? '',
    gstin: saved.gstin ?? '',
    stateCode: saved.stateCode ?? '',
    address: saved.address ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<DetailsField, string>>>({});
  const id = useId();
  const fieldId = (field: DetailsField) => `${id}-${field}`;
  const errorId = (field: DetailsField) => `${id}-${field}-error`;

  function change(field: DetailsField, value: string, more: Partial<typeof form> = {}) {
    setForm((before) => ({ ...before, [field]: value, ...more }));
    // Whatever was said about the field (and the state, which a GSTIN may change) no longer holds.
    setErrors((before) => {
      const after = { ...before };
      delete after[field];
      if ('stateCode' in more) delete after.stateCode;
      return after;
    });
  }

  function onGstin(value: string) {
    const gstin = value.toUpperCase().trim();
    change('gstin', gstin, isValidGstin(gstin) ? { stateCode: gstin.slice(0, 2) } : {});
  }

  function show(refused: Partial<Record<DetailsField, string>>) {
    setErrors(refused);
    const first = DETAIL_FIELDS.find((field) => refused[field]);
    if (first) document.getElementById(fieldId(first))?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const check = BillingDetailsSchema.safeParse(form);
    if (!check.success) {
      const refused: Partial<Record<DetailsField, string>> = {};
      for (const issue of check.error.issues) {
        const field = issue.path[0] as DetailsField;
        refused[field] ??= issue.message;
      }
      show(refused);
      return;
    }
    setErrors({});
    const result = await save(check.data);
    const message = 'error' in result ? result.error?.message : undefined;
    if (!message) return;
    const field =
      FIELD_OF_MESSAGE[message] ??
      (message === answers.invoiceLabelRefused ? (imitatesInvoiceLabel(form.businessName) ? 'businessName' : 'address') : undefined);
    if (field) show({ [field]: message });
    else toast.error(message);
  }

  /** The field's id, and what describes it: its hint (FormField's `<id>-hint`), then what was refused. */
  const described = (field: DetailsField, hinted = false) => {
    const ids = [hinted && `${fieldId(field)}-hint`, errors[field] && errorId(field)].filter(Boolean).join(' ');
    return { id: fieldId(field), 'aria-invalid': errors[field] ? true : undefined, 'aria-describedby': ids || undefined };
  };
  /** What was refused, under the field: inside a fieldset its gap spaces it, under a FormField a margin does. */
  const error = (field: DetailsField, inFieldset = false) =>
    errors[field] && (
      <p id={errorId(field)} className={`text-sm text-error ${inFieldset ? '' : 'mt-1'}`}>
        {errors[field]}
      </p>
    );

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
      <div>
        <FormField
          label={billingTexts.businessName}
          name="businessName"
          autoComplete="organization"
          maxLength={100}
          className={errors.businessName ? 'input-error' : ''}
          value={form.businessName}
          onChange={(event) => change('businessName', event.target.value)}
          {...described('businessName')}
        />
        {error('businessName')}
      </div>
      <div>
        <FormField
          label={billingTexts.gstin}
          name="gstin"
          hint={billingTexts.gstinHint}
          maxLength={15}
          autoCapitalize="characters"
          spellCheck={false}
          className={`font-mono uppercase ${errors.gstin ? 'input-error' : ''}`}
          value={form.gstin}
          onChange={(event) => onGstin(event.target.value)}
          {...described('gstin', true)}
        />
        {error('gstin')}
      </div>
      <div className="fieldset">
        <label htmlFor={fieldId('stateCode')} className="fieldset-legend text-sm">
          {billingTexts.state}
        </label>
        <select
          name="stateCode"
          className={`select w-full ${errors.stateCode ? 'select-error' : ''}`}
          value={form.stateCode}
          onChange={(event) => change('stateCode', event.target.value)}
          {...described('stateCode')}
        >
          <option value="">{billingTexts.noState}</option>
          {STATES_BY_NAME.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
        {error('stateCode', true)}
      </div>
      <div className="fieldset sm:col-span-2">
        <label htmlFor={fieldId('address')} className="fieldset-legend text-sm">
          {billingTexts.address}
        </label>
        <textarea
          name="address"
          rows={4}
          maxLength={300}
          autoComplete="street-address"
          className={`textarea w-full ${errors.address ? 'textarea-error' : ''}`}
          value={form.address}
          onChange={(event) => change('address', event.target.value)}
          {...described('address', true)}
        />
        <p id={`${fieldId('address')}-hint`} className="label whitespace-normal">
          {billingTexts.addressHint}
        </p>
        {error('address', true)}
      </div>
      <div className="mt-3 sm:col-span-2">
        <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={saving.isLoading} aria-busy={saving.isLoading}>
          {saving.isLoading && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {billingTexts.save}
        </button>
      </div>
    </form>
  );
}
