import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gstinCheckCharacter } from '@lms/contract/billing';
import { answers } from '@lms/contract/answers';
import { cancellations, lifecycleMails, payments, subscriptions, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { parsedOutbox, waitForJobs, waitForParsedMails } from '../../test/mail.ts';
import { pdfText } from '../../test/pdf.ts';
import { apiCaller, sandboxTrigger, subscriber } from '../../test/payments.ts';
import { formatIndiaDate } from './format.ts';
import { queueRenewalReminders, queueUnsentMails, recordLifecycleMail } from './lifecycle-mail.ts';

const SELLER_GSTIN = `29AAACL1234C1Z${gstinCheckCharacter('29AAACL1234C1Z')}`;
const DAY = 24 * 3600 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SELLER_GSTIN } });
});
afterAll(() => t?.close());

const api = (...args: Parameters<ReturnType<typeof apiCaller>>) => apiCaller(t)(...args);
const mailsTo = async (email: string) => (await parsedOutbox(t.dataDir)).filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === email);

describe('lifecycle mail', () => {
  it('sends a receipt with the invoice attached after every payment, once each however verify and webhooks repeat', async () => {
    const learner = await subscriber(t);
    expect((await api('POST', '/payments/verify', learner.cookie, learner.handler)).statusCode).toBe(200);
    const [receipt] = await waitForParsedMails(t.dataDir, learner.user.email, /^Payment received: ₹99\.00 · LMS\/\d{2}-\d{2}\/\d{6}$/);
    const number = receipt!.subject!.split(' · ')[1]!;
    expect(receipt!.text).toContain(`Hello ${learner.user.fullName},`);
    expect(receipt!.text).toContain(`Your tax invoice ${number} is attached.`);
    expect(receipt!.html).toContain(`Your tax invoice ${number} is attached.`);
    expect(receipt!.attachments).toHaveLength(1);
    expect(receipt!.attachments[0]).toMatchObject({ filename: `${number.replaceAll('/', '-')}.pdf`, contentType: 'application/pdf' });
    expect(await pdfText(receipt!.attachments[0]!.content)).toContain(number);

    // A renewal by webhook: a second receipt, for the next invoice.
    expect((await sandboxTrigger(t, learner.subscriptionId, 'charge')).json().webhook.status).toBe(200);
    const receipts = await waitForParsedMails(t.dataDir, learner.user.email, /^Payment received/, { count: 2 });
    expect(receipts[1]!.subject).not.toBe(receipt!.subject);
    await waitForJobs(t.database);
    expect((await mailsTo(learner.user.email)).filter((mail) => mail.subject?.startsWith('Payment received'))).toHaveLength(2);
  });

  it('reminds of a renewal three days ahead, once per renewal', async () => {
    const learner = await subscriber(t);
    const renewsOn = new Date(Date.now() + 2 * DAY);
    await t.database.db.update(subscriptions).set({ currentEnd: renewsOn }).where(eq(subscriptions.userId, learner.user._id));
    expect(await queueRenewalReminders(t.app.ctx)).toBeGreaterThanOrEqual(1);
    await queueRenewalReminders(t.app.ctx);
    const [reminder] = await waitForParsedMails(t.dataDir, learner.user.email, /^Your subscription renews on /);
    expect(reminder!.subject).toBe(`Your subscription renews on ${formatIndiaDate(renewsOn)}`);
    expect(reminder!.text).toContain(`we will charge ₹99.00 for another month`);
    await waitForJobs(t.database);
    expect((await mailsTo(learner.user.email)).filter((mail) => mail.subject?.startsWith('Your subscription renews'))).toHaveLength(1);

    // Nobody is reminded of a renewal they cancelled, or of one further off.
    const cancelled = await subscriber(t);
    await t.database.db.update(subscriptions).set({ currentEnd: renewsOn }).where(eq(subscriptions.userId, cancelled.user._id));
    await t.database.db.update(users).set({ subscriptionCancelledAt: new Date() }).where(eq(users.id, cancelled.user._id));
    const later = await subscriber(t);
    await t.database.db
      .update(subscriptions)
      .set({ currentEnd: new Date(Date.now() + 5 * DAY) })
      .where(eq(subscriptions.userId, later.user._id));
    await queueRenewalReminders(t.app.ctx);
    await waitForJobs(t.database);
    for (const quiet of [cancelled, later]) {
      expect((await mailsTo(quiet.user.email)).filter((mail) => mail.subject?.startsWith('Your subscription renews'))).toHaveLength(0);
    }
  });

  it('says a renewal payment failed and what happens next, then that access ended, once each', async () => {
    const learner = await subscriber(t);
    expect((await sandboxTrigger(t, learner.subscriptionId, 'fail')).json().webhook.status).toBe(200);
    // The provider retries and fails again: the same failure, no second mail.
    expect((await sandboxTrigger(t, learner.subscriptionId, 'fail')).json().webhook.status).toBe(200);
    const [failed] = await waitForParsedMails(t.dataDir, learner.user.email, /^Your payment did not go through$/);
    expect(failed!.text).toContain('Your access continues while the payment is tried again');
    expect((await api('GET', '/user/me', learner.cookie)).json().user.subscription.status).toBe('active');

    expect((await sandboxTrigger(t, learner.subscriptionId, 'halt')).json().webhook.status).toBe(200);
    const [ended] = await waitForParsedMails(t.dataDir, learner.user.email, /^Your access has ended$/);
    expect(ended!.text).toContain(`${t.config.publicUrl}/checkout`);
    expect((await api('GET', '/user/me', learner.cookie)).json().user.subscription.status).toBe('inactive');
    await waitForJobs(t.database);
    const subjects = (await mailsTo(learner.user.email)).map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject === 'Your payment did not go through')).toHaveLength(1);
    expect(subjects.filter((subject) => subject === 'Your access has ended')).toHaveLength(1);
  });

  it('confirms a refunded cancellation, keeps its reason, and sends the refund with its credit note', async () => {
    const learner = await subscriber(t);
    const cancelled = await api('POST', '/payments/unsubscribe', learner.cookie, { reason: 'too_expensive', note: '  Too dear for me right now.  ' });
    expect(cancelled.json()).toMatchObject({ success: true, refunded: true });
    const [confirmation] = await waitForParsedMails(t.dataDir, learner.user.email, /^Your subscription is cancelled$/);
    expect(confirmation!.text).toContain('your last payment is refunded in full');
    const [refund] = await waitForParsedMails(t.dataDir, learner.user.email, /^Refund issued: ₹99\.00 · CN\/\d{2}-\d{2}\/\d{6}$/);
    const creditNote = refund!.subject!.split(' · ')[1]!;
    expect(await pdfText(refund!.attachments[0]!.content)).toContain(creditNote);
    expect(await t.database.db.select().from(cancellations).where(eq(cancellations.userId, learner.user._id))).toEqual([
      expect.objectContaining({ reason: 'too_expensive', note: 'Too dear for me right now.', refunded: true }),
    ]);
  });

  it('confirms a cancellation that keeps access with the date it ends; asking twice cancels and mails once; the reason may be skipped', async () => {
    const learner = await subscriber(t);
    await t.database.db
      .update(payments)
      .set({ paidAt: new Date(Date.now() - 20 * DAY) })
      .where(eq(payments.userId, learner.user._id));
    const [first, second] = await Promise.all([1, 2].map(() => api('POST', '/payments/unsubscribe', learner.cookie)));
    expect(first!.json()).toMatchObject({ refunded: false });
    expect(second!.statusCode).toBe(200);
    const [user] = await t.database.db.select().from(users).where(eq(users.id, learner.user._id));
    const [confirmation] = await waitForParsedMails(t.dataDir, learner.user.email, /^Your subscription is cancelled$/);
    expect(confirmation!.text).toContain(`you keep access to every course until ${formatIndiaDate(user!.subscriptionEndsAt!)}`);
    await waitForJobs(t.database);
    expect((await mailsTo(learner.user.email)).filter((mail) => mail.subject === 'Your subscription is cancelled')).toHaveLength(1);
    expect(await t.database.db.select().from(cancellations).where(eq(cancellations.userId, learner.user._id))).toEqual([
      expect.objectContaining({ reason: null, note: null, refunded: false, accessUntil: user!.subscriptionEndsAt }),
    ]);
  });

  it('refuses a reason not offered, or a note too long, and cancels nothing', async () => {
    const learner = await subscriber(t);
    for (const [body, message] of [
      [{ reason: 'because' }, answers.cancelReasonInvalid],
      [{ note: 'x'.repeat(501) }, answers.cancelNoteTooLong],
      [{ note: 42 }, answers.cancelNoteTooLong],
    ] as const) {
      const response = await api('POST', '/payments/unsubscribe', learner.cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    expect((await api('GET', '/user/me', learner.cookie)).json().user.subscription).toMatchObject({ status: 'active' });
    expect(await t.database.db.select().from(cancellations).where(eq(cancellations.userId, learner.user._id))).toEqual([]);
  });

  it('never loses a mail: a failing mail server is retried, and a mail the queue never got is found by the sweep', async () => {
    const learner = await subscriber(t);
    await waitForParsedMails(t.dataDir, learner.user.email, /^Payment received/);
    const mailer = t.app.ctx.mailer;
    const send = mailer.send;
    let refusals = 0;
    mailer.send = async (mail) => {
      if (refusals++ === 0) throw new Error('421 the mail server is busy');
      return send(mail);
    };
    try {
      await t.database.db
        .update(payments)
        .set({ paidAt: new Date(Date.now() - 20 * DAY) })
        .where(eq(payments.userId, learner.user._id));
      const answer = await api('POST', '/payments/unsubscribe', learner.cookie, { reason: 'finished' });
      expect(answer.statusCode).toBe(200);
      await waitForParsedMails(t.dataDir, learner.user.email, /^Your subscription is cancelled$/, { timeoutMs: 15_000 });
      expect(refusals).toBeGreaterThanOrEqual(2);
    } finally {
      mailer.send = send;
    }

    // Written, but never queued (the process died right after the commit): the sweep sends it.
    const id = await recordLifecycleMail(t.database.db, { key: `access_ended:test-${Date.now()}`, kind: 'access_ended', userId: learner.user._id, data: {} });
    await t.database.db
      .update(lifecycleMails)
      .set({ createdAt: new Date(Date.now() - 5 * 60_000) })
      .where(eq(lifecycleMails.id, id!));
    expect(await queueUnsentMails(t.app.ctx)).toBeGreaterThanOrEqual(1);
    await waitForParsedMails(t.dataDir, learner.user.email, /^Your access has ended$/);
    const [row] = await t.database.db
      .select()
      .from(lifecycleMails)
      .where(and(eq(lifecycleMails.id, id!)));
    expect(row!.sentAt).not.toBeNull();
  });
});
