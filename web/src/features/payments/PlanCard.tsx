import { messages } from '@lms/contract/messages';
import type { Plan } from '@lms/contract/plans';
import { useId } from 'react';
import { rupees } from '../../lib/format';
import { RefundRule } from '../../lib/components/RefundRule';
import { Tick } from '../../lib/components/Tick';
import { checkoutTexts } from './checkout-texts';

/** The spec's bundle card's title, the default plan's one name; other plans go by their names. */
export const BUNDLE_TITLE = messages.bundleTitle;

/** What a yearly plan saves against twelve months of the default monthly plan, in whole per cent; 0 for nothing. */
export function yearlySaving(plan: Pick<Plan, 'interval' | 'price'>, monthlyPrice: number | undefined): number {
  if (plan.interval !== 'yearly' || !monthlyPrice) return 0;
  return Math.max(0, Math.round((1 - plan.price / (12 * monthlyPrice)) * 100));
}

export interface PlanCardProps {
  plan: Plan;
  /** The default monthly plan's price: what a yearly plan's saving is measured against. */
  monthlyPrice: number | undefined;
  /** With more than one plan on sale the card is a radio option; alone it is the page's heading. */
  selectable: boolean;
  selected: boolean;
  onSelect: () => void;
  /** Whether the plan's free trial would be this account's; null to say nothing of trials (a resume). */
  trialAvailable: boolean | null;
  /** The price is still being loaded (the bundle alone, before any answer). */
  priceLoading?: boolean;
  /** The server's refund window in days, said beside the spec's promise; undefined until known. */
  refundWindowDays: number | undefined;
}

/**
 * A plan on sale. The default plan keeps the bundle card: 'Subscription Bundle', its duration and
 * price, and what it includes; every plan says the refund rule right under the spec's promise. The
 * whole card picks the plan: its title is the radio's label, stretched over the card.
 */
export function PlanCard({ plan, monthlyPrice, selectable, selected, onSelect, trialAvailable, priceLoading = false, refundWindowDays }: PlanCardProps) {
  const titleId = useId();
  const radioId = useId();
  const title = plan.default ? BUNDLE_TITLE : plan.name;
  const Heading = selectable ? 'h2' : 'h1';
  const saving = yearlySaving(plan, monthlyPrice);
  const showPrice = Number.isFinite(plan.price);

  return (
    <article
      aria-labelledby={titleId}
      className={
        selectable
          ? 'card relative bg-base-100 shadow-md ring-1 ring-base-300 transition-shadow hover:shadow-lg has-checked:ring-2 has-checked:ring-primary has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-primary'
          : ''
      }
    >
      <div className={selectable ? 'card-body gap-5 p-5 sm:p-6' : 'flex flex-col gap-6'}>
        <div className={`flex items-start gap-3 ${selectable ? 'justify-between' : 'justify-center'}`}>
          <Heading id={titleId} className={`card-title wrap-anywhere ${selectable ? 'text-xl' : 'text-center text-2xl sm:text-3xl'}`}>
            {selectable ? (
              <label htmlFor={radioId} className="cursor-pointer after:absolute after:inset-0 after:rounded-box">
                {title}
              </label>
            ) : (
              title
            )}
          </Heading>
          {selectable && <input id={radioId} type="radio" name="plan" className="radio radio-primary mt-0.5 shrink-0" checked={selected} onChange={onSelect} />}
        </div>
        {plan.trialDays > 0 && trialAvailable !== null && (
          <p className={selectable ? '' : 'text-center'}>
            {trialAvailable ? (
              <span className="badge badge-outline badge-primary font-medium">{checkoutTexts.freeTrial(plan.trialDays)}</span>
            ) : (
              <span className="text-sm text-base-content/70">{checkoutTexts.trialHad}</span>
            )}
          </p>
        )}
        <div>
          <dl className="grid grid-cols-[auto_1fr] items-baseline gap-x-4 gap-y-2">
            <dt className="text-base-content/70">Duration</dt>
            <dd className="text-right font-semibold">{checkoutTexts.duration(plan.interval)}</dd>
            <dt className="text-base-content/70">Price</dt>
            <dd className="text-right text-3xl font-bold tabular-nums">
              {showPrice ? (
                rupees.format(plan.price)
              ) : priceLoading ? (
                <span className="loading loading-dots loading-md" role="status" aria-label={messages.priceLoading} />
              ) : (
                '—'
              )}
            </dd>
          </dl>
          {plan.interval === 'yearly' && showPrice && (
            <p className="mt-1 flex flex-wrap items-center justify-end gap-x-2 gap-y-1 text-sm">
              <span className="text-base-content/70">{checkoutTexts.monthlyEquivalent(Math.round((plan.price / 12) * 100) / 100)}</span>
              {saving > 0 && <span className="badge badge-primary badge-sm font-semibold">{checkoutTexts.save(saving)}</span>}
            </p>
          )}
        </div>
        <ul className="space-y-3">
          <Tick>{messages.bundleIncludes}</Tick>
          <Tick>
            <span className="block">{messages.bundleRefundable}</span>
            <RefundRule days={refundWindowDays} />
          </Tick>
        </ul>
      </div>
    </article>
  );
}
