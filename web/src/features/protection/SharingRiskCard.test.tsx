import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { SharingRisk } from '@lms/contract/protection';
import { findToast, renderPage, sampleUser, stubApi, storeLogin } from '../../test/render';
import { SharingRiskCard } from './SharingRiskCard';
import { protectionTexts as texts } from './protection-texts';

const RISK = 'GET /api/v1/admin/sharing-risk';

const shared: SharingRisk = {
  account: {
    _id: '10000000-0000-4000-8000-000000000001',
    fullName: 'Asha Verma',
    email: 'asha@example.com',
    role: 'USER',
    suspended: false,
    activeSessions: 3,
  },
  addressBlocks: 9,
  refusals: 2,
  lastSeenAt: '2026-11-27T10:42:00.000Z',
};
const refused: SharingRisk = {
  account: { _id: '10000000-0000-4000-8000-000000000002', fullName: 'Ravi Kumar', email: 'ravi@example.com', role: 'USER', suspended: true, activeSessions: 0 },
  addressBlocks: 1,
  refusals: 14,
  lastSeenAt: null,
};

const riskAnswer = (accounts: SharingRisk[], thresholds = { addressBlocks: 4, refusals: 10 }) => ({
  body: { success: true, message: answers.sharingRiskFetched, windowHours: 24, ...thresholds, accounts },
});

function open() {
  storeLogin(sampleUser({ role: 'ADMIN', fullName: 'Admin' }));
  return renderPage(<SharingRiskCard />, { path: '/admin/dashboard' });
}

afterEach(() => vi.restoreAllMocks());

describe('the sharing-risk card', () => {
  it('lists the accounts against the thresholds, the worst first, with their state', async () => {
    stubApi({ [RISK]: riskAnswer([shared, refused]) });
    open();
    const card = screen.getByRole('region', { name: texts.riskTitle });
    expect(await within(card).findByText(texts.riskIntro(24, 4, 10))).toBeInTheDocument();
    const rows = within(within(card).getByRole('list', { name: texts.riskList })).getAllByRole('article');
    expect(rows.map((row) => within(row).getByRole('heading').textContent)).toEqual(['Asha Verma', 'Ravi Kumar']);

    const [asha, ravi] = rows as [HTMLElement, HTMLElement];
    const figures = (row: HTMLElement) =>
      within(row)
        .getAllByRole('term')
        .map((term) => `${term.textContent}: ${term.nextElementSibling!.textContent}`);
    expect(figures(asha)).toEqual([`${texts.addressBlocks}: ${texts.ofThreshold(9, 4)}`, `${texts.refusals}: ${texts.underThreshold(2, 10)}`]);
    expect(asha).toHaveTextContent('asha@example.com');
    expect(asha).toHaveTextContent(texts.sessions(3));
    expect(asha).toHaveTextContent('27 Nov 2026, 4:12 pm');
    expect(figures(ravi)).toEqual([`${texts.addressBlocks}: ${texts.underThreshold(1, 4)}`, `${texts.refusals}: ${texts.ofThreshold(14, 10)}`]);
    expect(within(ravi).getByText(texts.suspended)).toBeInTheDocument();
    expect(within(ravi).getByRole('button', { name: texts.restore })).toBeInTheDocument();

    expect(within(card).getByRole('link', { name: texts.toTrace })).toHaveAttribute('href', '/admin/trace');
    expect(within(card).getByRole('link', { name: texts.thresholds })).toHaveAttribute('href', '/admin/settings#settings-protection');
  });

  it('says nothing looks shared when no account is past either threshold', async () => {
    stubApi({ [RISK]: riskAnswer([]) });
    open();
    expect(await screen.findByText(texts.riskEmpty(24))).toBeInTheDocument();
    expect(screen.getByText('Nothing looks shared in the last 24 hours.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: texts.riskList })).not.toBeInTheDocument();
  });

  it('suspends an account with the reason given, and lists it again as the server has it', async () => {
    let suspended = false;
    const calls = stubApi({
      [RISK]: () => riskAnswer([{ ...shared, account: { ...shared.account, suspended, activeSessions: suspended ? 0 : 3 } }]),
      [`PUT /api/v1/admin/users/${shared.account._id}/suspension`]: () => {
        suspended = true;
        return { body: { success: true, message: answers.suspensionSaved(true), account: { ...shared.account, suspended, activeSessions: 0 } } };
      },
    });
    const { user } = open();
    const row = await screen.findByRole('article');
    await user.click(within(row).getByRole('button', { name: texts.suspend }));
    const dialog = screen.getByRole('dialog', { name: texts.suspendTitle('Asha Verma') });
    expect(dialog).toHaveTextContent(texts.confirmSuspend('Asha Verma', 'asha@example.com'));
    expect(within(dialog).getByLabelText(texts.reason)).toHaveFocus();
    await user.type(within(dialog).getByLabelText(texts.reason), 'Shared with 9 networks');
    await user.click(within(dialog).getByRole('button', { name: texts.suspend }));
    expect(await findToast(answers.suspensionSaved(true))).toBeInTheDocument();
    expect(await within(row).findByText(texts.suspended)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: texts.endSessions })).toBeDisabled();
    const sent = calls.filter((call) => call.init.method === 'PUT').map((call) => JSON.parse(call.init.body as string) as unknown);
    expect(sent).toEqual([{ suspended: true, reason: 'Shared with 9 networks' }]);
  });

  it('says a refusal inside the dialog, which stays open with the reason typed', async () => {
    stubApi({
      [RISK]: () => riskAnswer([shared]),
      [`PUT /api/v1/admin/users/${shared.account._id}/suspension`]: { status: 400, body: { success: false, message: answers.suspensionReasonInvalid } },
    });
    const { user } = open();
    const row = await screen.findByRole('article');
    await user.click(within(row).getByRole('button', { name: texts.suspend }));
    const dialog = screen.getByRole('dialog', { name: texts.suspendTitle('Asha Verma') });
    await user.type(within(dialog).getByLabelText(texts.reason), 'Too long, as the server says');
    await user.click(within(dialog).getByRole('button', { name: texts.suspend }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(answers.suspensionReasonInvalid);
    expect(within(dialog).getByLabelText(texts.reason)).toHaveValue('Too long, as the server says');
    // Cancel closes it.
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says when the list could not be loaded', async () => {
    stubApi({ [RISK]: { status: 500, body: { success: false, message: 'Something went wrong' } } });
    open();
    expect(await screen.findByText(texts.riskFailed)).toBeInTheDocument();
  });
});
