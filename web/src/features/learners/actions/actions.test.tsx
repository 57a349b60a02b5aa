import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { LearnerDetail, LearnerPayment } from '@lms/contract/learners';
import { formatDate } from '../../../lib/format';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../../test/render';
import { LearnerActions, PaymentActions } from './index';
import { actionsTexts as texts } from './actions-texts';

const learnerId = '10000000-0000-4000-8000-000000000001';
const paymentId = '20000000-0000-4000-8000-000000000001';

const payment = (overrides: Partial<LearnerPayment> = {}): LearnerPayment => ({
  _id: paymentId,
  paidAt: '2026-11-01T10:00:00.000Z',
  description: 'Monthly plan',
  amount: 499,
  refunded: 0,
  status: 'paid',
  invoice: { id: '30000000-0000-4000-8000-000000000001', number: 'LMS/26-27/000123', ready: true },
  creditNotes: [],
  refunds: [],
  ...overrides,
});

const learner = (overrides: Partial<LearnerDetail> = {}): LearnerDetail => ({
  profile: {
    _id: learnerId,
    fullName: 'Asha Verma',
    email: 'asha@example.com',
    avatarUrl: '/media/avatars/asha.png',
    role: 'USER',
    signedUpAt: '2026-10-01T10:00:00.000Z',
    lastActiveAt: null,
    pendingEmail: null,
    suspendedAt: null,
    suspensionReason: null,
    certificateName: null,
  },
  state: 'subscribed',
  access: { until: '2026-12-01T10:00:00.000Z', source: 'subscription' },
  grants: [],
  subscriptions: [
    {
      _id: '40000000-0000-4000-8000-000000000001',
      plan: 'Monthly',
      status: 'active',
      createdAt: '2026-11-01T10:00:00.000Z',
      currentEnd: '2026-12-01T10:00:00.000Z',
      cancelledAt: null,
      trialDays: 0,
      paidCount: 1,
      coupon: null,
    },
  ],
  payments: [payment()],
  progress: [],
  sessions: [],
  quizzes: [],
  certificates: [],
  cancellations: [],
  activity: [],
  ...overrides,
});

function open(element: React.ReactElement) {
  storeLogin(sampleUser({ _id: '90000000-0000-4000-8000-000000000009', role: 'ADMIN', fullName: 'LMS Admin' }));
  return renderPage(element, { path: '/admin/learner' });
}
/** A date as the dialogs show it, its no-break spaces read as spaces (as the text matchers read them). */
const day = (iso: string) => formatDate(iso)!.replace(/\u00a0/g, ' ');

const sentBodies = (calls: { url: string; init: RequestInit }[], url: string) =>
  calls.filter((call) => call.url === url).map((call) => JSON.parse(call.init.body as string) as Record<string, unknown>);

afterEach(() => vi.restoreAllMocks());

