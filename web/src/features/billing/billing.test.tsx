import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { gstinCheckCharacter, INDIAN_STATES, type BillingEntry, type BillingHistory } from '@lms/contract/billing';
import { answers } from '@lms/contract/answers';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { BillingSection } from './BillingSection';
import { billingTexts } from './billing-texts';

const GSTIN = `27AAPFU0939F1Z${gstinCheckCharacter('27AAPFU0939F1Z')}`;
const entry = (overrides: Partial<BillingEntry>): BillingEntry => ({
  paymentId: '30000000-0000-4000-8000-000000000001',
  date: '2026-11-20T06:30:00.000Z',
  description: 'Subscription Bundle, 20 Nov 2026 to 20 Dec 2026',
  amount: 99,
  status: 'paid',
  invoice: { id: '40000000-0000-4000-8000-000000000001', number: 'LMS/26-27/000007', ready: true },
  refunded: 0,
  creditNotes: [],
  ...overrides,
});
const history = (entries: BillingEntry[]) => ({ body: { success: true, message: answers.billingHistoryFetched, entries, renewal: null } });
const details = { businessName: null, gstin: null, stateCode: null, address: null };

function open() {
  storeLogin(sampleUser());
  return renderPage(<BillingSection />);
}

describe('billing history', () => {
  it('lists each payment with its amount, status and documents to download; a refund with its credit note', async () => {
    stubApi({
      'GET /api/v1/billing/history': history([
        entry({
          paymentId: '30000000-0000-4000-8000-000000000002',
          date: '2026-10-20T06:30:00.000Z',
          status: 'refunded',
          invoice: { id: '40000000-0000-4000-8000-000000000002', number: 'LMS/26-27/000003', ready: true },
          refunded: 99,
          creditNotes: [{ id: '40000000-0000-4000-8000-000000000003', number: 'CN/26-27/000001', ready: true }],
        }),
      ]),
    });
    open();
    const invoice = await screen.findByRole('link', { name: billingTexts.download(billingTexts.invoice, 'LMS/26-27/000003') });
    expect(invoice).toHaveAttribute('href', '/api/v1/billing/documents/40000000-0000-4000-8000-000000000002/pdf');
    expect(invoice).toHaveAttribute('download');
    expect(screen.getByRole('link', { name: billingTexts.download(billingTexts.creditNote, 'CN/26-27/000001') })).toHaveAttribute(
      'href',
      '/api/v1/billing/documents/40000000-0000-4000-8000-000000000003/pdf',
    );
    const row = invoice.closest('li')!;
    expect(within(row).getByText('20 Oct 2026')).toBeInTheDocument();
    expect(within(row).getByText('₹99')).toBeInTheDocument();
    expect(within(row).getByText(billingTexts.refunded)).toBeInTheDocument();
  });

  it('says a payment refunded in part is so, with the amount refunded and each credit note', async () => {
    stubApi({
      'GET /api/v1/billing/history': history([
        entry({
          amount: 499,
          status: 'partly_refunded',
          refunded: 249.5,
          creditNotes: [
            { id: '40000000-0000-4000-8000-000000000004', number: 'CN/26-27/000002', ready: true },
            { id: '40000000-0000-4000-8000-000000000005', number: 'CN/26-27/000003', ready: true },
          ],
        }),
      ]),
    });
    open();
    const invoice = await screen.findByRole('link', { name: billingTexts.download(billingTexts.invoice, 'LMS/26-27/000007') });
    const row = invoice.closest('li')!;
    expect(within(row).getByText(billingTexts.partlyRefunded)).toBeInTheDocument();
    expect(within(row).getByText('₹249.50 refunded')).toBeInTheDocument();
    expect(within(row).queryByText(billingTexts.paid)).not.toBeInTheDocument();
    expect(within(row).getByRole('link', { name: billingTexts.download(billingTexts.creditNote, 'CN/26-27/000002') })).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: billingTexts.download(billingTexts.creditNote, 'CN/26-27/000003') })).toBeInTheDocument();
  });

  it('says a PDF is being prepared, and offers it once it is made', async () => {
    let reads = 0;
    stubApi({
      'GET /api/v1/billing/history': () => {
        reads += 1;
        return history([entry({ invoice: { id: '40000000-0000-4000-8000-000000000001', number: 'LMS/26-27/000007', ready: reads > 1 } })]);
      },
    });
    open();
    expect(await screen.findByRole('status')).toHaveTextContent(`${billingTexts.invoice} LMS/26-27/000007 · ${billingTexts.preparing}`);
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    // Read again a few seconds later, while anything is being prepared.
    expect(await screen.findByRole('link', { name: billingTexts.download(billingTexts.invoice, 'LMS/26-27/000007') }, { timeout: 6000 })).toBeInTheDocument();
    expect(screen.getByText(billingTexts.paid)).toBeInTheDocument();
  });

  it('says so when there is nothing yet', async () => {
    stubApi({ 'GET /api/v1/billing/history': history([]) });
    open();
    expect(await screen.findByText(billingTexts.noPayments)).toBeInTheDocument();
  });
});

