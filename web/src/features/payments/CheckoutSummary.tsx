import type { CheckoutQuote } from '@lms/contract/payments';
import { useId, useRef, type FormEvent, type ReactNode } from 'react';
import { formatDate, rupees } from '../../lib/format';
import { checkoutTexts } from './checkout-texts';

export interface CouponState {
  /** The field is showing (after "Have a coupon?", or to say why a coupon was refused or dropped). */
  open: boolean;
  code: string;
  /** Why the coupon was refused or dropped, under the field. */
  error: string;
}

interface CheckoutSummaryProps {
  quote: CheckoutQuote | null;
  /** The plan chosen, named at the top when the cards it was chosen from may be out of sight. */
  planTitle?: string;
  /** A subscription is being made for a new choice: the figures shown are about to change. */
  updating: boolean;
  /** No subscription to pay: making one failed (the reason was shown). */
  failed: boolean;
  onRetry: () => void;
  coupon: CouponState;
  onCouponChange: (coupon: CouponState) => void;
  /** Being applied: the code sent, until the server answers. */
  applying: string | undefined;
  onApply: (code: string) => void;
  onRemove: () => void;
  /** Below the figures: the resume's note, the Buy button. */
  children: ReactNode;
}

/**
 * What paying means before Checkout opens, from the server's quote: what is taken today (a card
 * check, refunded, when the first charge comes later), the first charge and its date, and the
 * charges after it. With a coupon field: "Have a coupon?" opens it; an applied coupon shows with Remove.
 */
export function CheckoutSummary({
  quote,
  planTitle,
  updating,
  failed,
  onRetry,
  coupon,
  onCouponChange,
  applying,
  onApply,
  onRemove,
  children,
}: CheckoutSummaryProps) {
  const titleId = useId();
  const firstDate = formatDate(quote?.firstCharge.date);

  return (
    <section aria-labelledby={titleId} aria-busy={updating} className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-3">
        <h2 id={titleId} className="text-lg font-semibold">
          {checkoutTexts.summary}
        </h2>
        {updating && <span className="loading loading-spinner loading-sm text-base-content/60" role="status" aria-label={checkoutTexts.summaryLoading} />}
      </div>

      {planTitle && quote && (
        <p className="flex items-baseline justify-between gap-3">
          <span className="min-w-0 font-medium wrap-anywhere">{planTitle}</span>
          <span className="shrink-0 text-base-content/80 tabular-nums">{checkoutTexts.perInterval(quote.regularPrice, quote.plan.interval)}</span>
        </p>
      )}

      <CouponField
        quote={quote}
        coupon={coupon}
        onChange={onCouponChange}
        applying={applying}
        onApply={onApply}
        onRemove={onRemove}
        disabled={failed && !quote}
      />

      {quote ? (
        <div className={`flex flex-col gap-3 transition-opacity ${updating ? 'opacity-50' : ''}`}>
          <dl className="grid grid-cols-[1fr_auto] items-baseline gap-x-4 gap-y-3 border-t border-base-content/10 pt-4">
            <Row label={checkoutTexts.dueToday} hint={quote.authorisationOnly ? checkoutTexts.cardCheck : undefined} strong>
              {rupees.format(quote.dueNow)}
            </Row>
            {quote.authorisationOnly && firstDate && (
              <Row
                label={checkoutTexts.firstPayment}
                hint={quote.trialDays > 0 ? checkoutTexts.firstPaymentAfterTrial(firstDate) : checkoutTexts.firstPaymentOn(firstDate)}
              >
                {rupees.format(quote.firstCharge.amount)}
              </Row>
            )}
          </dl>
          <p className="text-sm text-base-content/80">{checkoutTexts.schedule(quote)}</p>
        </div>
      ) : failed ? (
        <div className="border-t border-base-content/10 pt-4">
          <button type="button" className="btn btn-outline btn-sm" onClick={onRetry}>
            {checkoutTexts.retry}
          </button>
        </div>
      ) : (
        <div className="grid gap-3 border-t border-base-content/10 pt-4" aria-hidden="true">
          <div className="skeleton h-7 w-full" />
          <div className="skeleton h-4 w-2/3" />
        </div>
      )}
      {children}
    </section>
  );
}

function Row({ label, hint, strong = false, children }: { label: string; hint?: string; strong?: boolean; children: ReactNode }) {
  return (
    <>
      <dt>
        <span className={strong ? 'font-semibold' : ''}>{label}</span>
        {hint && <span className="block text-sm text-base-content/70">{hint}</span>}
      </dt>
      <dd className={`text-right tabular-nums ${strong ? 'text-2xl font-bold' : 'font-semibold'}`}>{children}</dd>
    </>
  );
}

function CouponField({
  quote,
  coupon,
  onChange,
  applying,
  onApply,
  onRemove,
  disabled,
}: {
  quote: CheckoutQuote | null;
  coupon: CouponState;
  onChange: (coupon: CouponState) => void;
  applying: string | undefined;
  onApply: (code: string) => void;
  onRemove: () => void;
  disabled: boolean;
}) {
  const inputId = useId();
  const errorId = useId();
  // Opened by "Have a coupon?": typing starts at once. Opened to say why a coupon was dropped: focus stays put.
  const focusOnOpen = useRef(false);
  const applied = quote?.coupon;

  if (applied && !coupon.open) {
    return (
      <div className="flex items-center justify-between gap-3 rounded-box bg-base-200 px-3 py-2">
        <p className="min-w-0 text-sm">
          <span className="font-mono font-semibold wrap-anywhere">{applied.code}</span>
          <span className="block text-base-content/80">{checkoutTexts.couponOff(applied)}</span>
        </p>
        <button
          type="button"
          className="btn btn-ghost btn-sm shrink-0"
          onClick={onRemove}
          aria-label={checkoutTexts.removeCoupon(applied.code)}
          disabled={applying !== undefined}
        >
          {checkoutTexts.remove}
        </button>
      </div>
    );
  }
  if (!coupon.open) {
    return (
      <button
        type="button"
        className="link link-primary self-start text-sm"
        disabled={disabled}
        onClick={() => {
          focusOnOpen.current = true;
          onChange({ ...coupon, open: true });
        }}
      >
        {checkoutTexts.haveCoupon}
      </button>
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = coupon.code.trim().toUpperCase();
    if (code) onApply(code);
  }

  const busy = applying !== undefined;
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-medium">
        {checkoutTexts.couponCode}
      </label>
      <div className="flex gap-2">
        <input
          id={inputId}
          ref={(element) => {
            if (element && focusOnOpen.current) {
              focusOnOpen.current = false;
              element.focus();
            }
          }}
          name="coupon"
          className={`input min-w-0 flex-1 font-mono uppercase ${coupon.error ? 'input-error' : ''}`}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          value={coupon.code}
          aria-invalid={coupon.error ? true : undefined}
          aria-describedby={coupon.error ? errorId : undefined}
          onChange={(event) => onChange({ ...coupon, code: event.target.value, error: '' })}
        />
        <button type="submit" className="btn btn-outline shrink-0" disabled={busy || !coupon.code.trim()} aria-busy={busy}>
          {busy && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          {checkoutTexts.apply}
        </button>
      </div>
      {coupon.error && (
        <p id={errorId} role="alert" className="text-sm text-error">
          {coupon.error}
        </p>
      )}
    </form>
  );
}