describe('a learner’s actions', () => {
  it('grants days with a note: the default 30, the end date shown before confirming, the note required', async () => {
    const url = `/api/v1/admin/learners/${learnerId}/access`;
    const calls = stubApi({ [`POST ${url}`]: { body: { success: true, message: answers.accessGranted('31 Dec 2026') } } });
    const { user } = open(<LearnerActions learner={learner()} />);
    expect(screen.queryByRole('button', { name: texts.revoke })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.grant }));
    const dialog = screen.getByRole('dialog', { name: texts.grantTitle('Asha Verma') });
    expect(within(dialog).getByLabelText(texts.days)).toHaveValue(30);
    expect(within(dialog).getByLabelText(texts.days)).toHaveFocus();

    // No note: said in the dialog, nothing sent.
    await user.click(within(dialog).getByRole('button', { name: texts.grantSubmit }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(answers.grantNoteInvalid);
    expect(calls).toEqual([]);

    await user.type(within(dialog).getByLabelText(texts.note), 'Scholarship');
    const ends = day(new Date(Date.now() + 30 * 86_400_000).toISOString());
    expect(within(dialog).getByText(texts.grantEnds(ends))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: texts.grantSubmit }));
    expect(await findToast(answers.accessGranted('31 Dec 2026'))).toBeInTheDocument();
    expect(sentBodies(calls, url)).toEqual([{ days: 30, note: 'Scholarship' }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('grants until a date, and shows the server’s refusal in the dialog', async () => {
    const url = `/api/v1/admin/learners/${learnerId}/access`;
    const calls = stubApi({ [`POST ${url}`]: { status: 409, body: { success: false, message: answers.grantToSuspended } } });
    const { user } = open(<LearnerActions learner={learner()} />);
    await user.click(screen.getByRole('button', { name: texts.grant }));
    const dialog = screen.getByRole('dialog', { name: texts.grantTitle('Asha Verma') });
    await user.click(within(dialog).getByRole('radio', { name: texts.byDate }));
    expect(within(dialog).queryByLabelText(texts.days)).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(texts.until), '2027-01-31');
    await user.type(within(dialog).getByLabelText(texts.note), 'Refund goodwill');
    expect(within(dialog).getByText(texts.grantEnds(day('2027-01-31T12:00:00+05:30')))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: texts.grantSubmit }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(answers.grantToSuspended);
    expect(sentBodies(calls, url)).toEqual([{ until: '2027-01-31', note: 'Refund goodwill' }]);
    expect(within(dialog).getByLabelText(texts.note)).toHaveValue('Refund goodwill');
  });

  it('offers to extend and revoke while a grant is in force; revoking sends the note', async () => {
    const url = `/api/v1/admin/learners/${learnerId}/access/revocation`;
    const calls = stubApi({ [`POST ${url}`]: { body: { success: true, message: answers.accessRevoked } } });
    const grant = {
      _id: '50000000-0000-4000-8000-000000000001',
      startsAt: '2026-11-01T10:00:00.000Z',
      endsAt: '2026-12-15T18:29:59.999Z',
      note: 'Scholarship',
      grantedBy: 'LMS Admin',
      revokedAt: null,
      revokedBy: null,
      state: 'active' as const,
    };
    const { user } = open(<LearnerActions learner={learner({ state: 'complimentary', grants: [grant] })} />);
    expect(screen.getByRole('button', { name: texts.extend })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.revoke }));
    const dialog = screen.getByRole('dialog', { name: texts.revokeTitle('Asha Verma') });
    await user.type(within(dialog).getByLabelText(texts.note), 'Granted by mistake');
    await user.click(within(dialog).getByRole('button', { name: texts.revoke }));
    expect(await findToast(answers.accessRevoked)).toBeInTheDocument();
    expect(sentBodies(calls, url)).toEqual([{ note: 'Granted by mistake' }]);
  });

  it('changes an email with a note, saying a link goes to the new address', async () => {
    const url = `/api/v1/admin/learners/${learnerId}/email`;
    const calls = stubApi({ [`PUT ${url}`]: { body: { success: true, message: answers.emailChangeMailed('asha.new@example.com') } } });
    const { user } = open(<LearnerActions learner={learner()} />);
    await user.click(screen.getByRole('button', { name: texts.changeEmail }));
    const dialog = screen.getByRole('dialog', { name: texts.changeEmailTitle('Asha Verma') });
    expect(dialog).toHaveTextContent(texts.changeEmailIntro('asha@example.com'));
    await user.type(within(dialog).getByLabelText(texts.newEmail), 'asha.new@example.com');
    await user.type(within(dialog).getByLabelText(texts.note), 'Asked by phone');
    await user.click(within(dialog).getByRole('button', { name: texts.changeEmailSubmit }));
    expect(await findToast(answers.emailChangeMailed('asha.new@example.com'))).toBeInTheDocument();
    expect(sentBodies(calls, url)).toEqual([{ email: 'asha.new@example.com', note: 'Asked by phone' }]);
  });

  it('suspends only with a reason, and ends sessions only when there are some', async () => {
    const url = `/api/v1/admin/users/${learnerId}/suspension`;
    const calls = stubApi({
      [`PUT ${url}`]: {
        body: {
          success: true,
          message: answers.suspensionSaved(true),
          account: { _id: learnerId, fullName: 'Asha Verma', email: 'asha@example.com', role: 'USER', suspended: true, activeSessions: 0 },
        },
      },
    });
    const { user } = open(<LearnerActions learner={learner()} />);
    expect(screen.getByRole('button', { name: texts.endSessions })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: texts.suspend }));
    const dialog = screen.getByRole('dialog', { name: /Suspend Asha Verma/ });
    await user.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(answers.suspensionReasonNeeded);
    expect(calls).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason'), 'Chargeback fraud');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend account' }));
    expect(await findToast(answers.suspensionSaved(true))).toBeInTheDocument();
    expect(sentBodies(calls, url)).toEqual([{ suspended: true, reason: 'Chargeback fraud' }]);
  });

  it('offers Restore for a suspended learner', () => {
    stubApi({});
    const suspended = learner();
    suspended.profile = { ...suspended.profile, suspendedAt: '2026-11-20T10:00:00.000Z', suspensionReason: 'Fraud' };
    open(<LearnerActions learner={suspended} />);
    expect(screen.getByRole('button', { name: texts.restore })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.suspend })).not.toBeInTheDocument();
  });
});

