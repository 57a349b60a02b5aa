import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { auditLog, billingDocuments } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { waitForParsedMails } from '../../test/mail.ts';
import { apiCaller, subscriber } from '../../test/payments.ts';
import { RESENDS_PER_HOUR } from './resend.service.ts';

/* An administrator mails an invoice or a credit note to its buyer again. */

let t: TestApp;
let admin: { cookie: string; user: { _id: string } };

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpAdmin(t.app);
});
afterAll(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
const resend = (documentId: string, cookie = admin.cookie, body: object = {}) => api('POST', `/admin/billing/documents/${documentId}/resend`, cookie, body);
const documentsOf = (userId: string) => t.database.db.select().from(billingDocuments).where(eq(billingDocuments.userId, userId));

/** A subscriber whose receipt (and so the invoice's PDF) has gone out. */
async function paidWithInvoice() {
  const paid = await subscriber(t);
  await waitForParsedMails(t.dataDir, paid.email, /^Payment received/, { timeoutMs: 30_000 });
  const [invoice] = await documentsOf(paid.user._id);
  return { paid, invoice: invoice! };
}

describe('POST /admin/billing/documents/:id/resend', () => {
  it('mails the invoice to its buyer again, each time, and audits it', async () => {
    const { paid, invoice } = await paidWithInvoice();
    const answer = await resend(invoice.id, admin.cookie, { note: 'Lost in spam' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ success: true, message: answers.documentResent(paid.email) });
    const mails = await waitForParsedMails(t.dataDir, paid.email, /^Payment received/, { count: 2, timeoutMs: 30_000 });
    expect(mails[1]!.attachments.map((file) => file.filename)).toEqual([`${invoice.number.replaceAll('/', '-')}.pdf`]);

    expect((await resend(invoice.id)).statusCode).toBe(200);
    await waitForParsedMails(t.dataDir, paid.email, /^Payment received/, { count: 3, timeoutMs: 30_000 });

    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'learners.resendDocument'), eq(auditLog.targetId, paid.user._id)));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      actorId: admin.user._id,
      targetType: 'user',
      targetLabel: `${paid.fullName} <${paid.email}>`,
      details: { documentId: invoice.id },
      reason: 'Lost in spam',
      summary: `Invoice ${invoice.number} sent again to ${paid.email}`,
    });
  });

  it('mails a credit note again as the refund mail', async () => {
    const { paid } = await paidWithInvoice();
    const [payment] = (await api('GET', '/billing/history', paid.cookie)).json().entries;
    const refunded = await api('POST', `/admin/payments/${payment.paymentId}/refunds`, admin.cookie, {
      key: randomUUID(),
      amount: 9,
      access: 'period_end',
      note: 'Goodwill',
    });
    expect(refunded.statusCode, refunded.body).toBe(201);
    await waitForParsedMails(t.dataDir, paid.email, /^Refund issued/, { timeoutMs: 30_000 });
    const creditNote = (await documentsOf(paid.user._id)).find((document) => document.kind === 'credit_note')!;
    expect((await resend(creditNote.id)).statusCode).toBe(200);
    await waitForParsedMails(t.dataDir, paid.email, /^Refund issued: ₹9\.00/, { count: 2, timeoutMs: 30_000 });
  });

  it('refuses a document whose PDF is not made (409), an unknown one (404), too many in an hour (429), and learners (403)', async () => {
    const { paid, invoice } = await paidWithInvoice();
    const key = invoice.pdfKey ?? (await documentsOf(paid.user._id))[0]!.pdfKey;
    await t.database.db.update(billingDocuments).set({ pdfKey: null }).where(eq(billingDocuments.id, invoice.id));
    expect((await resend(invoice.id)).json()).toEqual({ success: false, message: answers.documentNotReady });
    expect((await resend(invoice.id)).statusCode).toBe(409);
    await t.database.db.update(billingDocuments).set({ pdfKey: key }).where(eq(billingDocuments.id, invoice.id));

    expect((await resend(randomUUID())).statusCode).toBe(404);
    expect((await resend(invoice.id, paid.cookie)).statusCode).toBe(403);
    expect((await resend(invoice.id, (await signUp(t.app)).cookie)).statusCode).toBe(403);

    for (let i = 0; i < RESENDS_PER_HOUR; i++) expect((await resend(invoice.id)).statusCode).toBe(200);
    const limited = await resend(invoice.id);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe(answers.documentResendsExceeded);
  });
});