describe('the renewal line', () => {
  type Renewal = NonNullable<BillingHistory['renewal']>;
  const renewalAnswer = (renewal: Renewal | null) => ({ body: { success: true, message: answers.billingHistoryFetched, entries: [], renewal } });
  /** The line as a person reads it, the plan's name in bold and the rest. */
  const line = (text: string) => screen.findByText((_content, element) => element?.tagName === 'SPAN' && element.textContent?.replace(/\s+/g, ' ') === text);
  const renewing: Renewal = {
    renewsOn: '2027-11-25T06:30:00.000Z',
    cancelled: false,
    accessUntil: null,
    plan: { name: 'Yearly', interval: 'yearly' },
    nextAmount: 799.2,
    trialEndsAt: null,
  };

  it('names the plan and the next payment, with its amount and date', async () => {
    stubApi({ 'GET /api/v1/billing/history': renewalAnswer(renewing) });
    open();
    expect(await line('Yearly plan · next payment ₹799.20 on 25 Nov 2027')).toBeInTheDocument();
    expect(screen.getByText('Yearly plan').tagName).toBe('STRONG');
  });

  it("in a free trial, the first payment on the trial's last day", async () => {
    stubApi({
      'GET /api/v1/billing/history': renewalAnswer({
        ...renewing,
        renewsOn: '2026-12-02T06:30:00.000Z',
        plan: { name: 'Monthly', interval: 'monthly' },
        nextAmount: 99,
        trialEndsAt: '2026-12-02T06:30:00.000Z',
      }),
    });
    open();
    expect(await line('Monthly plan · free trial, first payment ₹99 on 2 Dec 2026')).toBeInTheDocument();
  });

  it('once cancelled, no more payments and until when access lasts', async () => {
    stubApi({
      'GET /api/v1/billing/history': renewalAnswer({
        renewsOn: null,
        cancelled: true,
        accessUntil: '2026-12-23T06:30:00.000Z',
        plan: null,
        nextAmount: null,
        trialEndsAt: null,
      }),
    });
    open();
    expect(await line('No more payments, access until 23 Dec 2026')).toBeInTheDocument();
    expect(screen.queryByText(/next payment/)).not.toBeInTheDocument();
  });

  it('a plan whose name says plan already is not named twice; without a subscription there is no line', async () => {
    stubApi({ 'GET /api/v1/billing/history': renewalAnswer({ ...renewing, plan: { name: 'Pro plan', interval: 'monthly' }, nextAmount: 149 }) });
    const first = open();
    expect(await line('Pro plan · next payment ₹149 on 25 Nov 2027')).toBeInTheDocument();
    first.unmount();

    stubApi({ 'GET /api/v1/billing/history': renewalAnswer(null) });
    open();
    await screen.findByText(billingTexts.noPayments);
    expect(screen.queryByText(/payment ₹|access until/)).not.toBeInTheDocument();
  });
});

