import type { Revenue } from '@lms/contract/stats';
import { useId } from 'react';
import { rupees } from '../../lib/format';

const countFormat = new Intl.NumberFormat('en-IN');

/** The part's words, with it rather than in the catalogue (which ships with every page's first chunk). */
export const texts = {
  heading: 'MRR by plan',
  hint: 'Renewing subscribers on each plan and what they bring in a month; a yearly plan counts a twelfth of its price.',
  none: 'No plan has a renewing subscriber yet.',
  yearly: 'Yearly',
  monthly: 'Monthly',
  archived: 'archived',
  subscribers: (count: number) => `${countFormat.format(count)} ${count === 1 ? 'subscriber' : 'subscribers'}`,
  share: (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 100)} %` : '0 %'),
  bar: (name: string, mrr: string, subscribers: string, share: string) => `${name}: ${mrr} a month from ${subscribers}, ${share} of MRR`,
};

/**
 * Each plan's part of the MRR, largest first (the server's order), as bars of the
 * theme's primary colour with the figures beside them in words: the list reads the same to a
 * screen reader, each bar named with its plan, amount, subscribers and share.
 */
export function MrrByPlan({ plans }: { plans: Revenue['plans'] }) {
  const headingId = useId();
  const total = plans.reduce((sum, plan) => sum + plan.mrr, 0);
  return (
    <figure aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
      <figcaption>
        <span id={headingId} className="text-lg font-semibold">
          {texts.heading}
        </span>
        <span className="block text-sm text-base-content/70">{texts.hint}</span>
      </figcaption>
      {total === 0 && <p className="text-base-content/70">{texts.none}</p>}
      {plans.length > 0 && (
        <ul className="flex flex-col gap-3">
          {plans.map((plan) => {
            const share = texts.share(plan.mrr, total);
            const subscribers = texts.subscribers(plan.subscribers);
            return (
              <li
                key={plan.id}
                className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-3 gap-y-1 md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)_auto] md:items-center"
              >
                <span className="flex min-w-0 flex-col">
                  <span className="font-medium wrap-anywhere">{plan.name}</span>
                  <span className="text-sm text-base-content/70">
                    {plan.interval === 'yearly' ? texts.yearly : texts.monthly}
                    {plan.archived && ` · ${texts.archived}`}
                  </span>
                </span>
                <span className="flex flex-col items-end tabular-nums md:order-last md:min-w-48 md:flex-row md:items-baseline md:justify-end md:gap-1.5">
                  <span className="font-semibold whitespace-nowrap">{rupees.format(plan.mrr)}</span>
                  <span className="text-sm whitespace-nowrap text-base-content/70">
                    <span className="hidden md:inline" aria-hidden="true">
                      ·{' '}
                    </span>
                    {subscribers}
                  </span>
                </span>
                <progress
                  className="progress col-span-2 h-3 progress-primary md:col-span-1"
                  value={plan.mrr}
                  max={total || 1}
                  aria-label={texts.bar(plan.name, rupees.format(plan.mrr), subscribers, share)}
                />
              </li>
            );
          })}
        </ul>
      )}
    </figure>
  );
}
