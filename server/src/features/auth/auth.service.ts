import { and, eq, isNull } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { passwordResets, signInLinks, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { forgetInitialAdminPassword } from '../../cli/initial-admin.ts';
import { consume, loginKey, minutesToWait, waitBeforeNext } from '../../rate-limit.ts';
import { siteOf } from '../settings/site-settings.ts';
import { claimSingleUseLink, mailSingleUseLink } from './mailed-links.ts';
import { createSession, revokeAllSessions, revokeSession, type SignInClient, type UserRow } from './sessions.ts';

const RESET_LINK_MINUTES = 15;
const SIGN_IN_LINK_MINUTES = 15;

type Session = { token: string; expiresAt: Date };

/**
 * Checks the password and opens a session. Every attempt has counted against the client's
 * address, and one from an address locked for this email was refused, before this runs (the
 * route's limits). Failures count against the email from that address, which is the lock: a
 * stranger's guesses from elsewhere cannot lock the owner out. They also count against
 * the email from everywhere, a far higher ceiling on guessing from many addresses.
 *
 * Past that ceiling a browser that signed in to the account before (`isKnownDevice`) logs in
 * as ever. Any other gets one answer whether the password was right or wrong, and counts the
 * attempt the same either way, so that guessing on tells nothing; when it was right, the
 * owner is mailed a one-time sign-in link (decision 0021).
 */
export async function logIn(
  ctx: Context,
  input: { email: string; password: string; client: SignInClient; isKnownDevice: (user: UserRow) => boolean },
): Promise<{ user: UserRow; session: Session }> {
  const { loginFailuresPerEmailAndIp, loginFailuresPerEmail } = ctx.limits;
  const fromHere = loginKey(input.email, input.client.ip);
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
  const valid = user ? await ctx.passwords.verify(input.password, user.passwordHash) : await ctx.passwords.verifyNothing(input.password);
  const pausedFor = await waitBeforeNext(loginFailuresPerEmail, input.email);
  if (pausedFor && !(user && input.isKnownDevice(user))) {
    await consume(loginFailuresPerEmailAndIp, fromHere);
    // A suspended account would be refused the link's sign-in: none is mailed.
    if (user && valid && !user.suspendedAt && (await consume(ctx.limits.signInLinksPerAccount, user.id)))
      await ctx.jobs.send('sign-in-link', { userId: user.id });
    throw new AppError(429, answers.loginPaused(minutesToWait(pausedFor)));
  }
  if (!user || !valid) {
    await Promise.all([consume(loginFailuresPerEmailAndIp, fromHere), consume(loginFailuresPerEmail, input.email)]);
    throw new AppError(401, answers.wrongCredentials);
  }
  await loginFailuresPerEmailAndIp.delete(fromHere);
  // Only the right password learns of a suspension (createSession refuses it, 403): a wrong one got the answer above.
  return { user, session: await createSession(ctx, user.id, input.client) };
}

/** Ends the session of this cookie, if there is one. */
export async function logOut(ctx: Context, token: string | undefined): Promise<void> {
  if (token) await revokeSession(ctx, token);
}

/** The `sign-in-link` job: a one-time sign-in link, mailed to the account. */
export async function mailSignInLink(ctx: Context, input: { userId: string }): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, input.userId));
  if (!user) return;
  const { name: siteName } = await siteOf(ctx);
  await mailSingleUseLink(ctx, signInLinks, {
    user,
    page: 'sign-in',
    minutes: SIGN_IN_LINK_MINUTES,
    compose: (link) => ({
      subject: `Your ${siteName} sign-in link`,
      text:
        `Hello ${user.fullName},\n\nYour ${siteName} password was just entered correctly in a browser that has not signed in to ` +
        'your account before, while sign-ins to it were paused after many wrong passwords.\n' +
        `If it was you, open this link within ${SIGN_IN_LINK_MINUTES} minutes to sign in; it works once:\n\n${link}\n\n` +
        `If it was not you, someone knows your password: sign in and change it.\n\n— ${siteName}\n`,
    }),
  });
}