describe('tax details', () => {
  it('are read when opened; a valid GSTIN picks its state, and saving sends what the invoices will carry', async () => {
    const calls = stubApi({
      'GET /api/v1/billing/history': history([]),
      'GET /api/v1/billing/details': { body: { success: true, message: 'ok', details } },
      'PUT /api/v1/billing/details': (init) => ({ body: { success: true, message: answers.billingDetailsSaved, details: JSON.parse(init.body as string) } }),
    });
    const { user } = open();
    await screen.findByText(billingTexts.noPayments);
    expect(calls.some((call) => call.url === '/api/v1/billing/details')).toBe(false);
    await user.click(screen.getByText(billingTexts.detailsTitle));
    await waitFor(() => expect(calls.some((call) => call.url === '/api/v1/billing/details')).toBe(true));

    await user.type(await screen.findByLabelText(billingTexts.businessName), 'Verma Tutors LLP');
    await user.type(screen.getByLabelText(billingTexts.gstin), GSTIN.toLowerCase());
    expect(screen.getByLabelText(billingTexts.state)).toHaveValue('27');
    await user.type(screen.getByLabelText(billingTexts.address), 'Baner, Pune 411045');
    await user.click(screen.getByRole('button', { name: billingTexts.save }));
    expect(await findToast(answers.billingDetailsSaved)).toBeInTheDocument();
    const put = calls.find((call) => call.init.method === 'PUT')!;
    expect(JSON.parse(put.init.body as string)).toEqual({ businessName: 'Verma Tutors LLP', gstin: GSTIN, stateCode: '27', address: 'Baner, Pune 411045' });
  });

  it('list the states by name, A to Z, each with its GST code as its value, and "Other Territory" last', async () => {
    stubApi({ 'GET /api/v1/billing/history': history([]), 'GET /api/v1/billing/details': { body: { success: true, message: 'ok', details } } });
    const { user } = open();
    await user.click(await screen.findByText(billingTexts.detailsTitle));
    const options = within(await screen.findByLabelText(billingTexts.state))
      .getAllByRole('option')
      .slice(1) as HTMLOptionElement[];
    const names = options.map((option) => option.textContent!);
    expect(names).toHaveLength(Object.keys(INDIAN_STATES).length);
    expect(names.slice(0, 3)).toEqual(['Andaman and Nicobar Islands', 'Andhra Pradesh', 'Arunachal Pradesh']);
    expect(names.at(-2)).toBe('West Bengal');
    expect(names.at(-1)).toBe('Other Territory');
    expect(names.slice(0, -1)).toEqual(names.slice(0, -1).toSorted((a, b) => a.localeCompare(b, 'en')));
    for (const option of options) expect(INDIAN_STATES[option.value as keyof typeof INDIAN_STATES]).toBe(option.textContent);
  });

  it('start from what was saved', async () => {
    const saved = { businessName: 'Verma Tutors LLP', gstin: GSTIN, stateCode: '27', address: 'Baner, Pune 411045' };
    stubApi({ 'GET /api/v1/billing/history': history([]), 'GET /api/v1/billing/details': { body: { success: true, message: 'ok', details: saved } } });
    const { user } = open();
    await user.click(await screen.findByText(billingTexts.detailsTitle));
    expect(await screen.findByLabelText(billingTexts.businessName)).toHaveValue('Verma Tutors LLP');
    expect(screen.getByLabelText(billingTexts.gstin)).toHaveValue(GSTIN);
    expect(screen.getByLabelText(billingTexts.state)).toHaveValue('27');
    expect(screen.getByLabelText(billingTexts.address)).toHaveValue('Baner, Pune 411045');
  });

  it('refuses a GSTIN that fails its check, or a state that is not its own, beside the field, before asking the server', async () => {
    const calls = stubApi({ 'GET /api/v1/billing/history': history([]), 'GET /api/v1/billing/details': { body: { success: true, message: 'ok', details } } });
    const { user } = open();
    await user.click(await screen.findByText(billingTexts.detailsTitle));
    await user.type(await screen.findByLabelText(billingTexts.businessName), 'Verma Tutors LLP');
    await user.type(screen.getByLabelText(billingTexts.gstin), `${GSTIN.slice(0, 14)}${GSTIN[14] === 'A' ? 'B' : 'A'}`);
    await user.click(screen.getByRole('button', { name: billingTexts.save }));
    const gstin = screen.getByLabelText(billingTexts.gstin);
    expect(gstin).toHaveAccessibleDescription(`${billingTexts.gstinHint} ${answers.gstinInvalid}`);
    expect(gstin).toHaveAttribute('aria-invalid', 'true');
    expect(gstin).toHaveFocus();

    await user.clear(gstin);
    expect(gstin).not.toHaveAttribute('aria-invalid');
    await user.type(gstin, GSTIN);
    await user.selectOptions(screen.getByLabelText(billingTexts.state), '29');
    await user.click(screen.getByRole('button', { name: billingTexts.save }));
    expect(screen.getByLabelText(billingTexts.state)).toHaveAccessibleDescription(answers.gstinStateMismatch);
    expect(calls.some((call) => call.init.method === 'PUT')).toBe(false);
  });

  it('says under the address that a fifth line, a control character or an invoice label is refused, and so under the name', async () => {
    const calls = stubApi({ 'GET /api/v1/billing/history': history([]), 'GET /api/v1/billing/details': { body: { success: true, message: 'ok', details } } });
    const { user } = open();
    await user.click(await screen.findByText(billingTexts.detailsTitle));
    const address = await screen.findByLabelText(billingTexts.address);
    const save = screen.getByRole('button', { name: billingTexts.save });
    for (const [typed, message] of [
      ['Baner{Enter}Pune{Enter}Maharashtra{Enter}India{Enter}411045', answers.billingAddressTooManyLines],
      ['Baner\tPune', answers.billingAddressNotPlain],
      ['Baner{Enter}GSTIN 29AAACL1234C1Z5', answers.invoiceLabelRefused],
    ] as const) {
      await user.clear(address);
      await user.type(address, typed);
      await user.click(save);
      expect(address).toHaveAccessibleDescription(`${billingTexts.addressHint} ${message}`);
      expect(address).toHaveFocus();
    }
    await user.clear(address);
    await user.type(screen.getByLabelText(billingTexts.businessName), 'Tax Invoice Tutors');
    await user.click(save);
    expect(screen.getByLabelText(billingTexts.businessName)).toHaveAccessibleDescription(answers.invoiceLabelRefused);
    expect(address).not.toHaveAttribute('aria-invalid');
    expect(calls.some((call) => call.init.method === 'PUT')).toBe(false);
  });

  it("shows the server's refusal beside the field it is about", async () => {
    stubApi({
      'GET /api/v1/billing/history': history([]),
      'GET /api/v1/billing/details': { body: { success: true, message: 'ok', details } },
      'PUT /api/v1/billing/details': { status: 400, body: { success: false, message: answers.billingAddressNotPlain } },
    });
    const { user } = open();
    await user.click(await screen.findByText(billingTexts.detailsTitle));
    await user.type(await screen.findByLabelText(billingTexts.address), 'Baner, Pune 411045');
    await user.click(screen.getByRole('button', { name: billingTexts.save }));
    const address = screen.getByLabelText(billingTexts.address);
    await waitFor(() => expect(address).toHaveAccessibleDescription(`${billingTexts.addressHint} ${answers.billingAddressNotPlain}`));
    expect(address).toHaveFocus();
  });
});
