import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { CANCEL_REASONS, type CancellationTerms } from '@lms/contract/payments';
import { AVATAR_ACCEPT, type User } from '@lms/contract/users';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { billingTexts } from '../billing';
import EditProfilePage from './EditProfilePage';
import ProfilePage from './ProfilePage';

/** The profile's own calls, without what its sections (continue watching, certificates, billing, signed-in devices) and the cancel dialog (its save offer, its case of the refund rule) read for themselves. */
const withoutProgress = <T extends { url: string; init: RequestInit }>(calls: T[]) =>
  calls.filter(
    (call) =>
      !(
        (call.init.method ?? 'GET') === 'GET' &&
        [
          '/api/v1/progress',
          '/api/v1/certificates',
          '/api/v1/billing/history',
          '/api/v1/user/sessions',
          '/api/v1/payments/save-offer',
          '/api/v1/payments/cancellation',
        ].includes(call.url)
      ),
  );

/** GET /payments/cancellation's answer: what cancelling now would do, as the server's refund rule decides. */
const termsAnswer = (terms: Partial<CancellationTerms> & Pick<CancellationTerms, 'outcome' | 'accessUntil'>) => ({
  body: {
    success: true,
    message: answers.cancellationTerms,
    cancellation: { payment: null, refundWindowEndsAt: null, refundWindowDays: 14, lastRefundAt: null, nextRefundFrom: null, ...terms },
  },
});

const inactiveUser = sampleUser();
// Midday UTC: the same calendar day in India, where the dates are shown.
const periodEnd = '2026-12-23T06:30:00.000Z';
const activeUser: User = { ...inactiveUser, subscription: { status: 'active', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: false } };
const endingUser: User = { ...inactiveUser, subscription: { status: 'active', currentPeriodEnd: periodEnd, cancelAtPeriodEnd: true } };

const logIn = storeLogin;

let urls = 0;
beforeEach(() => {
  urls = 0;
  // Each page sets its own tab title: none is left from the page before.
  document.title = '';
  URL.createObjectURL = vi.fn(() => `blob:preview-${++urls}`);
  URL.revokeObjectURL = vi.fn();
});

