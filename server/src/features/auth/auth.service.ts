import { and, eq, gt, isNull } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { forgetInitialAdminPassword } from '../../cli/initial-admin.ts';
import { queueMail } from '../../mail.ts';
import { consume, isExhausted, loginKey } from '../../rate-limit.ts';
import { createSession, hashToken, newToken, revokeAllSessions, type UserRow } from './sessions.ts';

const RESET_TOKEN_MINUTES = 15;

/**
 * Checks the password and opens a session. Every attempt counts against the client's
 * address. Failures count against the email from that address, which is the lock: a
 * stranger's guesses from elsewhere cannot lock the owner out. They also count against
 * the email from everywhere, a far higher ceiling on guessing from many addresses.
 */
export async function logIn(
  ctx: Context,
  input: { email: string; password: string; ip: string },
): Promise<{ user: UserRow; session: { token: string; expiresAt: Date } }> {
  const { loginPerIp, loginFailuresPerEmailAndIp, loginFailuresPerEmail } = ctx.limits;
  const fromHere = loginKey(input.email, input.ip);
  if (
    !(await consume(loginPerIp, input.ip)) ||
    (await isExhausted(loginFailuresPerEmailAndIp, fromHere)) ||
    (await isExhausted(loginFailuresPerEmail, input.email))
  ) {
    throw new AppError(429, answers.tooManyLoginAttempts);
  }
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
  const valid = user
    ? await ctx.passwords.verify(input.password, user.passwordHash)
    : await ctx.passwords.verifyNothing(input.password);
  if (!user || !valid) {
    await Promise.all([consume(loginFailuresPerEmailAndIp, fromHere), consume(loginFailuresPerEmail, input.email)]);
    throw new AppError(401, answers.wrongCredentials);
  }
  await loginFailuresPerEmailAndIp.delete(fromHere);
  return { user, session: await createSession(ctx, user.id) };
}

/** Changes the password and ends every session of the user; the caller gets a fresh one. */
export async function changePassword(
  ctx: Context,
  user: UserRow,
  input: { oldPassword: string; newPassword: string },
): Promise<{ token: string; expiresAt: Date }> {
  if (!(await consume(ctx.limits.passwordChangePerUser, user.id))) throw new AppError(429, answers.tooManyRequests);
  if (!(await ctx.passwords.verify(input.oldPassword, user.passwordHash))) {
    throw new AppError(400, answers.oldPasswordWrong);
  }
  const passwordHash = await ctx.passwords.hash(input.newPassword);
  await ctx.db.transaction((tx) => setPassword(tx, user.id, passwordHash));
  if (user.mustChangePassword) await forgetInitialAdminPassword(ctx);
  return createSession(ctx, user.id);
}

/**
 * A new password ends every session, so a thief's stolen cookie stops working too, and
 * voids every reset link still out, so an old mail cannot undo it.
 */
async function setPassword(db: Db, userId: string, passwordHash: string) {
  const now = new Date();
  await db.update(users).set({ passwordHash, mustChangePassword: false, updatedAt: now }).where(eq(users.id, userId));
  await db.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
  await revokeAllSessions(db, userId);
}

/**
 * Asks for a reset link. The request does the same work for any email (two counters and
 * one queued job) and so answers in the same time; the job finds out whether the email
 * has an account, and mails the link only if it has.
 */
export async function requestPasswordReset(ctx: Context, input: { email: string; ip: string }): Promise<void> {
  if (!(await consume(ctx.limits.resetPerIp, input.ip))) throw new AppError(429, answers.tooManyRequests);
  // A quiet cap per address: no mail bombing, and no answer that differs.
  if (!(await consume(ctx.limits.resetPerEmail, input.email))) return;
  await ctx.jobs.send('password-reset', { email: input.email });
}

/** The `password-reset` job: a single-use link, mailed when the email has an account. */
export async function mailPasswordReset(ctx: Context, input: { email: string }): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
  if (!user) return;
  const token = newToken();
  await ctx.db.insert(passwordResets).values({
    tokenHash: hashToken(token),
    userId: user.id,
    expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60 * 1000),
  });
  const link = `${ctx.config.publicUrl}/reset-password/${token}`;
  await queueMail(ctx, {
    to: user.email,
    subject: 'Reset your LMS password',
    text:
      `Hello ${user.fullName},\n\nSomeone asked to reset the password of your LMS account.\n` +
      `To choose a new password, open this link within ${RESET_TOKEN_MINUTES} minutes:\n\n${link}\n\n` +
      'If it was not you, ignore this mail; your password stays as it is.\n',
  });
}

/**
 * Uses a reset token once: sets the password and ends every session. The token is
 * claimed before the password is hashed, so a forged one costs an indexed look-up,
 * never the half second and 128 MiB of a hash.
 */
export async function resetPassword(ctx: Context, input: { token: string; password: string; ip: string }): Promise<void> {
  if (!(await consume(ctx.limits.resetTokenPerIp, input.ip))) throw new AppError(429, answers.tooManyRequests);
  // Marking the token used is the claim: of two concurrent uses only one gets the row back.
  const [claimed] = await ctx.db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(
      and(eq(passwordResets.tokenHash, hashToken(input.token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())),
    )
    .returning({ userId: passwordResets.userId });
  if (!claimed) throw new AppError(400, messages.resetLinkInvalid);
  const passwordHash = await ctx.passwords.hash(input.password);
  await ctx.db.transaction((tx) => setPassword(tx, claimed.userId, passwordHash));
}
