import type { BillingDocument } from '@lms/contract/billing';
import { RefundRequestSchema, type LearnerDetail, type LearnerPayment } from '@lms/contract/learners';
import { useId, useState } from 'react';
import { ActionDialog } from '../../../lib/components/ActionDialog';
import { formatDate } from '../../../lib/format';
import { isServerError } from '../../../lib/server-state';
import { useRefundPaymentMutation, useResendDocumentMutation } from './actions.api';
import { actionsTexts as texts } from './actions-texts';
import { NoteField } from './NoteField';

/** Rupees to the paisa, without the float's crumbs. */
const paise = (rupees: number) => Math.round(rupees * 100) / 100;

/** What is left to refund on a payment: less what was refunded and what refunds in flight will take. */
export const refundable = (payment: LearnerPayment) =>
  paise(payment.amount - payment.refunded - payment.refunds.filter((refund) => refund.state === 'pending').reduce((sum, refund) => sum + refund.amount, 0));

/** The end of the latest paid period, when the learner has had one. */
function paidPeriodEnd(learner: LearnerDetail): string | undefined {
  const ends = learner.subscriptions.map((subscription) => subscription.currentEnd).filter((end): end is string => end !== null);
  return ends.sort().at(-1);
}

/** A payment's row actions: refund what remains of it, and mail its invoice or a credit note again. */
export function PaymentActions({ learner, payment }: { learner: LearnerDetail; payment: LearnerPayment }) {
  const [refunding, setRefunding] = useState(false);
  const documents = [
    ...(payment.invoice?.ready ? [{ what: texts.invoice, document: payment.invoice }] : []),
    ...payment.creditNotes.filter((note) => note.ready).map((document) => ({ what: texts.creditNote, document })),
  ];
  return (
    <div className="flex flex-wrap items-center gap-2">
      {refundable(payment) > 0 && (
        <button
          type="button"
          className="btn btn-outline btn-sm"
          aria-haspopup="dialog"
          aria-label={texts.refundNamed(payment.description)}
          onClick={() => setRefunding(true)}
        >
          {texts.refund}
        </button>
      )}
      {documents.map(({ what, document }) => (
        <ResendButton key={document.id} learnerId={learner.profile._id} what={what} document={document} />
      ))}
      {/* Mounted on opening: the refund's key is made then, once per dialog. */}
      {refunding && <RefundDialog learner={learner} payment={payment} onClose={() => setRefunding(false)} />}
    </div>
  );
}

function ResendButton({ learnerId, what, document }: { learnerId: string; what: string; document: BillingDocument }) {
  const [resend, state] = useResendDocumentMutation();
  return (
    <button
      type="button"
      className="btn btn-ghost btn-xs"
      disabled={state.isLoading}
      aria-busy={state.isLoading}
      aria-label={texts.resendNamed(what, document.number)}
      // The toast says it was sent, or why not.
      onClick={() => void resend({ learnerId, documentId: document.id }).catch(() => undefined)}
    >
      {state.isLoading && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
      {texts.resend}
    </button>
  );
}

/**
 * A refund of all or part of what remains, through the payment provider. The key is made when the
 * dialog opens, so a second press (or a retry after no answer) is the same refund: the server makes
 * it once. A refusal that the server answered for certain (the provider said no, too large) frees a
 * new attempt, with a new key; one with no certain answer (no connection, the provider unreachable)
 * keeps the key, so a retry cannot refund twice.
 */
export function RefundDialog({ learner, payment, onClose }: { learner: LearnerDetail; payment: LearnerPayment; onClose: () => void }) {
  const amountId = useId();
  const hintId = useId();
  const remaining = refundable(payment);
  const periodEnd = formatDate(paidPeriodEnd(learner));
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [amount, setAmount] = useState(String(remaining));
  const [access, setAccess] = useState<'now' | 'period_end'>('now');
  const [note, setNote] = useState('');
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [refund, state] = useRefundPaymentMutation();

  const body = { key, amount: amount.trim() === '' ? Number.NaN : Number(amount), access, note };
  const parsedAmount = RefundRequestSchema.shape.amount.safeParse(body.amount);

  async function submit() {
    const check = RefundRequestSchema.safeParse(body);
    if (!check.success) {
      const issue = check.error.issues[0]!;
      setError({ message: issue.message, field: String(issue.path[0]) });
      return false;
    }
    try {
      await refund({ learnerId: learner.profile._id, paymentId: payment._id, body: check.data }).unwrap();
      return true;
    } catch (refusal) {
      if (!isServerError(refusal)) throw refusal;
      setError({ message: refusal.message });
      const certain = refusal.status >= 400 && refusal.status < 500 && refusal.status !== 409;
      if (certain) setKey(crypto.randomUUID());
      return false;
    }
  }
  const edited = () => setError(null);

  return (
    <ActionDialog
      title={texts.refundTitle}
      intro={texts.refundIntro(payment.amount, payment.refunded, formatDate(payment.paidAt) ?? '')}
      submitLabel={texts.refundSubmit}
      cancelLabel={texts.cancel}
      closeLabel={texts.close}
      destructive
      busy={state.isLoading}
      error={error?.message ?? null}
      onSubmit={submit}
      onClose={onClose}
    >
      <div className="fieldset">
        <label htmlFor={amountId} className="fieldset-legend text-sm">
          {texts.amount}
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <input
            id={amountId}
            type="text"
            inputMode="decimal"
            className={`input w-36 tabular-nums ${error?.field === 'amount' ? 'input-error' : ''}`}
            value={amount}
            autoComplete="off"
            autoFocus
            required
            aria-invalid={error?.field === 'amount'}
            aria-describedby={hintId}
            onChange={(event) => {
              setAmount(event.target.value);
              edited();
            }}
          />
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => {
              setAmount(String(remaining));
              edited();
            }}
          >
            {texts.full}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => {
              setAmount(String(paise(remaining / 2)));
              edited();
            }}
          >
            {texts.half}
          </button>
        </div>
        <p id={hintId} className="label whitespace-normal">
          {texts.amountHint(remaining)}
        </p>
      </div>
      <fieldset className="fieldset">
        <legend className="fieldset-legend text-sm">{texts.accessEnds}</legend>
        {(['now', 'period_end'] as const).map((choice) => (
          <label key={choice} className="flex cursor-pointer items-center gap-2 py-1">
            <input
              type="radio"
              name="refund-access"
              className="radio radio-sm"
              checked={access === choice}
              onChange={() => {
                setAccess(choice);
                edited();
              }}
            />
            <span>{choice === 'now' ? texts.accessNow : texts.accessPeriodEnd(periodEnd)}</span>
          </label>
        ))}
      </fieldset>
      <NoteField
        value={note}
        invalid={error?.field === 'note'}
        onChange={(value) => {
          setNote(value);
          edited();
        }}
      />
      {parsedAmount.success && (
        <p className="mt-3 text-sm font-medium wrap-anywhere" role="status">
          {texts.refundConfirm(parsedAmount.data, learner.profile.fullName)}
        </p>
      )}
    </ActionDialog>
  );
}
