import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { AdminPlan } from '@lms/contract/plans';
import { findToast, renderPage, stubApi } from '../../test/render';
import PlansPage from './PlansPage';
import { adminTexts, plansTexts } from './plans-texts';

const LIST = 'GET /api/v1/admin/plans';
const CREATE = 'POST /api/v1/admin/plans';
const patchOf = (id: string) => `PATCH /api/v1/admin/plans/${id}`;

const monthly: AdminPlan = {
  id: '50000000-0000-4000-8000-000000000001',
  name: 'Subscription Bundle',
  interval: 'monthly',
  price: 99,
  listPrice: 99,
  trialDays: 0,
  default: true,
  archived: false,
  subscribers: 12,
  prices: [{ price: 99, listPrice: 99, since: '2026-11-01T06:00:00.000Z', subscribers: 12, current: true }],
  createdAt: '2026-11-01T06:00:00.000Z',
};
/** Re-priced once, GST on top: two versions, each with its own subscribers. */
const yearly: AdminPlan = {
  id: '50000000-0000-4000-8000-000000000002',
  name: 'Yearly, two months free for everyone who signs up before the new year',
  interval: 'yearly',
  price: 1180,
  listPrice: 1000,
  trialDays: 7,
  default: false,
  archived: false,
  subscribers: 5,
  prices: [
    { price: 1180, listPrice: 1000, since: '2026-12-01T06:00:00.000Z', subscribers: 2, current: true },
    { price: 944, listPrice: 800, since: '2026-11-10T06:00:00.000Z', subscribers: 3, current: false },
  ],
  createdAt: '2026-11-10T06:00:00.000Z',
};
const founders: AdminPlan = {
  ...monthly,
  id: '50000000-0000-4000-8000-000000000003',
  name: 'Founders',
  default: false,
  archived: true,
  subscribers: 1,
  trialDays: 1,
};

const NO_TAX_ADDED = { pricesAddTax: false, gstRate: 18 };
const listAnswer = (plans: AdminPlan[], tax = NO_TAX_ADDED) => ({ body: { success: true, message: answers.plansFetched, plans, tax } });

function open() {
  return renderPage(<PlansPage />, { path: '/admin/plans' });
}
const table = () => screen.getByRole('table', { name: plansTexts.listLabel });
const rowOf = (name: string) =>
  within(table())
    .getByRole('rowheader', { name: new RegExp(`^${name}`) })
    .closest('tr')!;
/** What a reader sees: dates are held together by no-break spaces. */
const text = (element: Element) => element.textContent.replace(/\s+/g, ' ');
const sent = (calls: { url: string; init: RequestInit }[], key: string) =>
  calls.filter((call) => `${call.init.method ?? 'GET'} ${call.url}` === key).map((call) => JSON.parse(call.init.body as string) as unknown);

