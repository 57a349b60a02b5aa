import { messages } from '@lms/contract/messages';
import { useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { formatDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { withNext } from '../../lib/with-next';
import { useAuth } from '../auth';
import { checkoutTexts } from './checkout-texts';
import type { FromResultState } from './checkout-state';
import { CheckoutStateCard } from './CheckoutStateCard';
import { SubscriptionBundle } from './SubscriptionBundle';

/**
 * No role guard, but buying needs an account, so a visitor logs in (or signs up) first and comes back
 * (`?next=/checkout`). An active subscriber is told so, with the way to the courses, and an
 * administrator that no subscription is needed, instead of the server's refusal as an error.
 */
export default function CheckoutPage() {
  usePageTitle(messages.checkoutTitle);
  const { isLoggedIn, role, data: user } = useAuth((auth) => auth);
  const subscription = user?.subscription;
  const subscribed = subscription?.status === 'active' && !subscription.cancelAtPeriodEnd;
  // A payment made on this page makes the user a subscriber before the page moves on to /checkout/success:
  // the bundle stays until then, rather than flashing the subscribed state.
  const [paying, setPaying] = useState(false);

  // A visitor sent here by /checkout/success opened directly was not on the way to buy: home, not the login.
  const location = useLocation();
  const fromResult = (location.state as Partial<FromResultState> | null)?.fromResult === true;
  // The login comes back to this very address: the plan, the coupon and the course page it carries.
  const here = `${location.pathname}${location.search}`;
  if (!isLoggedIn) return <Navigate to={fromResult ? paths.home : withNext(paths.login, here)} replace state={fromResult ? undefined : { from: here }} />;
  if (role === 'ADMIN') {
    return (
      <CheckoutStateCard title={messages.noSubscriptionNeeded}>
        <p>{messages.adminCannotSubscribe}</p>
      </CheckoutStateCard>
    );
  }
  if (subscribed && !paying) {
    const renews = formatDate(subscription.currentPeriodEnd);
    // In a free trial, the first payment is what comes next.
    const trialEnds = formatDate(subscription.trialEndsAt);
    return (
      <CheckoutStateCard title={messages.youAreSubscribed} secondary={{ to: paths.profile, label: messages.manageSubscription }}>
        <p>{messages.subscribedText}</p>
        {trialEnds ? (
          <p className="font-semibold">{checkoutTexts.inTrial(trialEnds)}</p>
        ) : (
          renews && <p className="font-semibold">{messages.renewsOn(renews)}</p>
        )}
      </CheckoutStateCard>
    );
  }
  return <SubscriptionBundle onPaying={() => setPaying(true)} />;
}
