import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { AdminPlan, Coupon } from '@lms/contract/plans';
import { findToast, renderPage, stubApi } from '../../test/render';
import CouponsPage from './CouponsPage';
import { adminTexts, couponsTexts } from './plans-texts';

const PLANS = 'GET /api/v1/admin/plans';
const LIST = 'GET /api/v1/admin/coupons';
const CREATE = 'POST /api/v1/admin/coupons';
const patchOf = (id: string) => `PATCH /api/v1/admin/coupons/${id}`;

const plan = (n: number, name: string, overrides: Partial<AdminPlan> = {}): AdminPlan => ({
  id: `50000000-0000-4000-8000-00000000000${n}`,
  name,
  interval: 'monthly',
  price: 99,
  listPrice: 99,
  trialDays: 0,
  default: n === 1,
  archived: false,
  subscribers: 0,
  prices: [],
  createdAt: '2026-11-01T06:00:00.000Z',
  ...overrides,
});
const monthly = plan(1, 'Monthly');
const yearly = plan(2, 'Yearly', { interval: 'yearly', price: 999, listPrice: 999 });
const retired = plan(3, 'Founders', { archived: true });

const coupon = (n: number, overrides: Partial<Coupon>): Coupon => ({
  id: `60000000-0000-4000-8000-00000000000${n}`,
  code: `CODE${n}`,
  kind: 'percent',
  amount: 50,
  charges: 1,
  validFrom: null,
  validUntil: null,
  maxRedemptions: null,
  redemptions: 0,
  plans: [],
  saveOffer: false,
  archived: false,
  createdAt: '2026-11-01T06:00:00.000Z',
  ...overrides,
});
const welcome = coupon(1, {
  code: 'WELCOME50',
  charges: 2,
  maxRedemptions: 100,
  redemptions: 3,
  plans: [yearly.id],
  validFrom: '2020-11-30T18:30:00.000Z',
  validUntil: '2099-01-01T18:30:00.000Z',
});
const stay = coupon(2, { code: 'STAY20', kind: 'amount', amount: 20, saveOffer: true });
const later = coupon(3, { code: 'NEWYEAR', validFrom: '2098-12-31T18:30:00.000Z' });
const gone = coupon(4, { code: 'DIWALI', validUntil: '2020-11-15T18:30:00.000Z' });
const full = coupon(5, { code: 'FIRST10', maxRedemptions: 10, redemptions: 10, plans: [monthly.id, yearly.id] });
const shelved = coupon(6, { code: 'OLD', archived: true });

const plansAnswer = { body: { success: true, message: answers.plansFetched, plans: [monthly, yearly, retired] } };
const listAnswer = (coupons: Coupon[]) => ({ body: { success: true, message: answers.couponsFetched, coupons } });

function open() {
  return renderPage(<CouponsPage />, { path: '/admin/coupons' });
}
const text = (element: Element) => element.textContent.replace(/\s+/g, ' ');
const table = () => screen.getByRole('table', { name: couponsTexts.listLabel });
const rowOf = (code: string) =>
  within(table())
    .getByRole('rowheader', { name: new RegExp(`^${code}`) })
    .closest('tr')!;
const sent = (calls: { url: string; init: RequestInit }[], key: string) =>
  calls.filter((call) => `${call.init.method ?? 'GET'} ${call.url}` === key).map((call) => JSON.parse(call.init.body as string) as unknown);

