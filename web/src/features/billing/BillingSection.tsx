import { answers } from '@lms/contract/answers';
import { billingDocumentUrl, BillingDetailsSchema, INDIAN_STATES, isValidGstin, type BillingDetails, type BillingDocument, type BillingEntry, type BillingHistory } from '@lms/contract/billing';
import { imitatesInvoiceLabel } from '@lms/contract/plain-text';
import { useEffect, useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { formatDate, rupees } from '../../lib/format';
import { FormField } from '../../lib/components/FormField';
import { useGetBillingDetailsQuery, useGetBillingHistoryQuery, useSaveBillingDetailsMutation } from './billing.api';
import { billingTexts } from './billing-texts';

/** How often the history is read again while a PDF is being made (a job makes it within seconds). */
const PREPARING_POLL_MS = 3000;

/**
 * Ours (issue 15), on the profile: every payment with its invoice and credit note to download, and
 * the tax details (GSTIN, state) the next invoices will carry.
 */
export function BillingSection({ className = '' }: { className?: string }) {
  const headingId = useId();
  const [preparing, setPreparing] = useState(false);
  const history = useGetBillingHistoryQuery(undefined, { pollingInterval: preparing ? PREPARING_POLL_MS : 0 });
  const entries = history.data?.entries ?? [];
  const nowPreparing = entries.some((entry) => [entry.invoice, entry.creditNote].some((document) => document && !document.ready));
  useEffect(() => setPreparing(nowPreparing), [nowPreparing]);

  return (
    <section aria-labelledby={headingId} className={`space-y-4 *:max-w-3xl ${className}`}>
      <h2 id={headingId} className="text-xl font-semibold">
        {billingTexts.history}
      </h2>
      {history.data?.renewal && <RenewalLine renewal={history.data.renewal} />}
      {history.isLoading ? (
        <div className="skeleton h-24 w-full rounded-box" aria-hidden="true" />
      ) : entries.length === 0 ? (
        <p className="rounded-box bg-base-200 p-4 text-sm text-base-content/80">{billingTexts.noPayments}</p>
      ) : (
        <ul className="divide-y divide-base-content/10 rounded-box bg-base-100 shadow-sm ring-1 ring-base-content/10">
          {entries.map((entry) => (
            <HistoryRow key={entry.paymentId} entry={entry} />
          ))}
        </ul>
      )}
      <TaxDetails />
    </section>
  );
}

/** Ours (issue 16): what comes next: the plan and its next charge (the first, after a free trial), or none once cancelled. */
function RenewalLine({ renewal }: { renewal: NonNullable<BillingHistory['renewal']> }) {
  const amount = renewal.nextAmount ?? undefined;
  const trialEnds = formatDate(renewal.trialEndsAt ?? undefined);
  const renews = formatDate(renewal.renewsOn ?? undefined);
  const until = formatDate(renewal.accessUntil ?? undefined);
  const next = renewal.cancelled
    ? until && billingTexts.noMorePayments(until)
    : trialEnds
      ? billingTexts.trialPayment(amount, trialEnds)
      : renews && billingTexts.nextPayment(amount, renews);
  if (!next) return null;
  return (
    // Under the heading, as its subtitle: what comes next, before the payments that came before.
    <p className="-mt-2 flex items-start gap-2 text-sm text-base-content/80">
      <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" className="mt-px shrink-0 text-primary" aria-hidden="true">
        <rect x="3" y="5" width="18" height="16" rx="2" />
        <path d="M3 10h18M8 3v4M16 3v4" strokeLinecap="round" />
      </svg>
      <span className="min-w-0 wrap-anywhere">
        {renewal.plan ? (
          <>
            <strong className="font-semibold text-base-content">{billingTexts.planName(renewal.plan.name)}</strong> · {next}
          </>
        ) : (
          next.charAt(0).toUpperCase() + next.slice(1)
        )}
      </span>
    </p>
  );
}

function HistoryRow({ entry }: { entry: BillingEntry }) {
  const refunded = entry.status === 'refunded';
  return (
    <li className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3 p-4">
      <div className="min-w-0 flex-1">
        <p className="font-medium">{formatDate(entry.date)}</p>
        <p className="text-sm text-base-content/80 wrap-anywhere">{entry.description}</p>
      </div>
      <div className="flex flex-col items-end gap-1">
        <p className={`font-semibold tabular-nums ${refunded ? 'line-through decoration-base-content/50' : ''}`}>{rupees.format(entry.amount)}</p>
        {/* The word carries the status in the text colour (green 12 px text fails contrast); a dot adds the colour. */}
        <span className="badge badge-sm badge-ghost gap-1.5">
          <span className={`size-2 rounded-full ${refunded ? 'bg-base-content/40' : 'bg-success'}`} aria-hidden="true" />
          {refunded ? billingTexts.refunded : billingTexts.paid}
        </span>
      </div>
      {(entry.invoice || entry.creditNote) && (
        <div className="flex basis-full flex-wrap gap-2">
          {entry.invoice && <DocumentLink what={billingTexts.invoice} document={entry.invoice} />}
          {entry.creditNote && <DocumentLink what={billingTexts.creditNote} document={entry.creditNote} />}
        </div>
      )}
    </li>
  );
}

function DocumentLink({ what, document }: { what: string; document: BillingDocument }) {
  if (!document.ready) {
    return (
      <span className="inline-flex items-center gap-2 text-sm text-base-content/80" role="status">
        <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        {what} {document.number} · {billingTexts.preparing}
      </span>
    );
  }
  return (
    <a className="btn btn-outline btn-sm" href={billingDocumentUrl(document.id)} download aria-label={billingTexts.download(what, document.number)}>
      <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {what} <span className="font-mono text-xs">{document.number}</span>
    </a>
  );
}

/** The buyer's tax details, in a disclosure: most buyers never need it, so they are read when it opens. */
function TaxDetails() {
  const [open, setOpen] = useState(false);
  const saved = useGetBillingDetailsQuery(undefined, { skip: !open });

  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)} className="rounded-box bg-base-100 shadow-sm ring-1 ring-base-content/10 [&[open]>summary>svg]:rotate-180">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-3 p-4 font-medium">
        <span>{billingTexts.detailsTitle}</span>
        <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" className="shrink-0 transition-transform" aria-hidden="true">
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
const STATES_BY_NAME = Object.entries(INDIAN_STATES).sort(([codeA, a], [codeB, b]) => Number(codeA === '97') - Number(codeB === '97') || a.localeCompare(b, 'en'));

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
  const [form, setForm] = useState({ businessName: saved.businessName ?? '', gstin: saved.gstin ?? '', stateCode: saved.stateCode ?? '', address: saved.address ?? '' });
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
    const field = FIELD_OF_MESSAGE[message] ?? (message === answers.invoiceLabelRefused ? (imitatesInvoiceLabel(form.businessName) ? 'businessName' : 'address') : undefined);
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
    <form noValidate onSubmit={onSubmit} className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
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
        <select name="stateCode" className={`select w-full ${errors.stateCode ? 'select-error' : ''}`} value={form.stateCode} onChange={(event) => change('stateCode', event.target.value)} {...described('stateCode')}>
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