describe('profile page', () => {
  function renderProfile(user: User) {
    logIn(user);
    return renderPage(<ProfilePage />, { path: '/user/profile' });
  }

  it("shows the user's avatar, name, email, role, its own tab title and links to change password and edit the profile", () => {
    renderProfile(inactiveUser);
    expect(screen.getByRole('heading', { level: 1, name: 'Asha Verma' })).toBeInTheDocument();
    expect(document.title).toBe('Your profile · LMS');
    expect(screen.getByRole('img', { name: 'Asha Verma' })).toHaveAttribute('src', '/media/avatars/asha.png');
    expect(screen.getByText('asha@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change password' })).toHaveAttribute('href', '/changepassword');
    expect(screen.getByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/user/editprofile');
  });

  it.each([
    ['USER', 'Learner'],
    ['ADMIN', 'Administrator'],
  ] as const)('names the role %s in words, "%s", not the code the server keeps', (role, words) => {
    renderProfile({ ...inactiveUser, role });
    const roleLabel = screen.getByText('Role', { selector: 'dt' });
    expect(roleLabel.nextElementSibling).toHaveTextContent(words);
    expect(screen.queryByText(role)).not.toBeInTheDocument();
  });

  it('shows an inactive subscription without a cancel button', () => {
    renderProfile(inactiveUser);
    expect(screen.getByText('Inactive')).toBeInTheDocument();
    expect(screen.queryByText('Active')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: messages.cancelSubscription })).not.toBeInTheDocument();
  });

  it('shows an inactive subscription with neither a renewal date nor a way to resume', () => {
    renderProfile(inactiveUser);
    expect(screen.queryByText(/^Renews on/)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Cancelled, access until/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: messages.resumeSubscription })).not.toBeInTheDocument();
  });

  it('shows an active subscription with its renewal date (in Indian format) and the cancel button', () => {
    renderProfile(activeUser);
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.queryByText('Inactive')).not.toBeInTheDocument();
    expect(screen.getByText('Renews on 23 Dec 2026')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.cancelSubscription })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: messages.resumeSubscription })).not.toBeInTheDocument();
  });

  it('shows complimentary access: until when, no renewal, nothing to cancel, and a way to subscribe for after', () => {
    renderProfile({ ...inactiveUser, subscription: { status: 'active', currentPeriodEnd: periodEnd, complimentary: true } });
    expect(screen.getByText('Complimentary')).toBeInTheDocument();
    expect(screen.getByText('Complimentary access until 23 Dec 2026')).toBeInTheDocument();
    expect(screen.queryByText(/^Renews on/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: messages.cancelSubscription })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: messages.resumeSubscription })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', '/checkout');
  });

  it('shows a subscription cancelled without a refund: still active, until when, and a way to resume it at checkout', () => {
    renderProfile(endingUser);
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Cancelled, access until 23 Dec 2026')).toBeInTheDocument();
    expect(screen.queryByText(/^Renews on/)).not.toBeInTheDocument();
    const resume = screen.getByRole('link', { name: 'Resume subscription' });
    expect(resume).toHaveAttribute('href', '/checkout');
    expect(resume).toHaveClass('btn-primary');
    // Nothing left to cancel.
    expect(screen.queryByRole('button', { name: messages.cancelSubscription })).not.toBeInTheDocument();
  });

  it('says before cancelling the one case that applies: a payment inside the window is refunded and access ends today', async () => {
    const calls = stubApi({
      'GET /api/v1/payments/cancellation': termsAnswer({
        outcome: 'refund',
        payment: { amount: 99, paidAt: '2026-11-03T06:30:00.000Z' },
        refundWindowEndsAt: '2026-11-17T06:30:00.000Z',
        accessUntil: '2026-11-05T06:30:00.000Z',
      }),
    });
    const { user } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    const dialog = screen.getByRole('dialog', { name: `${messages.cancelSubscription}?` });
    expect(await within(dialog).findByText(billingTexts.cancelRefund('₹99', '3 Nov 2026'))).toBeInTheDocument();
    expect(
      within(dialog).getByText('You paid ₹99 on 3 Nov 2026. Cancel now and we refund the ₹99 in full; your access ends today.', {
        normalizer: (text) => text.replace(/\s+/g, ' '),
      }),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(billingTexts.cancelRefundOnce)).toBeInTheDocument();
    // Not both cases: only this subscriber's.
    expect(within(dialog).queryByText(messages.cancelConfirmRefund)).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/you keep access until/)).not.toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/api/v1/payments/cancellation')).toHaveLength(1);
  });

  it('once the refund window has passed, says when it ended and until when access lasts', async () => {
    stubApi({
      'GET /api/v1/payments/cancellation': termsAnswer({
        outcome: 'window_passed',
        payment: { amount: 99, paidAt: '2026-11-03T06:30:00.000Z' },
        refundWindowEndsAt: '2026-11-17T06:30:00.000Z',
        accessUntil: periodEnd,
      }),
    });
    const { user } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    const dialog = screen.getByRole('dialog', { name: `${messages.cancelSubscription}?` });
    expect(await within(dialog).findByText(billingTexts.cancelWindowPassed(14, '3 Nov 2026', '17 Nov 2026', '23 Dec 2026'))).toBeInTheDocument();
    expect(within(dialog).queryByText(billingTexts.cancelRefundOnce)).not.toBeInTheDocument();
    expect(within(dialog).queryByText(messages.cancelConfirmRefund)).not.toBeInTheDocument();
  });

  it('after a refund within 12 months, says when it was and that nothing is refunded now', async () => {
    stubApi({
      'GET /api/v1/payments/cancellation': termsAnswer({
        outcome: 'refund_used',
        payment: { amount: 99, paidAt: '2026-11-20T06:30:00.000Z' },
        refundWindowEndsAt: '2026-12-04T06:30:00.000Z',
        lastRefundAt: '2026-10-02T06:30:00.000Z',
        nextRefundFrom: '2027-10-02T06:30:00.000Z',
        accessUntil: periodEnd,
      }),
    });
    const { user } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    const dialog = screen.getByRole('dialog', { name: `${messages.cancelSubscription}?` });
    expect(await within(dialog).findByText(billingTexts.cancelRefundUsed('2 Oct 2026', '23 Dec 2026'))).toBeInTheDocument();
    expect(within(dialog).queryByText(messages.cancelConfirmRefund)).not.toBeInTheDocument();
  });

  it('when the server cannot say which case applies, states the rule in general, with the date access would last to', async () => {
    stubApi({ 'GET /api/v1/payments/cancellation': { status: 500, body: {} } });
    const { user } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    const dialog = screen.getByRole('dialog', { name: `${messages.cancelSubscription}?` });
    expect(await within(dialog).findByText(messages.cancelConfirmRefund)).toBeInTheDocument();
    expect(within(dialog).getByText(messages.cancelConfirmKeep('23 Dec 2026'))).toBeInTheDocument();
  });

  it('asks before cancelling, and keeping the subscription sends nothing', async () => {
    const calls = stubApi({});
    const { user } = renderProfile(activeUser);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    const dialog = screen.getByRole('dialog', { name: `${messages.cancelSubscription}?` });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(withoutProgress(calls)).toHaveLength(0);
  });

  it('cancels: unsubscribes, reloads the user, then goes home with the subscription inactive', async () => {
    const calls = stubApi({
      'POST /api/v1/payments/unsubscribe': { body: { success: true, message: answers.unsubscribedRefunded, refunded: true } },
      'GET /api/v1/user/me': { body: { success: true, message: answers.userDetailsFetched, user: inactiveUser } },
    });
    const { user, router, store } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(withoutProgress(calls).map((call) => `${call.init.method ?? 'GET'} ${call.url}`)).toEqual([
      'POST /api/v1/payments/unsubscribe',
      'GET /api/v1/user/me',
    ]);
    // The reason was skipped: none is sent.
    expect(JSON.parse(calls.find((call) => call.url === '/api/v1/payments/unsubscribe')!.init.body as string)).toEqual({});
    expect(store.getState().auth.data?.subscription.status).toBe('inactive');
    expect(await findToast(answers.unsubscribedRefunded)).toBeInTheDocument();
  });

  it('sends why the subscriber is leaving when they say, and nothing when they skip it', async () => {
    const calls = stubApi({
      'POST /api/v1/payments/unsubscribe': { body: { success: true, message: answers.unsubscribedRefunded, refunded: true } },
      'GET /api/v1/user/me': { body: { success: true, message: answers.userDetailsFetched, user: inactiveUser } },
    });
    const { user, router } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    const dialog = screen.getByRole('dialog');
    const reasons = within(dialog).getByRole('group', { name: billingTexts.whyLeaving });
    expect(
      within(reasons)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')!.textContent),
    ).toEqual(Object.values(CANCEL_REASONS));
    await user.click(within(reasons).getByRole('radio', { name: CANCEL_REASONS.not_using }));
    await user.type(within(dialog).getByLabelText(billingTexts.noteLabel), '  Busy at work.  ');
    await user.click(within(dialog).getByRole('button', { name: 'Yes, cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const sent = calls.find((call) => call.url === '/api/v1/payments/unsubscribe')!;
    expect(JSON.parse(sent.init.body as string)).toEqual({ reason: 'not_using', note: 'Busy at work.' });
  });

  it("cancels without a refund: stays on the profile with the server's message, access until the period's end and a way to resume", async () => {
    const calls = stubApi({
      'POST /api/v1/payments/unsubscribe': { body: { success: true, message: answers.unsubscribedRefundUsed, refunded: false } },
      'GET /api/v1/user/me': { body: { success: true, message: answers.userDetailsFetched, user: endingUser } },
    });
    const { user, router, store } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel' }));
    expect(await screen.findByRole('status')).toHaveTextContent(answers.unsubscribedRefundUsed);
    expect(withoutProgress(calls).map((call) => `${call.init.method ?? 'GET'} ${call.url}`)).toEqual([
      'POST /api/v1/payments/unsubscribe',
      'GET /api/v1/user/me',
    ]);
    expect(router.state.location.pathname).toBe('/user/profile');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Cancelled, access until 23 Dec 2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Resume subscription' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: messages.cancelSubscription })).not.toBeInTheDocument();
    expect(store.getState().auth.data?.subscription).toEqual(endingUser.subscription);
  });

  it('still shows a refunded cancellation as inactive when reloading the user fails', async () => {
    stubApi({
      'POST /api/v1/payments/unsubscribe': { body: { success: true, message: answers.unsubscribedRefunded, refunded: true } },
      'GET /api/v1/user/me': { status: 500, body: {} },
    });
    const { user, router, store } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.data?.subscription.status).toBe('inactive');
  });

  it('still shows an unrefunded cancellation as ending when reloading the user fails', async () => {
    stubApi({
      'POST /api/v1/payments/unsubscribe': { body: { success: true, message: answers.unsubscribedNoRefund, refunded: false } },
      'GET /api/v1/user/me': { status: 500, body: {} },
    });
    const { user, router } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel' }));
    expect(await screen.findByText('Cancelled, access until 23 Dec 2026')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/profile');
  });

  it("shows the server's message when cancelling is refused, and stays active", async () => {
    const calls = stubApi({ 'POST /api/v1/payments/unsubscribe': { status: 400, body: { success: false, message: answers.noActiveSubscription } } });
    const { user, router, store } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel' }));
    expect(await findToast(answers.noActiveSubscription)).toBeInTheDocument();
    expect(withoutProgress(calls)).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/user/profile');
    expect(store.getState().auth.data?.subscription.status).toBe('active');
  });

  it('shows "Failed to unsubscribe" when the server gives no message', async () => {
    stubApi({ 'POST /api/v1/payments/unsubscribe': { status: 500, body: {} } });
    const { user } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel' }));
    expect(await findToast(messages.failedUnsubscribe)).toBeInTheDocument();
  });
});

describe('profile page: free trials and the save offer', () => {
  const trialEnd = '2026-12-02T06:30:00.000Z';
  const trialUser: User = { ...inactiveUser, subscription: { status: 'active', currentPeriodEnd: trialEnd, cancelAtPeriodEnd: false, trialEndsAt: trialEnd } };
  const offer = { discount: { code: 'STAY50', kind: 'percent', amount: 50, charges: 2 }, discountedPrice: 49.5, regularPrice: 99, interval: 'monthly' };
  const offerAnswer = (found: object | null) => ({ body: { success: true, message: answers.saveOfferFetched, offer: found } });
  const history = { body: { success: true, message: answers.billingHistoryFetched, entries: [], renewal: null } };
  const reads = (calls: { url: string; init: RequestInit }[], url: string) =>
    calls.filter((call) => (call.init.method ?? 'GET') === 'GET' && call.url === url).length;

  function renderProfile(user: User) {
    logIn(user);
    return renderPage(<ProfilePage />, { path: '/user/profile' });
  }

  it('in a free trial says when the first payment is, instead of a renewal', () => {
    renderProfile(trialUser);
    expect(screen.getByText('Active')).toBeInTheDocument();
    expect(screen.getByText('Trial, first payment on 2 Dec 2026')).toBeInTheDocument();
    expect(screen.queryByText(/^Renews on/)).not.toBeInTheDocument();
  });

  it('a trial cancelled says until when access lasts, as any cancelled subscription', () => {
    renderProfile({ ...trialUser, subscription: { ...trialUser.subscription, cancelAtPeriodEnd: true } });
    expect(screen.getByText('Cancelled, access until 2 Dec 2026')).toBeInTheDocument();
    expect(screen.queryByText(/^Trial, first payment/)).not.toBeInTheDocument();
  });

  it('cancelling in a free trial says nothing was charged and none will be, instead of the refund rules', async () => {
    stubApi({
      'GET /api/v1/payments/save-offer': offerAnswer(null),
      'GET /api/v1/payments/cancellation': termsAnswer({ outcome: 'trial', accessUntil: trialEnd }),
    });
    const { user } = renderProfile(trialUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    const dialog = screen.getByRole('dialog', { name: `${messages.cancelSubscription}?` });
    expect(await within(dialog).findByText(billingTexts.cancelInTrial('2 Dec 2026'))).toBeInTheDocument();
    expect(within(dialog).queryByText(messages.cancelConfirmRefund)).not.toBeInTheDocument();
  });

  it('the cancel dialog asks for the save offer when it opens, and shows it above the choices with its own button', async () => {
    const calls = stubApi({
      'GET /api/v1/payments/save-offer': offerAnswer(offer),
      'GET /api/v1/billing/history': history,
      'GET /api/v1/payments/cancellation': termsAnswer({
        outcome: 'window_passed',
        payment: { amount: 99, paidAt: '2026-11-03T06:30:00.000Z' },
        refundWindowEndsAt: '2026-11-17T06:30:00.000Z',
        accessUntil: periodEnd,
      }),
    });
    const { user } = renderProfile(activeUser);
    await screen.findByText(billingTexts.noPayments);
    expect(reads(calls, '/api/v1/payments/save-offer')).toBe(0);

    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    const dialog = screen.getByRole('dialog', { name: `${messages.cancelSubscription}?` });
    const found = await within(dialog).findByRole('region', { name: billingTexts.offerTitle });
    expect(found).toHaveTextContent('Stay for 50 % off your next 2 payments: ₹49.50 instead of ₹99');
    const take = within(found).getByRole('button', { name: billingTexts.takeOffer });
    expect(take).toHaveClass('btn-primary');
    // Above the cancel choices; cancelling is still there, the quiet way.
    const terms = await within(dialog).findByText(billingTexts.cancelWindowPassed(14, '3 Nov 2026', '17 Nov 2026', '23 Dec 2026'));
    expect(found.compareDocumentPosition(terms) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const cancel = within(dialog).getByRole('button', { name: 'Yes, cancel' });
    expect(cancel).toHaveClass('btn-outline');
    expect(
      within(dialog)
        .getAllByRole('button')
        .filter((button) => button.classList.contains('btn-primary')),
    ).toEqual([take]);
  });

  it('taking the offer sends it, says so, closes the dialog and reads the user and the billing history again', async () => {
    const calls = stubApi({
      'GET /api/v1/payments/save-offer': offerAnswer(offer),
      'POST /api/v1/payments/save-offer': { body: { success: true, message: answers.saveOfferAccepted, offer } },
      'GET /api/v1/billing/history': history,
      'GET /api/v1/user/me': { body: { success: true, message: answers.userDetailsFetched, user: activeUser } },
    });
    const { user, router, store } = renderProfile(activeUser);
    await screen.findByText(billingTexts.noPayments);
    const historyReads = reads(calls, '/api/v1/billing/history');
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await user.click(await screen.findByRole('button', { name: billingTexts.takeOffer }));

    expect(await findToast(answers.saveOfferAccepted)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(reads(calls, '/api/v1/billing/history')).toBeGreaterThan(historyReads));
    await waitFor(() => expect(reads(calls, '/api/v1/user/me')).toBe(1));
    expect(calls.filter((call) => call.init.method === 'POST').map((call) => call.url)).toEqual(['/api/v1/payments/save-offer']);
    expect(router.state.location.pathname).toBe('/user/profile');
    expect(store.getState().auth.data?.subscription.status).toBe('active');
  });

  it('an offer no longer there: the server says why, and the offer leaves the dialog', async () => {
    let offered: object | null = offer;
    stubApi({
      'GET /api/v1/payments/save-offer': () => offerAnswer(offered),
      'POST /api/v1/payments/save-offer': () => {
        offered = null;
        return { status: 400, body: { success: false, message: answers.saveOfferNone } };
      },
    });
    const { user } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await user.click(await screen.findByRole('button', { name: billingTexts.takeOffer }));

    expect(await findToast(answers.saveOfferNone)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: billingTexts.takeOffer })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Yes, cancel' })).not.toHaveClass('btn-outline');
  });

  it('without an offer the dialog is as it was, and it asks again each time it opens', async () => {
    const calls = stubApi({ 'GET /api/v1/payments/save-offer': offerAnswer(null) });
    const { user } = renderProfile(activeUser);
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await waitFor(() => expect(reads(calls, '/api/v1/payments/save-offer')).toBe(1));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: billingTexts.takeOffer })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Yes, cancel' })).toHaveClass('btn-error');
    expect(within(dialog).getByRole('button', { name: 'Yes, cancel' })).not.toHaveClass('btn-outline');

    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await user.click(screen.getByRole('button', { name: messages.cancelSubscription }));
    await waitFor(() => expect(reads(calls, '/api/v1/payments/save-offer')).toBe(2));
  });
});