describe('coupons page', () => {
  it('lists each coupon: its discount in words, when it works, uses, plans by name, the save offer, and whether it works now', async () => {
    document.title = '';
    stubApi({ [PLANS]: plansAnswer, [LIST]: listAnswer([welcome, stay, later, gone, full, shelved]) });
    open();
    expect(screen.getByRole('heading', { level: 1, name: couponsTexts.title })).toBeInTheDocument();
    expect(document.title).toBe('Coupons · LMS');
    await screen.findByRole('table', { name: couponsTexts.listLabel });
    const cells = (code: string) => within(rowOf(code)).getAllByRole('cell').slice(0, 5).map(text);
    await waitFor(() => expect(cells('WELCOME50')).toEqual(['50 % off the first 2 payments', '1 Dec 2020 to 1 Jan 2099', '3 of 100', 'Yearly', 'Active']));
    expect(cells('STAY20')).toEqual(['₹20 off the first payment', 'Any time', '0 · no limit', 'All plans', 'Active']);
    expect(rowOf('STAY20')).toHaveTextContent(couponsTexts.saveOffer);
    expect(rowOf('WELCOME50')).not.toHaveTextContent(couponsTexts.saveOffer);
    expect(cells('NEWYEAR')).toEqual(['50 % off the first payment', 'From 1 Jan 2099', '0 · no limit', 'All plans', 'Scheduled']);
    expect(cells('DIWALI')).toEqual(['50 % off the first payment', 'Until 15 Nov 2020', '0 · no limit', 'All plans', 'Expired']);
    expect(cells('FIRST10')).toEqual(['50 % off the first payment', 'Any time', '10 of 10', 'Monthly, Yearly', 'Used up']);
    expect(cells('OLD')[4]).toBe('Archived');
    expect(within(rowOf('OLD')).getByRole('button', { name: 'Bring back OLD' })).toBeInTheDocument();
    expect(within(rowOf('STAY20')).getByRole('button', { name: 'Archive STAY20' })).toBeInTheDocument();
  });

  it('shows the same as a card per coupon on a phone', async () => {
    stubApi({ [PLANS]: plansAnswer, [LIST]: listAnswer([stay]) });
    open();
    const cards = await screen.findByRole('list', { name: couponsTexts.listLabel });
    const card = within(cards).getByRole('heading', { level: 2, name: 'STAY20' }).closest('li')!;
    expect(card).toHaveTextContent('₹20 off the first payment');
    expect(card).toHaveTextContent(couponsTexts.saveOffer);
    expect(card).toHaveTextContent(`${couponsTexts.plans}${couponsTexts.allPlans}`);
  });

  it('says what to do when there are no coupons yet', async () => {
    stubApi({ [PLANS]: plansAnswer, [LIST]: listAnswer([]) });
    open();
    expect(await screen.findByText(couponsTexts.empty)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: couponsTexts.newCoupon })).toHaveClass('btn-primary');
  });

  it('makes a coupon: checks it first, then sends the code upper-cased, the days as moments in India, the plans ticked', async () => {
    const made = coupon(7, {
      code: 'DEC-25',
      charges: 3,
      maxRedemptions: 100,
      plans: [yearly.id],
      validFrom: '2026-11-30T18:30:00.000Z',
      validUntil: '2026-12-31T18:30:00.000Z',
    });
    let lists = 0;
    const calls = stubApi({
      [PLANS]: plansAnswer,
      [LIST]: () => listAnswer(++lists === 1 ? [stay] : [made, stay]),
      [CREATE]: { status: 201, body: { success: true, message: answers.couponCreated, coupon: made } },
    });
    const { user } = open();
    await screen.findByRole('table', { name: couponsTexts.listLabel });
    await user.click(screen.getByRole('button', { name: couponsTexts.newCoupon }));
    const dialog = screen.getByRole('dialog', { name: couponsTexts.createTitle });
    const submit = () => user.click(within(dialog).getByRole('button', { name: couponsTexts.create }));

    await user.type(within(dialog).getByLabelText(couponsTexts.codeLabel), 'dec-25');
    expect(within(dialog).getByLabelText(couponsTexts.codeLabel)).toHaveValue('DEC-25');
    await user.type(within(dialog).getByLabelText(couponsTexts.percentLabel), '150');
    await submit();
    expect(await findToast(answers.couponPercentInvalid)).toBeInTheDocument();
    expect(sent(calls, CREATE)).toEqual([]);

    await user.clear(within(dialog).getByLabelText(couponsTexts.percentLabel));
    await user.type(within(dialog).getByLabelText(couponsTexts.percentLabel), '25');
    await user.clear(within(dialog).getByLabelText(couponsTexts.charges));
    await user.type(within(dialog).getByLabelText(couponsTexts.charges), '3');
    await user.type(within(dialog).getByLabelText(couponsTexts.validFrom), '2026-12-01');
    await user.type(within(dialog).getByLabelText(couponsTexts.validUntil), '2026-12-31');
    await user.type(within(dialog).getByLabelText(couponsTexts.max), '100');
    // Plans on sale are offered; an archived one is not.
    const plans = within(dialog).getByRole('group', { name: couponsTexts.plansLegend });
    expect(
      within(plans)
        .getAllByRole('checkbox')
        .map((box) => box.closest('label')!.textContent),
    ).toEqual(['Monthly · ₹99 / month', 'Yearly · ₹999 / year']);
    await user.click(within(plans).getByRole('checkbox', { name: /^Yearly/ }));
    await submit();

    expect(await findToast(answers.couponCreated)).toBeInTheDocument();
    expect(sent(calls, CREATE)).toEqual([
      {
        code: 'DEC-25',
        kind: 'percent',
        amount: 25,
        charges: 3,
        validFrom: '2026-11-30T18:30:00.000Z',
        validUntil: '2026-12-31T18:30:00.000Z',
        maxRedemptions: 100,
        plans: [yearly.id],
        saveOffer: false,
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(table()).findByRole('rowheader', { name: 'DEC-25' })).toBeInTheDocument();
    expect(text(rowOf('DEC-25'))).toContain('1 Dec 2026 to 31 Dec 2026');
  });

  it('makes an amount off the save offer, saying it takes over from the current one; a taken code is refused with the server’s words', async () => {
    const calls = stubApi({
      [PLANS]: plansAnswer,
      [LIST]: listAnswer([stay]),
      [CREATE]: { status: 409, body: { success: false, message: answers.couponCodeTaken } },
    });
    const { user } = open();
    await screen.findByRole('table', { name: couponsTexts.listLabel });
    await user.click(screen.getByRole('button', { name: couponsTexts.newCoupon }));
    const dialog = screen.getByRole('dialog', { name: couponsTexts.createTitle });
    await user.type(within(dialog).getByLabelText(couponsTexts.codeLabel), 'STAY20');
    await user.click(within(dialog).getByRole('radio', { name: couponsTexts.amount }));
    await user.type(within(dialog).getByLabelText(couponsTexts.amountLabel), '20.50');
    const offer = within(dialog).getByRole('checkbox', { name: couponsTexts.saveOfferLabel });
    expect(offer).not.toHaveAccessibleDescription(new RegExp(couponsTexts.replacesSaveOffer('STAY20')));
    await user.click(offer);
    expect(offer).toHaveAccessibleDescription(`${couponsTexts.saveOfferHint} ${couponsTexts.replacesSaveOffer('STAY20')}`);
    await user.click(within(dialog).getByRole('button', { name: couponsTexts.create }));

    expect(await findToast(answers.couponCodeTaken)).toBeInTheDocument();
    expect(sent(calls, CREATE)).toEqual([
      { code: 'STAY20', kind: 'amount', amount: 20.5, charges: 1, validFrom: null, validUntil: null, maxRedemptions: null, plans: [], saveOffer: true },
    ]);
    expect(screen.getByRole('dialog', { name: couponsTexts.createTitle })).toBeInTheDocument();
  });

  it('changes only what may change, and sends only what did: a new last day, no limit', async () => {
    const calls = stubApi({
      [PLANS]: plansAnswer,
      [LIST]: listAnswer([welcome]),
      [patchOf(welcome.id)]: { body: { success: true, message: answers.couponUpdated, coupon: welcome } },
    });
    const { user } = open();
    await screen.findByRole('table', { name: couponsTexts.listLabel });
    await user.click(within(rowOf('WELCOME50')).getByRole('button', { name: 'Edit WELCOME50' }));
    const dialog = screen.getByRole('dialog', { name: couponsTexts.editTitle('WELCOME50') });
    expect(dialog).toHaveTextContent('50 % off the first 2 payments');
    expect(within(dialog).queryByLabelText(couponsTexts.codeLabel)).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText(couponsTexts.percentLabel)).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText(couponsTexts.validFrom)).toHaveValue('2020-12-01');
    expect(within(dialog).getByLabelText(couponsTexts.validUntil)).toHaveValue('2099-01-01');
    expect(within(dialog).getByLabelText(couponsTexts.max)).toHaveValue('100');
    expect(within(dialog).getByRole('checkbox', { name: /^Yearly/ })).toBeChecked();

    await user.click(within(dialog).getByRole('button', { name: adminTexts.saveChanges }));
    expect(await findToast(answers.nothingToUpdate)).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(couponsTexts.validUntil));
    await user.type(within(dialog).getByLabelText(couponsTexts.validUntil), '2099-03-31');
    await user.clear(within(dialog).getByLabelText(couponsTexts.max));
    await user.click(within(dialog).getByRole('checkbox', { name: /^Monthly/ }));
    await user.click(within(dialog).getByRole('button', { name: adminTexts.saveChanges }));
    expect(await findToast(answers.couponUpdated)).toBeInTheDocument();
    expect(sent(calls, patchOf(welcome.id))).toEqual([{ validUntil: '2099-03-31T18:30:00.000Z', maxRedemptions: null, plans: [yearly.id, monthly.id] }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('refuses, before asking the server, a last day before the first, and a maximum below the uses already taken', async () => {
    const calls = stubApi({ [PLANS]: plansAnswer, [LIST]: listAnswer([welcome]) });
    const { user } = open();
    await screen.findByRole('table', { name: couponsTexts.listLabel });
    await user.click(within(rowOf('WELCOME50')).getByRole('button', { name: 'Edit WELCOME50' }));
    const dialog = screen.getByRole('dialog', { name: couponsTexts.editTitle('WELCOME50') });
    const save = () => user.click(within(dialog).getByRole('button', { name: adminTexts.saveChanges }));

    await user.clear(within(dialog).getByLabelText(couponsTexts.validUntil));
    await user.type(within(dialog).getByLabelText(couponsTexts.validUntil), '2020-11-30');
    await save();
    expect(await findToast(messages.couponDatesInvalid)).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(couponsTexts.validUntil));
    await user.type(within(dialog).getByLabelText(couponsTexts.validUntil), '2099-01-01');
    await user.clear(within(dialog).getByLabelText(couponsTexts.max));
    await user.type(within(dialog).getByLabelText(couponsTexts.max), '2');
    await save();
    expect(await findToast(couponsTexts.maxBelowUsed(3))).toBeInTheDocument();
    expect(couponsTexts.maxBelowUsed(3)).toBe('This coupon has been used 3 times: the maximum cannot be lower than that.');
    expect(calls.filter((call) => call.init.method === 'PATCH')).toEqual([]);
  });

  it('archives a coupon and brings it back', async () => {
    let archived = false;
    const calls = stubApi({
      [PLANS]: plansAnswer,
      [LIST]: () => listAnswer([{ ...welcome, archived }]),
      [patchOf(welcome.id)]: (init) => {
        archived = (JSON.parse(init.body as string) as { archived: boolean }).archived;
        return { body: { success: true, message: answers.couponUpdated, coupon: { ...welcome, archived } } };
      },
    });
    const { user } = open();
    await screen.findByRole('table', { name: couponsTexts.listLabel });
    await user.click(within(rowOf('WELCOME50')).getByRole('button', { name: 'Archive WELCOME50' }));
    await waitFor(() => expect(rowOf('WELCOME50')).toHaveTextContent(couponsTexts.status.archived));
    await user.click(within(rowOf('WELCOME50')).getByRole('button', { name: 'Bring back WELCOME50' }));
    await waitFor(() => expect(rowOf('WELCOME50')).toHaveTextContent(couponsTexts.status.active));
    expect(sent(calls, patchOf(welcome.id))).toEqual([{ archived: true }, { archived: false }]);
  });
});