describe('a payment’s actions', () => {
  const url = `/api/v1/admin/payments/${paymentId}/refunds`;
  const refundAnswer = (amount: number) => ({
    body: {
      success: true,
      message: answers.refundIssued(`₹${amount}`),
      refund: {
        _id: '60000000-0000-4000-8000-000000000001',
        amount,
        state: 'processed',
        failure: null,
        note: 'n',
        access: 'now',
        by: 'LMS Admin',
        createdAt: '2026-11-28T10:00:00.000Z',
      },
    },
  });

  it('prefills what remains, confirms whom and how much, and refunds half with access to the period’s end', async () => {
    const partly = payment({
      refunded: 100,
      status: 'partly_refunded',
      refunds: [
        {
          _id: '60000000-0000-4000-8000-000000000002',
          amount: 99,
          state: 'pending',
          failure: null,
          note: 'x',
          access: 'now',
          by: null,
          createdAt: '2026-11-27T10:00:00.000Z',
        },
      ],
    });
    const calls = stubApi({ [`POST ${url}`]: refundAnswer(150) });
    const subject = learner({ payments: [partly] });
    const { user } = open(<PaymentActions learner={subject} payment={partly} />);
    await user.click(screen.getByRole('button', { name: texts.refundNamed('Monthly plan') }));
    const dialog = screen.getByRole('dialog', { name: texts.refundTitle });
    // ₹499 − ₹100 refunded − ₹99 on its way.
    expect(within(dialog).getByLabelText(texts.amount)).toHaveValue('300');
    expect(within(dialog).getByText(texts.refundConfirm(300, 'Asha Verma'))).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: texts.half }));
    expect(within(dialog).getByLabelText(texts.amount)).toHaveValue('150');
    await user.click(within(dialog).getByRole('radio', { name: texts.accessPeriodEnd(formatDate('2026-12-01T10:00:00.000Z')) }));
    await user.type(within(dialog).getByLabelText(texts.note), 'Half month unused');
    await user.click(within(dialog).getByRole('button', { name: texts.refundSubmit }));
    expect(await findToast(answers.refundIssued('₹150'))).toBeInTheDocument();
    const [sent] = sentBodies(calls, url);
    expect(sent).toEqual({ key: expect.stringMatching(/^[0-9a-f-]{36}$/), amount: 150, access: 'period_end', note: 'Half month unused' });
  });

  it('sends the same key on a retry of the same dialog, and a new key from a new dialog', async () => {
    let answers503 = 1;
    const calls = stubApi({
      [`POST ${url}`]: () => (answers503-- > 0 ? { status: 503, body: { success: false, message: answers.refundProviderDown } } : refundAnswer(499)),
    });
    const { user } = open(<PaymentActions learner={learner()} payment={payment()} />);
    await user.click(screen.getByRole('button', { name: texts.refundNamed('Monthly plan') }));
    let dialog = screen.getByRole('dialog', { name: texts.refundTitle });
    expect(within(dialog).getByLabelText(texts.amount)).toHaveValue('499');
    await user.type(within(dialog).getByLabelText(texts.note), 'Charged twice');
    await user.click(within(dialog).getByRole('button', { name: texts.refundSubmit }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(answers.refundProviderDown);
    await user.click(within(dialog).getByRole('button', { name: texts.refundSubmit }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: texts.refundNamed('Monthly plan') }));
    dialog = screen.getByRole('dialog', { name: texts.refundTitle });
    await user.type(within(dialog).getByLabelText(texts.note), 'Charged twice');
    await user.click(within(dialog).getByRole('button', { name: texts.refundSubmit }));
    await waitFor(() => expect(sentBodies(calls, url)).toHaveLength(3));
    const keys = sentBodies(calls, url).map((body) => body.key);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('shows the provider’s refusal in the dialog, and a double press sends one request', async () => {
    let answer: (value: { status: number; body: object }) => void = () => undefined;
    const calls: string[] = [];
    globalThis.fetch = (async (input: string) => {
      calls.push(input);
      const { status, body } = await new Promise<{ status: number; body: object }>((resolve) => (answer = resolve));
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const { user } = open(<PaymentActions learner={learner()} payment={payment()} />);
    await user.click(screen.getByRole('button', { name: texts.refundNamed('Monthly plan') }));
    const dialog = screen.getByRole('dialog', { name: texts.refundTitle });
    await user.type(within(dialog).getByLabelText(texts.note), 'Charged twice');
    const submit = within(dialog).getByRole('button', { name: texts.refundSubmit });
    await user.dblClick(submit);
    await waitFor(() => expect(submit).toBeDisabled());
    answer({ status: 422, body: { success: false, message: answers.refundRefused('The refund amount exceeds the captured amount') } });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(answers.refundRefused('The refund amount exceeds the captured amount'));
    expect(calls).toEqual([url]);
    expect(submit).toBeEnabled();
  });

  it('hides Refund when nothing remains, and resends the invoice and each ready credit note', async () => {
    const refunded = payment({
      refunded: 499,
      status: 'refunded',
      creditNotes: [
        { id: '30000000-0000-4000-8000-000000000002', number: 'CN/26-27/000004', ready: true },
        { id: '30000000-0000-4000-8000-000000000003', number: 'CN/26-27/000005', ready: false },
      ],
    });
    const calls = stubApi({
      'POST /api/v1/admin/billing/documents/30000000-0000-4000-8000-000000000002/resend': {
        body: { success: true, message: answers.documentResent('asha@example.com') },
      },
    });
    const { user } = open(<PaymentActions learner={learner()} payment={refunded} />);
    expect(screen.queryByRole('button', { name: texts.refundNamed('Monthly plan') })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: texts.resendNamed(texts.invoice, 'LMS/26-27/000123') })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: texts.resendNamed(texts.creditNote, 'CN/26-27/000005') })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.resendNamed(texts.creditNote, 'CN/26-27/000004') }));
    expect(await findToast(answers.documentResent('asha@example.com'))).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });
});
