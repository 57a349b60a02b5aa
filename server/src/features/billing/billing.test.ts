import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gstinCheckCharacter, isValidGstin } from '@lms/contract/billing';
import { answers } from '@lms/contract/answers';
import { billingCounters, billingDocuments, payments, subscriptions, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { apiCaller, sandboxTrigger, subscriber as subscribeAndPay } from '../../test/payments.ts';
import { pdfLines, pdfText } from '../../test/pdf.ts';
import { issueInvoice } from './billing.service.ts';
import { renderDocumentPdf } from './billing-pdf.ts';
import { documentNumber, fiscalYearOf, taxLines, type Seller } from './tax.ts';

const withCheck = (first14: string) => first14 + gstinCheckCharacter(first14);
/** The seller of these tests: registered in Karnataka (29). */
const SELLER_GSTIN = withCheck('29AAACL1234C1Z');
/** A buyer's business in Maharashtra (27). */
const BUYER_GSTIN = withCheck('27AAPFU0939F1Z');

const seller: Seller = { name: 'LMS Learning', address: 'Bengaluru 560001', stateCode: '29', gstin: SELLER_GSTIN, sac: '999293', gstRate: 18 };

describe('GSTIN', () => {
  it("accepts a GSTIN whose check character matches (the reference's worked example), and nothing else", () => {
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
    expect(isValidGstin('27AAPFU0939F1ZV')).toBe(true);
    expect(isValidGstin('27AAPFU0939F1ZW')).toBe(false);
    expect(isValidGstin('27aapfu0939f1zv')).toBe(false);
    expect(isValidGstin('27AAPFU0939F1Z')).toBe(false);
    expect(isValidGstin(withCheck('99AAPFU0939F1Z'))).toBe(false);
    expect(isValidGstin(withCheck('27AAPF00939F1Z'))).toBe(false);
    expect(isValidGstin('27AAPFU0939F1ZV'.repeat(1000))).toBe(false);
  });
});

describe('tax lines', () => {
  it('splits ₹99 (tax included) into CGST and SGST inside the seller’s state, IGST across states, nothing on a receipt', () => {
    expect(taxLines(seller, '29', 9900)).toEqual({
      documentType: 'tax_invoice',
      placeOfSupply: '29',
      taxRate: 18,
      taxablePaise: 8390,
      cgstPaise: 755,
      sgstPaise: 755,
      igstPaise: 0,
      totalPaise: 9900,
    });
    expect(taxLines(seller, '27', 9900)).toMatchObject({ placeOfSupply: '27', taxablePaise: 8390, cgstPaise: 0, sgstPaise: 0, igstPaise: 1510 });
    // Unknown buyer state: the seller's (IGST Act s.12(2)).
    expect(taxLines(seller, null, 9900)).toMatchObject({ placeOfSupply: '29', cgstPaise: 755, sgstPaise: 755 });
    // Rule 35's example: ₹999.00 → taxable ₹846.61, GST ₹152.39; the odd paisa goes to CGST.
    expect(taxLines(seller, '29', 99900)).toMatchObject({ taxablePaise: 84661, cgstPaise: 7620, sgstPaise: 7619 });
    expect(taxLines({ ...seller, gstin: null }, '27', 9900)).toEqual({
      documentType: 'receipt',
      placeOfSupply: '27',
      taxRate: 0,
      taxablePaise: 9900,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 9900,
    });
  });

  it('numbers documents per Indian financial year, within 16 characters', () => {
    expect(fiscalYearOf(new Date('2026-03-31T18:29:59Z'))).toBe('25-26'); // 31 March, 23:59:59 in India
    expect(fiscalYearOf(new Date('2026-03-31T18:30:00Z'))).toBe('26-27'); // 1 April, 00:00
    expect(fiscalYearOf(new Date('2099-12-31T00:00:00Z'))).toBe('99-00');
    expect(documentNumber('invoice', '26-27', 123)).toBe('LMS/26-27/000123');
    expect(documentNumber('invoice', '26-27', 999_999)).toHaveLength(16);
    expect(() => documentNumber('invoice', '26-27', 1_000_000)).toThrow();
    expect(documentNumber('credit_note', '26-27', 4)).toBe('CN/26-27/000004');
  });

  it('renders a receipt without tax lines, the rupee sign intact', async () => {
    const receipt = await renderDocumentPdf({
      id: '00000000-0000-4000-8000-000000000001',
      kind: 'invoice',
      number: 'LMS/26-27/000042',
      paymentId: '',
      userId: '',
      invoiceId: null,
      issuedAt: new Date('2026-11-25T06:00:00Z'),
      documentType: 'receipt',
      seller: { name: 'Small Seller', address: 'Pune 411001', stateCode: '27', gstin: null, sac: '999293' },
      buyer: { name: 'Asha Verma', email: 'asha@example.com', businessName: null, gstin: null, stateCode: null, address: null },
      placeOfSupply: '27',
      description: 'Subscription Bundle',
      taxRate: 0,
      taxablePaise: 9900,
      cgstPaise: 0,
      sgstPaise: 0,
      igstPaise: 0,
      totalPaise: 9900,
      pdfKey: null,
      adminRefundId: null,
      createdAt: new Date(),
    });
    const text = await pdfText(receipt);
    expect(text).toContain('Receipt');
    expect(text).toContain('LMS/26-27/000042');
    expect(text).toContain('₹99.00');
    expect(text).toContain('25 Nov 2026');
    expect(text).not.toMatch(/GST \d|Tax Invoice/);
  });
});

describe('billing', () => {
  let t: TestApp;
  let adminCookie: string;
  const DAY = 24 * 3600 * 1000;

  beforeAll(async () => {
    t = await createTestApp({ env: { SELLER_NAME: 'LMS Learning Pvt Ltd', SELLER_ADDRESS: 'MG Road, Bengaluru 560001', SELLER_STATE: '29', SELLER_GSTIN } });
    adminCookie = (await signUpAdmin(t.app)).cookie;
  });
  afterAll(() => t?.close());

  const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
  const subscriber = (details?: object) => subscribeAndPay(t, details);
  const documentsOf = (userId: string) =>
    t.database.db.select().from(billingDocuments).where(eq(billingDocuments.userId, userId)).orderBy(billingDocuments.number);

  /** The history once every document in it has its PDF (the queue's job makes them). */
  async function historyWithPdfs(cookie: string) {
    for (let i = 0; i < 200; i++) {
      const history = (await api('GET', '/billing/history', cookie)).json();
      const documents = history.entries.flatMap((entry: { invoice: unknown; creditNotes: unknown[] }) => [entry.invoice, ...entry.creditNotes]).filter(Boolean);
      if (documents.every((document: { ready: boolean }) => document.ready)) return history;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the PDFs were never made');
  }

  describe('billing details', () => {
    it('keeps a business name, a GSTIN, its state and an address for the next invoices', async () => {
      const { cookie } = await signUp(t.app);
      expect((await api('GET', '/billing/details', cookie)).json().details).toEqual({ businessName: null, gstin: null, stateCode: null, address: null });
      const saved = await api('PUT', '/billing/details', cookie, {
        businessName: ' Verma Tutors LLP ',
        gstin: BUYER_GSTIN.toLowerCase(),
        stateCode: '27',
        address: 'Baner, Pune 411045',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ success: true, message: answers.billingDetailsSaved });
      const expected = { businessName: 'Verma Tutors LLP', gstin: BUYER_GSTIN, stateCode: '27', address: 'Baner, Pune 411045' };
      expect(saved.json().details).toEqual(expected);
      expect((await api('GET', '/billing/details', cookie)).json().details).toEqual(expected);
      // A state alone (no GSTIN) is fine, and clearing works.
      expect((await api('PUT', '/billing/details', cookie, { stateCode: '07' })).json().details).toEqual({
        businessName: null,
        gstin: null,
        stateCode: '07',
        address: null,
      });
    });

    it('refuses a GSTIN that is malformed or fails its check, a state that is not the GSTIN’s, a GSTIN without a name, an unknown state', async () => {
      const { cookie } = await signUp(t.app);
      const refusal = async (body: object) => {
        const response = await api('PUT', '/billing/details', cookie, body);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().success).toBe(false);
        return response.json().message;
      };
      expect(await refusal({ businessName: 'X Ltd', gstin: '27AAPFU0939F1ZW', stateCode: '27' })).toBe(answers.gstinInvalid);
      expect(await refusal({ businessName: 'X Ltd', gstin: 'NOT A GSTIN', stateCode: '27' })).toBe(answers.gstinInvalid);
      expect(await refusal({ businessName: 'X Ltd', gstin: BUYER_GSTIN, stateCode: '29' })).toBe(answers.gstinStateMismatch);
      expect(await refusal({ gstin: BUYER_GSTIN, stateCode: '27' })).toBe(answers.businessNameRequired);
      expect(await refusal({ stateCode: '99' })).toBe(answers.stateInvalid);
      expect(await refusal({ businessName: 'x'.repeat(101) })).toBe(answers.businessNameTooLong);
      expect(await refusal({ address: 'x'.repeat(301) })).toBe(answers.billingAddressTooLong);
      expect((await api('GET', '/billing/details', cookie)).json().details.gstin).toBeNull();
      expect((await api('PUT', '/billing/details', '', { stateCode: '27' })).statusCode).toBe(401);
    });

    it('refuses a name or an address that would print lines of its own on an invoice — control characters, a fifth line, an invoice label — and writes nothing', async () => {
      const { cookie, user } = await signUp(t.app);
      const kept = { businessName: 'Verma Tutors LLP', gstin: BUYER_GSTIN, stateCode: '27', address: 'Baner\nPune 411045' };
      expect((await api('PUT', '/billing/details', cookie, kept)).statusCode).toBe(200);
      const rowOf = async () => (await t.database.db.select().from(users).where(eq(users.id, user._id)))[0];
      const before = await rowOf();
      const label = `GSTIN ${SELLER_GSTIN}`;
      const forged: [object, string][] = [
        [{ businessName: `Verma Tutors\n${label}` }, answers.businessNameNotPlain],
        [{ businessName: 'Verma Tutors\r\nLLP' }, answers.businessNameNotPlain],
        [{ businessName: 'Verma\tTutors' }, answers.businessNameNotPlain],
        [{ businessName: 'Verma\u2028Tutors' }, answers.businessNameNotPlain], // line separator
        [{ businessName: 'Verma\u0085Tutors' }, answers.businessNameNotPlain], // C1 next line
        [{ businessName: 'Verma\u007fTutors' }, answers.businessNameNotPlain], // DEL
        [{ businessName: 'Verma \u202eSPLL srotuT' }, answers.businessNameNotPlain], // right-to-left override
        [{ businessName: 'Verma \u2067Tutors' }, answers.businessNameNotPlain], // right-to-left isolate
        [{ businessName: label }, answers.invoiceLabelRefused],
        [{ businessName: 'Verma Tutors Invoice No. LMS/26-27/000999' }, answers.invoiceLabelRefused],
        [{ address: 'Baner\nPune\nMaharashtra\nIndia\n411045' }, answers.billingAddressTooManyLines],
        [{ address: 'Baner\u2029Pune' }, answers.billingAddressNotPlain], // paragraph separator
        [{ address: 'Baner\rPune' }, answers.billingAddressNotPlain], // a carriage return alone
        [{ address: 'Baner\u000bPune' }, answers.billingAddressNotPlain], // vertical tab
        [{ address: 'Baner\u200ePune' }, answers.billingAddressNotPlain], // left-to-right mark
        [{ address: `Baner\n${label}` }, answers.invoiceLabelRefused],
        [{ address: `Baner\n  gstin: ${SELLER_GSTIN}` }, answers.invoiceLabelRefused],
        [{ address: `Baner\nG.S.T.I.N. ${SELLER_GSTIN}` }, answers.invoiceLabelRefused],
        [{ address: `Baner\n\uff27\uff33\uff34\uff29\uff2e ${SELLER_GSTIN}` }, answers.invoiceLabelRefused], // full-width letters
        [{ address: `Baner\nGS\u0422IN ${SELLER_GSTIN}` }, answers.invoiceLabelRefused], // a Cyrillic Т
        [{ address: `Baner\nGST1N ${SELLER_GSTIN}` }, answers.invoiceLabelRefused],
        [{ address: `Baner\nGS\u200bTIN ${SELLER_GSTIN}` }, answers.invoiceLabelRefused], // a zero-width space inside
        [{ address: 'Baner\nTax Invoice' }, answers.invoiceLabelRefused],
        [{ address: 'Baner\nPlace of supply: Delhi (07)' }, answers.invoiceLabelRefused],
        [{ address: 'Baner\nSAC 999293' }, answers.invoiceLabelRefused],
        // Mid-line too: the PDF wraps a long line, and the label would begin the next printed one.
        [{ address: `Plot 7, a long lane name that the invoice wraps about here ${label}` }, answers.invoiceLabelRefused],
      ];
      for (const [details, message] of forged) {
        const response = await api('PUT', '/billing/details', cookie, { ...kept, ...details });
        expect(response.statusCode, JSON.stringify(details)).toBe(400);
        expect(response.json(), JSON.stringify(details)).toEqual({ success: false, message });
      }
      expect(await rowOf()).toEqual(before);
      expect((await api('GET', '/billing/details', cookie)).json().details).toEqual(kept);
    });

    it('keeps an address of up to four lines as given, each trimmed and blank ones dropped; house numbers and GST Road are no labels', async () => {
      const { cookie } = await signUp(t.app);
      const saved = await api('PUT', '/billing/details', cookie, {
        stateCode: '33',
        address: '  Flat 4B, Lake View \r\n\r\nNo. 12, GST Road\nChromepet\nChennai 600044 ',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().details.address).toBe('Flat 4B, Lake View\nNo. 12, GST Road\nChromepet\nChennai 600044');
      expect((await api('PUT', '/billing/details', cookie, { businessName: 'Sachin Date & Sons', stateCode: '33' })).statusCode).toBe(200);
    });
  });

  describe('invoices', () => {
    it('issues one tax invoice per payment — verify and webhooks both record it — with IGST for a buyer in another state; its PDF says so', async () => {
      const learner = await subscriber({ businessName: 'Verma Tutors LLP', gstin: BUYER_GSTIN, stateCode: '27', address: 'Baner, Pune 411045' });
      // Verify again, as a double-clicked Checkout would: still one payment, one invoice.
      expect((await api('POST', '/payments/verify', learner.cookie, learner.handler)).statusCode).toBe(200);
      const documents = await documentsOf(learner.user._id);
      expect(documents).toHaveLength(1);
      const [invoice] = documents;
      expect(invoice).toMatchObject({
        kind: 'invoice',
        documentType: 'tax_invoice',
        placeOfSupply: '27',
        taxablePaise: 8390,
        cgstPaise: 0,
        sgstPaise: 0,
        igstPaise: 1510,
        totalPaise: 9900,
        seller: { name: 'LMS Learning Pvt Ltd', gstin: SELLER_GSTIN, stateCode: '29', sac: '999293' },
        buyer: { businessName: 'Verma Tutors LLP', gstin: BUYER_GSTIN, stateCode: '27' },
      });
      expect(invoice!.number).toMatch(new RegExp(`^LMS/${fiscalYearOf(new Date())}/\\d{6}$`));

      const history = await historyWithPdfs(learner.cookie);
      expect(history.entries).toEqual([
        {
          paymentId: expect.any(String),
          date: expect.any(String),
          description: expect.stringMatching(/^Subscription Bundle, \d{1,2} \w{3} \d{4} to \d{1,2} \w{3} \d{4}$/),
          amount: 99,
          status: 'paid',
          refunded: 0,
          invoice: { id: invoice!.id, number: invoice!.number, ready: true },
          creditNotes: [],
        },
      ]);
      expect(history.renewal).toEqual({
        renewsOn: expect.any(String),
        cancelled: false,
        accessUntil: null,
        plan: { name: 'Subscription Bundle', interval: 'monthly' },
        nextAmount: 99,
        trialEndsAt: null,
      });

      const download = await api('GET', `/billing/documents/${invoice!.id}/pdf`, learner.cookie);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="${invoice!.number.replaceAll('/', '-')}.pdf"`);
      const text = await pdfText(download.rawPayload);
      for (const words of [
        'Tax Invoice',
        invoice!.number,
        'Verma Tutors LLP',
        `GSTIN ${BUYER_GSTIN}`,
        `GSTIN ${SELLER_GSTIN}`,
        'IGST 18%',
        '₹15.10',
        '₹83.90',
        '₹99.00',
        'SAC 999293',
        'Maharashtra (27)',
      ]) {
        expect(text).toContain(words);
      }
      expect(text).not.toContain('CGST');
    });

    it('prints the lines of the buyer’s address as given, in order, each on its own', async () => {
      const address = ['Flat 4B, Lake View', 'No. 12, GST Road', 'Chromepet', 'Chennai 600044'];
      const learner = await subscriber({ businessName: 'Lake View Tutors', stateCode: '33', address: address.join('\n') });
      const { entries } = await historyWithPdfs(learner.cookie);
      const lines = await pdfLines((await api('GET', `/billing/documents/${entries[0].invoice.id}/pdf`, learner.cookie)).rawPayload);
      const first = lines.indexOf(address[0]!);
      expect(first, lines.join(' | ')).toBeGreaterThan(0);
      expect(lines.slice(first, first + 5)).toEqual([...address, 'Tamil Nadu (33)']);
    });

    it('prints no forged line from details saved before they were checked: a label is left off, a control character is a space', async () => {
      const learner = await signUp(t.app);
      await t.database.db
        .update(users)
        .set({ billingName: `Verma Tutors\nGSTIN ${SELLER_GSTIN}`, billingAddress: 'Baner\u2028Pune 411045', billingState: '27' })
        .where(eq(users.id, learner.user._id));
      const [subscription] = await t.database.db
        .insert(subscriptions)
        .values({ userId: learner.user._id, providerSubscriptionId: `sub_old${Date.now()}`, providerPlanId: 'plan_x', status: 'active' })
        .returning();
      const [payment] = await t.database.db
        .insert(payments)
        .values({
          userId: learner.user._id,
          subscriptionId: subscription!.id,
          providerPaymentId: `pay_old${Date.now()}`,
          amountPaise: 9900,
          status: 'captured',
          paidAt: new Date(),
        })
        .returning();
      const id = await issueInvoice(t.database.db, t.config.seller, payment!, new Date(Date.now() + 30 * DAY));
      const [invoice] = await t.database.db.select().from(billingDocuments).where(eq(billingDocuments.id, id));
      expect(invoice!.buyer.businessName).toBeNull();
      const lines = await pdfLines(await renderDocumentPdf(invoice!));
      expect(lines.filter((line) => line.startsWith('GSTIN'))).toEqual([`GSTIN ${SELLER_GSTIN}`]);
      expect(lines).toContain('Baner Pune 411045');
    });

    it('charges CGST and SGST to a buyer in the seller’s state, or whose state is unknown', async () => {
      for (const details of [{ stateCode: '29' }, undefined]) {
        const learner = await subscriber(details);
        const [invoice] = await documentsOf(learner.user._id);
        expect(invoice).toMatchObject({ placeOfSupply: '29', cgstPaise: 755, sgstPaise: 755, igstPaise: 0 });
        const text = await pdfText(
          (await api('GET', `/billing/documents/${(await historyWithPdfs(learner.cookie)).entries[0].invoice.id}/pdf`, learner.cookie)).rawPayload,
        );
        expect(text).toContain('CGST 9%');
        expect(text).toContain('SGST 9%');
        expect(text).toContain('₹7.55');
      }
    });

    it('issues the next number to a renewal, and keeps the details the first invoice was issued with', async () => {
      const learner = await subscriber({ stateCode: '29' });
      await api('PUT', '/billing/details', learner.cookie, { stateCode: '27' });
      const renewal = await sandboxTrigger(t, learner.subscriptionId, 'charge');
      expect(renewal.json().webhook.status).toBe(200);
      const [first, second] = await documentsOf(learner.user._id);
      expect(first).toMatchObject({ placeOfSupply: '29', cgstPaise: 755 });
      expect(second).toMatchObject({ placeOfSupply: '27', igstPaise: 1510 });
      const sequence = (number: string) => Number(number.split('/')[2]);
      expect(sequence(second!.number)).toBeGreaterThan(sequence(first!.number));
      const history = await historyWithPdfs(learner.cookie);
      expect(history.entries.map((entry: { invoice: { number: string } }) => entry.invoice.number)).toEqual([second!.number, first!.number]);
    });

    it('lets only the buyer and admins download a document', async () => {
      const learner = await subscriber();
      const { entries } = await historyWithPdfs(learner.cookie);
      const url = `/billing/documents/${entries[0].invoice.id}/pdf`;
      const stranger = await signUp(t.app);
      const refused = await api('GET', url, stranger.cookie);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ success: false, message: answers.documentNotYours });
      expect((await api('GET', url, '')).statusCode).toBe(401);
      expect((await api('GET', url, adminCookie)).statusCode).toBe(200);
      expect((await api('GET', '/billing/documents/00000000-0000-4000-8000-000000000000/pdf', adminCookie)).json()).toEqual({
        success: false,
        message: answers.documentNotFound,
      });
      expect((await api('GET', '/billing/documents/not-an-id/pdf', adminCookie)).statusCode).toBe(400);
      // The file itself is nowhere public.
      const [row] = await t.database.db.select().from(billingDocuments).where(eq(billingDocuments.id, entries[0].invoice.id));
      expect((await t.app.inject({ url: `/media/${row!.pdfKey}` })).statusCode).toBe(404);
      expect((await t.app.inject({ url: `/media/private/${row!.pdfKey}` })).statusCode).not.toBe(200);
    });

    it('retries a PDF whose job failed, keeping the number the invoice was issued with', async () => {
      const media = t.app.ctx.media;
      const put = media.put;
      let refusals = 0;
      media.put = async (...args) => {
        if (args[0].startsWith('documents/') && refusals++ === 0) throw new Error('storage is down');
        return put.apply(media, args);
      };
      try {
        const learner = await subscriber();
        const [issued] = await documentsOf(learner.user._id);
        const history = await historyWithPdfs(learner.cookie);
        expect(refusals).toBeGreaterThanOrEqual(2);
        expect(history.entries[0].invoice).toEqual({ id: issued!.id, number: issued!.number, ready: true });
        expect((await documentsOf(learner.user._id)).map((row) => row.number)).toEqual([issued!.number]);
      } finally {
        media.put = put;
      }
    });

    it('says a PDF is being made until it is', async () => {
      const learner = await signUp(t.app);
      const [subscription] = await t.database.db
        .insert(subscriptions)
        .values({ userId: learner.user._id, providerSubscriptionId: `sub_made${Date.now()}`, providerPlanId: 'plan_x', status: 'active' })
        .returning();
      const [payment] = await t.database.db
        .insert(payments)
        .values({
          userId: learner.user._id,
          subscriptionId: subscription!.id,
          providerPaymentId: `pay_made${Date.now()}`,
          amountPaise: 9900,
          status: 'captured',
          paidAt: new Date(),
        })
        .returning();
      const id = await issueInvoice(t.database.db, t.config.seller, payment!, new Date(Date.now() + 30 * DAY));
      const response = await api('GET', `/billing/documents/${id}/pdf`, learner.cookie);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(answers.documentPreparing);
      expect((await api('GET', '/billing/history', learner.cookie)).json().entries[0].invoice).toMatchObject({ id, ready: false });
    });
  });

  describe('credit notes', () => {
    it('refunds a cancellation inside the window with a credit note against the invoice, same tax, its own series', async () => {
      const learner = await subscriber({ stateCode: '27' });
      const cancelled = await api('POST', '/payments/unsubscribe', learner.cookie);
      expect(cancelled.json()).toMatchObject({ refunded: true });
      // A second cancellation finds nothing to refund and issues nothing.
      await api('POST', '/payments/unsubscribe', learner.cookie);
      const [creditNote, invoice] = await documentsOf(learner.user._id);
      expect(invoice).toMatchObject({ kind: 'invoice' });
      expect(creditNote).toMatchObject({
        kind: 'credit_note',
        invoiceId: invoice!.id,
        placeOfSupply: '27',
        igstPaise: 1510,
        taxablePaise: 8390,
        totalPaise: 9900,
      });
      expect(creditNote!.number).toMatch(new RegExp(`^CN/${fiscalYearOf(new Date())}/\\d{6}$`));

      const history = await historyWithPdfs(learner.cookie);
      expect(history.entries).toHaveLength(1);
      expect(history.entries[0]).toMatchObject({
        status: 'refunded',
        refunded: 99,
        invoice: { number: invoice!.number },
        creditNotes: [{ id: creditNote!.id, number: creditNote!.number, ready: true }],
      });
      expect(history.renewal).toBeNull();
      const text = await pdfText((await api('GET', `/billing/documents/${creditNote!.id}/pdf`, learner.cookie)).rawPayload);
      for (const words of ['Credit Note', creditNote!.number, `Against invoice ${invoice!.number}`, 'Total credited', '₹99.00']) expect(text).toContain(words);
    });

    it('says until when access lasts after a cancellation without a refund', async () => {
      const learner = await subscriber();
      // Paid 20 days ago: outside the 14-day refund window, so the cancellation keeps access to the period's end.
      await t.database.db
        .update(payments)
        .set({ paidAt: new Date(Date.now() - 20 * DAY) })
        .where(eq(payments.userId, learner.user._id));
      expect((await api('POST', '/payments/unsubscribe', learner.cookie)).json()).toMatchObject({ refunded: false });
      const history = await historyWithPdfs(learner.cookie);
      expect(history.renewal).toEqual({ renewsOn: null, cancelled: true, accessUntil: expect.any(String), plan: null, nextAmount: null, trialEndsAt: null });
      const [user] = await t.database.db.select().from(users).where(eq(users.id, learner.user._id));
      expect(history.renewal.accessUntil).toBe(user!.subscriptionEndsAt!.toISOString());
      expect(history.entries[0]).toMatchObject({ status: 'paid', refunded: 0, creditNotes: [] });
    });
  });

  describe('numbering', () => {
    it('gives concurrent captures consecutive numbers, no gaps and no duplicates; a rolled-back issue gives its number back', async () => {
      const learner = await signUp(t.app);
      const [subscription] = await t.database.db
        .insert(subscriptions)
        .values({ userId: learner.user._id, providerSubscriptionId: `sub_many${Date.now()}`, providerPlanId: 'plan_x', status: 'active' })
        .returning();
      const made = await t.database.db
        .insert(payments)
        .values(
          Array.from({ length: 21 }, (_, index) => ({
            userId: learner.user._id,
            subscriptionId: subscription!.id,
            providerPaymentId: `pay_many${Date.now()}_${index}`,
            amountPaise: 9900,
            status: 'captured',
            paidAt: new Date(),
          })),
        )
        .returning();
      const year = fiscalYearOf(new Date());
      const before =
        (await t.database.db.select().from(billingCounters).where(eq(billingCounters.fiscalYear, year))).find((row) => row.series === 'invoice')?.lastNumber ??
        0;

      // One issue fails after taking its number: its transaction rolls back, and so does the number.
      await expect(
        t.database.db.transaction(async (tx) => {
          await issueInvoice(tx, t.config.seller, made[20]!, new Date());
          throw new Error('the capture failed after the invoice');
        }),
      ).rejects.toThrow('the capture failed');
      const ids = await Promise.all(
        made.slice(0, 20).map((payment) => t.database.db.transaction((tx) => issueInvoice(tx, t.config.seller, payment, new Date()))),
      );
      const issued = await t.database.db.select().from(billingDocuments).where(inArray(billingDocuments.id, ids));
      const sequences = issued.map((row) => Number(row.number.split('/')[2])).sort((a, b) => a - b);
      expect(sequences).toEqual(Array.from({ length: 20 }, (_, index) => before + 1 + index));
    });
  });
});