/** Signs in with a mailed one-time link: it works once, within its minutes. */
export async function signInWithLink(ctx: Context, input: { token: string; client: SignInClient }): Promise<{ user: UserRow; session: Session }> {
  const userId = await claimSingleUseLink(ctx, signInLinks, input.token);
  const [user] = userId ? await ctx.db.select().from(users).where(eq(users.id, userId)) : [];
  if (!user) throw new AppError(400, messages.signInLinkInvalid);
  return { user, session: await createSession(ctx, user.id, input.client) };
}

/** Changes the password and ends every session of the user; the caller gets a fresh one. */
export async function changePassword(
  ctx: Context,
  user: UserRow,
  input: { oldPassword: string; newPassword: string },
  client: SignInClient,
): Promise<{ user: UserRow; session: Session }> {
  if (!(await ctx.passwords.verify(input.oldPassword, user.passwordHash))) {
    throw new AppError(400, answers.oldPasswordWrong);
  }
  const passwordHash = await ctx.passwords.hash(input.newPassword);
  await ctx.db.transaction((tx) => setPassword(tx, user.id, passwordHash));
  if (user.mustChangePassword) await forgetInitialAdminPassword(ctx);
  return { user: { ...user, passwordHash, mustChangePassword: false }, session: await createSession(ctx, user.id, client) };
}

/**
 * A new password ends every session, so a thief's stolen cookie stops working too, and
 * voids every reset and sign-in link still out, so an old mail cannot undo it.
 */
async function setPassword(db: Db, userId: string, passwordHash: string) {
  const now = new Date();
  await db.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: now }).where(eq(users.id, userId));
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  await db
    .update(signInLinks)
    .set({ usedAt: now })
    .where(and(eq(signInLinks.userId, userId), isNull(signInLinks.usedAt)));
  await revokeAllSessions(db, userId);
}

/**
 * Asks for a reset link. The request does the same work for any email (two counters and
 * one queued job) and so answers in the same time; the job finds out whether the email
 * has an account, and mails the link only if it has.
 */
export async function requestPasswordReset(ctx: Context, input: { email: string }): Promise<void> {
  // A quiet cap per email: no mail bombing, and no answer that differs.
  if (!(await consume(ctx.limits.resetPerEmail, input.email))) return;
  await ctx.jobs.send('password-reset', { email: input.email });
}

/** The `password-reset` job: a single-use link, mailed when the email has an account. */
export async function mailPasswordReset(ctx: Context, input: { email: string }): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
  if (!user) return;
  const { name: siteName } = await siteOf(ctx);
  await mailSingleUseLink(ctx, passwordResets, {
    user,
    page: 'reset-password',
    minutes: RESET_LINK_MINUTES,
    compose: (link) => ({
      subject: `Reset your ${siteName} password`,
      text:
        `Hello ${user.fullName},\n\nSomeone asked to reset the password of your ${siteName} account.\n` +
        `To choose a new password, open this link within ${RESET_LINK_MINUTES} minutes:\n\n${link}\n\n` +
        `If it was not you, ignore this mail; your password stays as it is.\n\n— ${siteName}\n`,
    }),
  });
}

/**
 * Uses a reset token once: sets the password and ends every session. The token is
 * claimed before the password is hashed, so a forged one costs an indexed look-up,
 * never the half second and 128 MiB of a hash. Answers the account with its new password.
 */
export async function resetPassword(ctx: Context, input: { token: string; password: string }): Promise<Pick<UserRow, 'id' | 'passwordHash'>> {
  const userId = await claimSingleUseLink(ctx, passwordResets, input.token);
  if (!userId) throw new AppError(400, messages.resetLinkInvalid);
  const passwordHash = await ctx.passwords.hash(input.password);
  await ctx.db.transaction((tx) => setPassword(tx, userId, passwordHash));
  return { id: userId, passwordHash };
}
