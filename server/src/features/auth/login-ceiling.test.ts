import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { signInLinks } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { multipart, newSignup, pngImage, sessionCookie, signUp } from '../../test/http.ts';
import { parsedOutbox, waitForJobs, waitForParsedMails } from '../../test/mail.ts';
import { KNOWN_DEVICE_COOKIE } from './known-devices.ts';

/**
 * The attack of a stranger with ten addresses: ten wrong passwords from each reaches the
 * account's ceiling (LOGIN_MAX_PER_ACCOUNT, 100) without setting off any address's lock. The
 * owner must still get in: at once from a browser that signed in before, through a mailed
 * one-time link from any other; and a guesser must learn nothing past the ceiling.
 */
let t: TestApp;
beforeAll(async () => {
  // The real login limits (the test defaults raise the per-address one for other files).
  t = await createTestApp({ env: { LOGIN_MAX_PER_IP: '' } });
});
afterAll(() => t?.close());

let nextNet = 0;
/** Addresses of a network of their own, apart from every other test's. */
const network = () => {
  nextNet += 1;
  return (host: number) => `10.${nextNet}.0.${host}`;
};

const login = (email: string, password: string, remoteAddress: string, cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/user/login', payload: { email, password }, remoteAddress, ...(cookie && { headers: { cookie } }) });

const deviceCookie = (response: LightMyRequestResponse) => {
  const cookie = response.cookies.find((c) => c.name === KNOWN_DEVICE_COOKIE);
  if (!cookie) throw new Error(`no known-device cookie in response ${response.statusCode}`);
  return `${KNOWN_DEVICE_COOKIE}=${cookie.value}`;
};

/** 100 wrong passwords, ten from each of ten addresses: every one a plain 401, and the ceiling reached. */
async function attack(email: string) {
  const from = network();
  for (let address = 1; address <= 10; address++) {
    for (let i = 0; i < 10; i++) expect((await login(email, `wrong#${i}`, from(address))).statusCode).toBe(401);
  }
  const past = await login(email, 'wrong#xyz', from(11));
  expect(past.statusCode).toBe(429);
}

const signInMails = (email: string) => waitForParsedMails(t.dataDir, email, /sign-in link/);
const signInMailCount = async (email: string) =>
  (await parsedOutbox(t.dataDir)).filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === email && /sign-in link/.test(mail.subject ?? ''))
    .length;
const linkToken = (text: string) => /\/sign-in\/([A-Za-z0-9_-]+)/.exec(text)![1]!;
const useLink = (token: string, remoteAddress = '192.0.2.80') => t.app.inject({ method: 'POST', url: `/api/v1/user/sign-in/${token}`, remoteAddress });
const me = (cookie: string) => t.app.inject({ url: '/api/v1/user/me', headers: { cookie } });

