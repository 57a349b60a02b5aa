import type { LearnerDetail } from '@lms/contract/learners';
import { formatDate } from '../../../lib/format';
import { learnersTexts as texts } from '../learners-texts';
import { Section } from './Section';

/** Every subscription, newest first: plan, the provider's status, when it began, ran to, and was cancelled. */
export function SubscriptionsSection({ learner }: { learner: LearnerDetail }) {
  return (
    <Section title={texts.subscriptions} empty={learner.subscriptions.length === 0} emptyText={texts.noSubscriptions}>
      <ul className="flex flex-col divide-y divide-base-300 text-sm">
        {learner.subscriptions.map((subscription) => (
          <li key={subscription._id} className="flex flex-col gap-1 py-2 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium wrap-anywhere">{subscription.plan ?? texts.noPlan}</span>
              <span className="badge badge-sm badge-ghost capitalize">{subscription.status}</span>
            </div>
            <p className="text-base-content/80">
              {[
                `${texts.started} ${formatDate(subscription.createdAt)}`,
                subscription.currentEnd && `${texts.periodEnd} ${formatDate(subscription.currentEnd)}`,
                subscription.cancelledAt && `${texts.cancelled} ${formatDate(subscription.cancelledAt)}`,
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
            <p className="text-base-content/70">
              {[
                texts.paymentCount(subscription.paidCount),
                subscription.trialDays > 0 && texts.trialDays(subscription.trialDays),
                subscription.coupon && texts.coupon(subscription.coupon),
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