describe('plans page', () => {
  it('lists every plan with its period, price (before GST too), trial, subscribers and status; the default marked, and not to be archived', async () => {
    document.title = '';
    stubApi({ [LIST]: listAnswer([monthly, yearly, founders]) });
    open();
    expect(screen.getByRole('heading', { level: 1, name: plansTexts.title })).toBeInTheDocument();
    expect(document.title).toBe('Plans · LMS');
    await screen.findByRole('table', { name: plansTexts.listLabel });
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Plan', 'Price', 'Free trial', 'Subscribers', 'Status', 'Actions']);

    const bundle = rowOf('Subscription Bundle');
    expect(within(bundle).getAllByRole('cell').map(text)).toEqual([
      '₹99 / monthSince 1 Nov 2026',
      'None',
      '12',
      `${plansTexts.onSale}${plansTexts.defaultPlan}`,
      adminTexts.edit,
    ]);
    expect(within(bundle).queryByRole('button', { name: /^Archive/ })).not.toBeInTheDocument();

    const year = rowOf('Yearly, two months free');
    expect(year).toHaveTextContent('₹1,180 / year');
    expect(year).toHaveTextContent('₹1,000 before GST');
    expect(year).toHaveTextContent('7 days');
    const history = within(year).getByRole('list', { name: plansTexts.historyLabel(yearly.name) });
    expect(within(history).getAllByRole('listitem').map(text)).toEqual([
      '₹1,180CurrentSince 1 Dec 2026 · 2 subscribers',
      '₹944Since 10 Nov 2026 · 3 subscribers',
    ]);
    expect(within(year).getByText(plansTexts.history(2))).toBeInTheDocument();
    expect(within(year).getByRole('button', { name: `Archive ${yearly.name}` })).toBeInTheDocument();

    const old = rowOf('Founders');
    expect(old).toHaveTextContent(plansTexts.archived);
    expect(within(old).getByRole('button', { name: 'Bring back Founders' })).toBeInTheDocument();
  });

  it('shows the same on a phone as a card per plan', async () => {
    stubApi({ [LIST]: listAnswer([monthly, yearly]) });
    open();
    const cards = await screen.findByRole('list', { name: plansTexts.listLabel });
    const items = within(cards)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === cards);
    expect(items.map((item) => within(item).getByRole('heading', { level: 2 }).textContent)).toEqual(['Subscription Bundle', yearly.name]);
    expect(items[0]).toHaveTextContent('Monthly · No free trial');
    expect(items[0]).toHaveTextContent(plansTexts.defaultPlan);
    expect(items[1]).toHaveTextContent('Yearly · 7 days free');
    expect(items[1]).toHaveTextContent('₹1,180 / year₹1,000 before GST');
    expect(within(items[1]!).getByRole('button', { name: `Edit ${yearly.name}` })).toBeInTheDocument();
  });

  it('makes a plan: checks it in the browser first, sends it, shows the answer and the plan in the list', async () => {
    const made: AdminPlan = {
      ...monthly,
      id: '50000000-0000-4000-8000-000000000009',
      name: 'Yearly',
      interval: 'yearly',
      price: 999,
      listPrice: 999,
      trialDays: 14,
      default: false,
      subscribers: 0,
    };
    let lists = 0;
    const calls = stubApi({
      [LIST]: () => listAnswer(++lists === 1 ? [monthly] : [monthly, made]),
      [CREATE]: { status: 201, body: { success: true, message: answers.planCreated, plan: made } },
    });
    const { user } = open();
    await screen.findByRole('table', { name: plansTexts.listLabel });
    await user.click(screen.getByRole('button', { name: plansTexts.newPlan }));
    const dialog = screen.getByRole('dialog', { name: plansTexts.createTitle });

    // Nothing typed: the first problem, and nothing sent.
    await user.click(within(dialog).getByRole('button', { name: plansTexts.create }));
    expect(await findToast(answers.planNameInvalid)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(plansTexts.name), 'Yearly');
    await user.click(within(dialog).getByRole('button', { name: plansTexts.create }));
    expect(await findToast(answers.planPriceInvalid)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(plansTexts.priceLabel), '20000');
    await user.click(within(dialog).getByRole('button', { name: plansTexts.create }));
    expect(await findToast(answers.planPriceTooHigh)).toBeInTheDocument();
    expect(sent(calls, CREATE)).toEqual([]);

    await user.clear(within(dialog).getByLabelText(plansTexts.priceLabel));
    await user.type(within(dialog).getByLabelText(plansTexts.priceLabel), '999');
    await user.click(within(dialog).getByRole('radio', { name: 'Yearly' }));
    await user.clear(within(dialog).getByLabelText(plansTexts.trialLabel));
    await user.type(within(dialog).getByLabelText(plansTexts.trialLabel), '14');
    await user.click(within(dialog).getByRole('button', { name: plansTexts.create }));

    expect(await findToast(answers.planCreated)).toBeInTheDocument();
    expect(sent(calls, CREATE)).toEqual([{ name: 'Yearly', interval: 'yearly', price: 999, trialDays: 14 }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(table()).findByRole('rowheader', { name: /^Yearly/ })).toBeInTheDocument();
  });

  it('checks a price entered before GST against the cap on what is charged, GST included', async () => {
    const calls = stubApi({ [LIST]: listAnswer([monthly], { pricesAddTax: true, gstRate: 18 }) });
    const { user } = open();
    await screen.findByRole('table', { name: plansTexts.listLabel });
    await user.click(screen.getByRole('button', { name: plansTexts.newPlan }));
    const dialog = screen.getByRole('dialog', { name: plansTexts.createTitle });
    expect(dialog).toHaveTextContent(plansTexts.priceHint(true));
    await user.type(within(dialog).getByLabelText(plansTexts.name), 'Dear');
    // ₹13,000 is within the cap, but ₹15,340 with 18 % GST is not.
    await user.type(within(dialog).getByLabelText(plansTexts.priceLabel), '13000');
    await user.click(within(dialog).getByRole('button', { name: plansTexts.create }));
    expect(await findToast(messages.planPriceWithTaxTooHigh)).toBeInTheDocument();
    expect(sent(calls, CREATE)).toEqual([]);
  });

  it("keeps the form open with the server's reason when it refuses", async () => {
    const calls = stubApi({ [LIST]: listAnswer([monthly]), [CREATE]: { status: 400, body: { success: false, message: answers.planPriceTooHigh } } });
    const { user } = open();
    await screen.findByRole('table', { name: plansTexts.listLabel });
    await user.click(screen.getByRole('button', { name: plansTexts.newPlan }));
    const dialog = screen.getByRole('dialog', { name: plansTexts.createTitle });
    await user.type(within(dialog).getByLabelText(plansTexts.name), 'Premium');
    await user.type(within(dialog).getByLabelText(plansTexts.priceLabel), '14999');
    await user.click(within(dialog).getByRole('button', { name: plansTexts.create }));
    expect(await findToast(answers.planPriceTooHigh)).toBeInTheDocument();
    expect(sent(calls, CREATE)).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: plansTexts.createTitle })).toBeInTheDocument();
    expect(within(dialog).getByLabelText(plansTexts.name)).toHaveValue('Premium');
  });

  it('gives a plan a new price for new buyers only, saying subscribers keep theirs; sends only what changed', async () => {
    const repriced: AdminPlan = {
      ...monthly,
      price: 149,
      listPrice: 149,
      prices: [
        { price: 149, listPrice: 149, since: '2026-12-05T06:00:00.000Z', subscribers: 0, current: true },
        { ...monthly.prices[0]!, current: false },
      ],
    };
    let lists = 0;
    const calls = stubApi({
      [LIST]: () => listAnswer(++lists === 1 ? [monthly] : [repriced]),
      [patchOf(monthly.id)]: { body: { success: true, message: answers.planUpdated, plan: repriced } },
    });
    const { user } = open();
    await screen.findByRole('table', { name: plansTexts.listLabel });
    await user.click(within(rowOf('Subscription Bundle')).getByRole('button', { name: 'Edit Subscription Bundle' }));
    const dialog = screen.getByRole('dialog', { name: plansTexts.editTitle('Subscription Bundle') });
    // The default plan keeps its one name, the storefront's: shown, not editable.
    expect(within(dialog).queryByLabelText(plansTexts.name)).not.toBeInTheDocument();
    expect(within(dialog).getByText('Subscription Bundle')).toBeInTheDocument();
    expect(within(dialog).getByText(plansTexts.defaultNameHint)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(plansTexts.priceLabel)).toHaveValue('99');
    expect(within(dialog).getByRole('note')).toHaveTextContent(plansTexts.keepPrice(12));
    expect(within(dialog).getByRole('note')).toHaveTextContent('the 12 subscribers on this plan keep paying the price they bought at');
    // The period is fixed once made.
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();

    // Saving nothing new is said, not sent.
    await user.click(within(dialog).getByRole('button', { name: adminTexts.saveChanges }));
    expect(await findToast(answers.nothingToUpdate)).toBeInTheDocument();
    expect(sent(calls, patchOf(monthly.id))).toEqual([]);

    await user.clear(within(dialog).getByLabelText(plansTexts.priceLabel));
    await user.type(within(dialog).getByLabelText(plansTexts.priceLabel), '149');
    await user.click(within(dialog).getByRole('button', { name: adminTexts.saveChanges }));
    expect(await findToast(answers.planUpdated)).toBeInTheDocument();
    expect(sent(calls, patchOf(monthly.id))).toEqual([{ price: 149 }]);
    await waitFor(() => expect(rowOf('Subscription Bundle')).toHaveTextContent('₹149 / month'));
    expect(within(rowOf('Subscription Bundle')).getByText(plansTexts.history(2))).toBeInTheDocument();
  });

  it('takes a plan off sale and brings it back', async () => {
    let archived = false;
    const calls = stubApi({
      [LIST]: () => listAnswer([monthly, { ...yearly, archived }]),
      [patchOf(yearly.id)]: (init) => {
        archived = (JSON.parse(init.body as string) as { archived: boolean }).archived;
        return { body: { success: true, message: answers.planUpdated, plan: { ...yearly, archived } } };
      },
    });
    const { user } = open();
    await screen.findByRole('table', { name: plansTexts.listLabel });
    await user.click(within(rowOf('Yearly')).getByRole('button', { name: `Archive ${yearly.name}` }));
    expect(await findToast(answers.planUpdated)).toBeInTheDocument();
    const back = await within(rowOf('Yearly')).findByRole('button', { name: `Bring back ${yearly.name}` });
    expect(rowOf('Yearly')).toHaveTextContent(plansTexts.archived);
    await user.click(back);
    expect(await within(rowOf('Yearly')).findByRole('button', { name: `Archive ${yearly.name}` })).toBeInTheDocument();
    expect(sent(calls, patchOf(yearly.id))).toEqual([{ archived: true }, { archived: false }]);
  });

  it('says so when the plans cannot be loaded', async () => {
    stubApi({ [LIST]: { status: 500, body: { success: false } } });
    open();
    expect(await screen.findByText(plansTexts.failed)).toBeInTheDocument();
    expect(await findToast(messages.failedLoadData)).toBeInTheDocument();
  });
});