// Each test sends over a hundred logins: room for a machine busy with other work.
describe('past the account-wide ceiling of failed logins', { timeout: 90_000 }, () => {
  it('lets the owner in at once, with the right password, from a browser that signed in before', async () => {
    const account = await signUp(t.app);
    const home = '192.0.2.10';
    const owner = deviceCookie(await login(account.email, account.password, home));
    await attack(account.email);

    const back = await login(account.email, account.password, home, owner);
    expect(back.statusCode).toBe(200);
    expect(back.json().message).toBe(answers.loggedIn);
    expect((await me(sessionCookie(back))).statusCode).toBe(200);
    // From a café, the same browser is as known as at home; a mistyped password there is an ordinary 401.
    expect((await login(account.email, account.password, '198.51.100.77', owner)).statusCode).toBe(200);
    expect((await login(account.email, 'typo#123', '198.51.100.77', owner)).statusCode).toBe(401);
  });

  it('lets in the browser that signed up', async () => {
    const signup = newSignup();
    const form = await multipart({ ...signup, avatar: { bytes: await pngImage(), filename: 'me.png', type: 'image/png' } });
    const registered = await t.app.inject({ method: 'POST', url: '/api/v1/user/register', ...form });
    expect(registered.statusCode).toBe(201);
    await attack(signup.email);
    expect((await login(signup.email, signup.password, '192.0.2.15', deviceCookie(registered))).statusCode).toBe(200);
  });

  it('answers a new browser the same for a right and a wrong password, mails the owner a link that signs in once', async () => {
    const account = await signUp(t.app);
    await attack(account.email);

    const right = await login(account.email, account.password, '192.0.2.20');
    const wrong = await login(account.email, 'guess#123', '192.0.2.21');
    expect(right.statusCode).toBe(429);
    expect(wrong.statusCode).toBe(429);
    expect(right.body).toBe(wrong.body);
    expect([answers.loginPaused(15), answers.loginPaused(14)]).toContain(right.json().message);
    expect(right.cookies).toEqual([]);
    expect(wrong.cookies).toEqual([]);

    const [mail] = await signInMails(account.email);
    await waitForJobs(t.database);
    // One mail: the right password's. The wrong one sent nothing.
    expect(await signInMailCount(account.email)).toBe(1);
    const token = linkToken(mail!.text!);
    expect(mail!.text).toContain(`${t.config.publicUrl}/sign-in/${token}`);

    const signedIn = await useLink(token);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ success: true, message: answers.loggedIn, user: { _id: account.user._id } });
    expect((await me(sessionCookie(signedIn))).statusCode).toBe(200);
    const again = await useLink(token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ success: false, message: messages.signInLinkInvalid });

    // The link made that browser known: the password works there now, ceiling or not.
    expect((await login(account.email, account.password, '192.0.2.20', deviceCookie(signedIn))).statusCode).toBe(200);
  });

  it('counts a right and a wrong password alike against the address, so its lock tells nothing either', async () => {
    const account = await signUp(t.app);
    await attack(account.email);
    const answersTo = async (password: string, address: string) => {
      const messages = [];
      for (let i = 0; i < 11; i++) messages.push((await login(account.email, password, address)).json().message);
      return messages;
    };
    const rightOnes = await answersTo(account.password, '192.0.2.30');
    const wrongOnes = await answersTo('guess#123', '192.0.2.31');
    expect(rightOnes).toEqual(wrongOnes);
    // Ten as the account's pause, then the address's own lock (LOGIN_MAX_PER_EMAIL, 10).
    expect(new Set(rightOnes.slice(0, 10)).size).toBe(1);
    expect([answers.loginPaused(15), answers.loginPaused(14)]).toContain(rightOnes[0]);
    expect([answers.tooManyLoginAttempts(15), answers.tooManyLoginAttempts(14)]).toContain(rightOnes[10]);
  });

  it('mails an account at most three links in 15 minutes', async () => {
    const account = await signUp(t.app);
    await attack(account.email);
    for (let i = 0; i < 5; i++) expect((await login(account.email, account.password, `192.0.2.${40 + i}`)).statusCode).toBe(429);
    await signInMails(account.email);
    await waitForJobs(t.database);
    expect(await signInMailCount(account.email)).toBe(3);
  });

  it('refuses an expired link, a made-up one, and every link once the password is new', async () => {
    const account = await signUp(t.app);
    await attack(account.email);
    await login(account.email, account.password, '192.0.2.50');
    await login(account.email, account.password, '192.0.2.51');
    const mails = await waitForParsedMails(t.dataDir, account.email, /sign-in link/, { count: 2 });
    const [first, second] = mails.map((mail) => linkToken(mail.text!));

    await t.database.db
      .update(signInLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(signInLinks.userId, account.user._id as string));
    expect((await useLink(first!)).json()).toEqual({ success: false, message: messages.signInLinkInvalid });
    expect((await useLink('A'.repeat(43))).statusCode).toBe(400);
    expect((await useLink('short')).json()).toEqual({ success: false, message: messages.signInLinkInvalid });

    await login(account.email, account.password, '192.0.2.52');
    const [, , third] = (await waitForParsedMails(t.dataDir, account.email, /sign-in link/, { count: 3 })).map((mail) => linkToken(mail.text!));
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change-password',
      headers: { cookie: account.cookie },
      payload: { oldPassword: account.password, newPassword: 'better#456' },
    });
    expect(changed.statusCode).toBe(200);
    for (const token of [second!, third!]) expect((await useLink(token)).json()).toEqual({ success: false, message: messages.signInLinkInvalid });
  });

  it('forgets every known browser when the password changes, and takes no mark made for another account', async () => {
    const account = await signUp(t.app);
    const other = await signUp(t.app);
    const owner = deviceCookie(await login(account.email, account.password, '192.0.2.60'));
    const otherBrowser = deviceCookie(await login(other.email, other.password, '192.0.2.61'));

    // A new password set elsewhere (a reset, a change on another device).
    const elsewhere = sessionCookie(await login(account.email, account.password, '192.0.2.62'));
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change-password',
      headers: { cookie: elsewhere },
      payload: { oldPassword: account.password, newPassword: 'better#456' },
    });
    expect(changed.statusCode).toBe(200);
    await attack(account.email);

    expect((await login(account.email, 'better#456', '192.0.2.60', owner)).statusCode).toBe(429);
    expect((await login(account.email, 'better#456', '192.0.2.61', otherBrowser)).statusCode).toBe(429);
    // A forged mark: another account's, relabelled.
    const forged = otherBrowser.replace(other.user._id as string, account.user._id as string);
    expect((await login(account.email, 'better#456', '192.0.2.63', forged)).statusCode).toBe(429);
    // The browser that chose the new password stays known.
    expect((await login(account.email, 'better#456', '192.0.2.62', deviceCookie(changed))).statusCode).toBe(200);
  });
});