describe('edit profile page', () => {
  const picture = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'new.png', { type: 'image/png' });

  function renderEdit() {
    logIn(inactiveUser);
    const view = renderPage(<EditProfilePage />, { path: '/user/editprofile' });
    const save = async (fullName: string | null, avatar: File | null) => {
      if (avatar) await view.user.upload(screen.getByLabelText('Profile picture'), avatar);
      if (fullName !== null) {
        await view.user.clear(screen.getByLabelText('Full name'));
        if (fullName) await view.user.type(screen.getByLabelText('Full name'), fullName);
      }
      await view.user.click(screen.getByRole('button', { name: 'Update profile' }));
    };
    return { ...view, save };
  }

  it('has a heading, its own tab title, the name filled in, an avatar picker and a way back', () => {
    renderEdit();
    expect(screen.getByRole('heading', { level: 1, name: 'Edit profile' })).toBeInTheDocument();
    expect(document.title).toBe('Edit profile · LMS');
    expect(screen.getByLabelText('Full name')).toHaveValue('Asha Verma');
    expect(screen.getByLabelText('Profile picture')).toHaveAttribute('accept', AVATAR_ACCEPT);
    expect(screen.getByRole('link', { name: 'Back to profile' })).toHaveAttribute('href', '/user/profile');
  });

  it.each([
    ['no name', messages.missingFields(messages.allFieldsMandatory, ['Full name']), '', true],
    ['a blank name', messages.missingFields(messages.allFieldsMandatory, ['Full name']), '   ', true],
    ['no new avatar and a 4-letter name', messages.editNameTooShort, 'Asha', false],
    ['a 4-letter name', messages.editNameTooShort, 'Asha', true],
  ])('with %s shows "%s" and sends nothing', async (_case, text, fullName, withAvatar) => {
    const calls = stubApi({});
    const { save } = renderEdit();
    await save(fullName, withAvatar ? picture() : null);
    expect(await findToast(text)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows the current picture until a new one is chosen, then a preview of the new one instead', async () => {
    const { user } = renderEdit();
    expect(screen.getByRole('img', { name: messages.currentAvatarAlt })).toHaveAttribute('src', inactiveUser.avatar.secure_url);
    expect(screen.getByText(messages.avatarKeepHint('5 MB'))).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Profile picture'), picture());
    expect(await screen.findByRole('img', { name: messages.newAvatarAlt })).toHaveAttribute('src', 'blob:preview-1');
    expect(screen.queryByRole('img', { name: messages.currentAvatarAlt })).not.toBeInTheDocument();
  });

  it('saves a new name without a new picture: the current one counts, and only the name is sent', async () => {
    const updated: User = { ...inactiveUser, fullName: 'Asha Verma Rao' };
    const calls = stubApi({ [`PUT /api/v1/user/update/${inactiveUser._id}`]: { body: { success: true, message: answers.profileUpdated, user: updated } } });
    const { save, router, store } = renderEdit();
    await save('Asha Verma Rao', null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
    expect(calls).toHaveLength(1);
    const body = calls[0]!.init.body as FormData;
    expect([...body.keys()]).toEqual(['fullName']);
    expect(body.get('fullName')).toBe('Asha Verma Rao');
    expect(store.getState().auth.data).toEqual(updated);
    expect(await findToast(answers.profileUpdated)).toBeInTheDocument();
  });

  it('sends the multipart form to the user, keeps the new name and goes to the profile', async () => {
    const updated: User = { ...inactiveUser, fullName: 'Asha Verma Rao', avatar: { secure_url: '/media/avatars/new.png' } };
    const calls = stubApi({ [`PUT /api/v1/user/update/${inactiveUser._id}`]: { body: { success: true, message: answers.profileUpdated, user: updated } } });
    const { save, router, store } = renderEdit();
    await save('Asha Verma Rao', picture());
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(`/api/v1/user/update/${inactiveUser._id}`);
    expect(calls[0]!.init.method).toBe('PUT');
    const body = calls[0]!.init.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect([...body.keys()]).toEqual(['fullName', 'avatar']);
    expect(body.get('fullName')).toBe('Asha Verma Rao');
    expect((body.get('avatar') as File).name).toBe('new.png');
    expect(store.getState().auth.data).toEqual(updated);
    expect(await findToast(answers.profileUpdated)).toBeInTheDocument();
  });

  it("shows the server's message when the update is refused, and stays", async () => {
    stubApi({ [`PUT /api/v1/user/update/${inactiveUser._id}`]: { status: 400, body: { success: false, message: messages.avatarType } } });
    const { save, router } = renderEdit();
    await save(null, picture());
    expect(await findToast(messages.avatarType)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/user/editprofile');
    expect(screen.getByRole('button', { name: 'Update profile' })).toBeEnabled();
  });

  it('shows "Failed to update profile" when the server gives no message', async () => {
    stubApi({ [`PUT /api/v1/user/update/${inactiveUser._id}`]: { status: 500, body: {} } });
    const { save } = renderEdit();
    await save(null, picture());
    expect(await findToast(messages.failedUpdateProfile)).toBeInTheDocument();
  });
});
