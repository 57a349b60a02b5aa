import { randomBytes, randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { auditLog, emailChanges, lifecycleMails, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { login, sessionCookie, signUp, signUpAdmin } from '../../test/http.ts';
import { waitForParsedMails } from '../../test/mail.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpAdmin(t.app);
});
afterAll(() => t?.close());

const freshEmail = () => `new-${randomBytes(5).toString('hex')}@example.com`;
const change = (userId: string, email: string, note = 'Lost access to the old inbox', cookie = admin.cookie) =>
  t.app.inject({ method: 'PUT', url: `/api/v1/admin/learners/${userId}/email`, headers: { cookie }, payload: { email, note } });
const confirm = (token: string) => t.app.inject({ method: 'POST', url: `/api/v1/user/email/${token}` });
const me = (cookie: string) => t.app.inject({ url: '/api/v1/user/me', headers: { cookie } });
const userRow = async (userId: string) => (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!;
const auditOf = (userId: string) => t.database.db.select().from(auditLog).where(eq(auditLog.targetId, userId)).orderBy(auditLog.id);

/** The token of the latest confirmation link mailed to `email` (the `count`th). */
async function mailedToken(email: string, { count = 1 } = {}): Promise<string> {
  const mails = await waitForParsedMails(t.dataDir, email, /Confirm your new .* email/, { count });
  const match = /\/confirm-email\/([A-Za-z0-9_-]+)/.exec(mails.at(-1)!.text ?? '');
  expect(match).not.toBeNull();
  return match![1]!;
}

/** Rows a refusal must leave as they were. */
async function writtenFor(userId: string) {
  const [audit] = await t.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.targetId, userId));
  const [mails] = await t.database.db.select({ n: count() }).from(lifecycleMails).where(eq(lifecycleMails.userId, userId));
  const [links] = await t.database.db.select({ n: count() }).from(emailChanges).where(eq(emailChanges.userId, userId));
  return { audit: audit!.n, mails: mails!.n, links: links!.n, email: (await userRow(userId)).email };
}

describe('an administrator changes a learner’s email', () => {
  it('mails a link to the new address and tells the old one; opening it changes the email, ends every session, and the learner logs in with it', async () => {
    const learner = await signUp(t.app);
    const phone = sessionCookie(await login(t.app, learner.email, learner.password));
    const newEmail = freshEmail();

    const response = await change(learner.user._id, newEmail);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, message: answers.emailChangeMailed(newEmail) });
    // Nothing changes until the link is opened.
    expect((await userRow(learner.user._id)).email).toBe(learner.email);
    const [told] = await waitForParsedMails(t.dataDir, learner.email, /A change of your account’s email was asked/);
    expect(told!.text).toContain(newEmail);
    const token = await mailedToken(newEmail);
    // Kept hashed: the token is in the mail alone.
    const [link] = await t.database.db.select().from(emailChanges).where(eq(emailChanges.userId, learner.user._id));
    expect(link!.tokenHash).not.toContain(token);
    expect(link).toMatchObject({ newEmail, requestedById: admin.user._id, usedAt: null });
    expect(link!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ success: true, message: answers.emailChangeConfirmed });
    expect((await userRow(learner.user._id)).email).toBe(newEmail);
    expect((await me(learner.cookie)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await login(t.app, learner.email, learner.password)).statusCode).toBe(401);
    const fresh = await login(t.app, newEmail, learner.password);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect((await me(sessionCookie(fresh))).json().user.email).toBe(newEmail);

    // Single use.
    const again = await confirm(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: answers.emailChangeLinkInvalid });

    const entries = await auditOf(learner.user._id);
    expect(entries.map((entry) => [entry.action, entry.actorId, entry.reason])).toEqual([
      ['learners.changeEmail', admin.user._id, 'Lost access to the old inbox'],
      ['email.confirm', null, null],
    ]);
    expect(entries[0]!.details).toEqual({ from: learner.email, to: newEmail });
    expect(entries[1]!.details).toEqual({ from: learner.email, to: newEmail });
  });

  it('refuses the same email (400), one another account has (409) and an unknown account (404), writing nothing', async () => {
    const learner = await signUp(t.app);
    const other = await signUp(t.app);
    const written = await writtenFor(learner.user._id);
    const same = await change(learner.user._id, learner.email);
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({ success: false, message: answers.emailChangeSame });
    const taken = await change(learner.user._id, other.email.toUpperCase());
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ success: false, message: answers.emailTaken });
    for (const [email, note] of [
      ['not-an-email', 'Fine note'],
      [freshEmail(), 'x'],
    ]) {
      expect((await change(learner.user._id, email!, note)).statusCode).toBe(400);
    }
    expect((await change(randomUUID(), freshEmail())).statusCode).toBe(404);
    expect(await writtenFor(learner.user._id)).toEqual(written);
  });

  it('refuses a link whose address another account took meanwhile (409), an expired one and a made-up one (400), changing nothing', async () => {
    const learner = await signUp(t.app);
    const newEmail = freshEmail();
    expect((await change(learner.user._id, newEmail)).statusCode).toBe(200);
    const token = await mailedToken(newEmail);
    await signUp(t.app, { email: newEmail });
    const taken = await confirm(token);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ success: false, message: answers.emailTaken });
    expect((await userRow(learner.user._id)).email).toBe(learner.email);
    expect((await me(learner.cookie)).statusCode).toBe(200);

    const later = freshEmail();
    expect((await change(learner.user._id, later)).statusCode).toBe(200);
    const expired = await mailedToken(later);
    await t.database.db
      .update(emailChanges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailChanges.newEmail, later));
    expect((await confirm(expired)).json()).toEqual({ success: false, message: answers.emailChangeLinkInvalid });
    expect((await confirm(randomBytes(32).toString('base64url'))).statusCode).toBe(400);
    expect((await confirm('short')).statusCode).toBe(400);
    expect((await userRow(learner.user._id)).email).toBe(learner.email);
    expect((await auditOf(learner.user._id)).map((entry) => entry.action)).toEqual(['learners.changeEmail', 'learners.changeEmail']);
  });

  it('a newer change voids the link of the earlier one', async () => {
    const learner = await signUp(t.app);
    const first = freshEmail();
    const second = freshEmail();
    expect((await change(learner.user._id, first)).statusCode).toBe(200);
    const firstToken = await mailedToken(first);
    expect((await change(learner.user._id, second)).statusCode).toBe(200);
    const secondToken = await mailedToken(second);
    expect((await confirm(firstToken)).statusCode).toBe(400);
    expect((await confirm(secondToken)).statusCode).toBe(200);
    expect((await userRow(learner.user._id)).email).toBe(second);
  });

  it('mails one account a few times at most (429 past it)', async () => {
    const learner = await signUp(t.app);
    const answered: number[] = [];
    for (let i = 0; i < 6; i++) answered.push((await change(learner.user._id, freshEmail())).statusCode);
    expect(answered).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
