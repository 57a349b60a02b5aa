import { and, eq, gt, isNull } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { passwordResets, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { consume, isExhausted } from '../../rate-limit.ts';
import { createSession, hashToken, newToken, revokeAllSessions, type UserRow } from './sessions.ts';

const RESET_TOKEN_MINUTES = 15;

/**
 * Checks the password and opens a session. Every attempt counts against the
 * client's address; failures also count against the email, so one account
 * cannot be guessed at from many addresses.
 */
export async function logIn(
  ctx: Context,
  input: { email: string; password: string; ip: string },
): Promise<{ user: UserRow; session: { token: string; expiresAt: Date } }> {
  const { loginPerIp, loginFailuresPerEmail } = ctx.limits;
  if (!(await consume(loginPerIp, input.ip)) || (await isExhausted(loginFailuresPerEmail, input.email))) {
    throw new AppError(429, messages.tooManyLoginAttempts);
  }
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
  const valid = user
    ? await ctx.passwords.verify(input.password, user.passwordHash)
    : await ctx.passwords.verifyNothing(input.password);
  if (!user || !valid) {
    await consume(loginFailuresPerEmail, input.email);
    throw new AppError(401, messages.wrongCredentials);
  }
  await loginFailuresPerEmail.delete(input.email);
  return { user, session: await createSession(ctx, user.id) };
}

/** Changes the password and ends every session of the user; the caller gets a fresh one. */
export async function changePassword(
  ctx: Context,
  user: UserRow,
  input: { oldPassword: string; newPassword: string },
): Promise<{ token: string; expiresAt: Date }> {
  if (!(await ctx.passwords.verify(input.oldPassword, user.passwordHash))) {
    throw new AppError(400, messages.oldPasswordWrong);
  }
  const passwordHash = await ctx.passwords.hash(input.newPassword);
  await ctx.db.transaction((tx) => setPassword(tx, user.id, passwordHash));
  ctx.recentViewers.forgetUser(user.id);
  return createSession(ctx, user.id);
}

/** A new password ends every session, so a thief's stolen cookie stops working too (callers also forget them as recent viewers). */
async function setPassword(db: Db, userId: string, passwordHash: string) {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
  await revokeAllSessions(db, userId);
}

/**
 * Mails a single-use reset link when the email has an account. Answers the same
 * either way, so the form tells nobody which addresses are registered.
 */
export async function requestPasswordReset(ctx: Context, input: { email: string; ip: string }): Promise<void> {
  if (!(await consume(ctx.limits.resetPerIp, input.ip))) throw new AppError(429, messages.tooManyRequests);
  const [user] = await ctx.db.select().from(users).where(eq(users.email, input.email));
  // A quiet cap per address: no mail bombing, and no answer that differs.
  if (!user || !(await consume(ctx.limits.resetPerEmail, input.email))) return;
  const token = newToken();
  await ctx.db.insert(passwordResets).values({
    tokenHash: hashToken(token),
    userId: user.id,
    expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60 * 1000),
  });
  const link = `${ctx.config.publicUrl}/reset-password/${token}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Reset your LMS password',
    text:
      `Hello ${user.fullName},\n\nSomeone asked to reset the password of your LMS account.\n` +
      `To choose a new password, open this link within ${RESET_TOKEN_MINUTES} minutes:\n\n${link}\n\n` +
      'If it was not you, ignore this mail; your password stays as it is.\n',
  });
}

/** Uses a reset token once: sets the password and ends every session. */
export async function resetPassword(ctx: Context, input: { token: string; password: string }): Promise<void> {
  const passwordHash = await ctx.passwords.hash(input.password);
  const userId = await ctx.db.transaction(async (tx) => {
    // Marking the token used is the claim: of two concurrent uses only one gets the row back.
    const [claimed] = await tx
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordResets.tokenHash, hashToken(input.token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, new Date()),
      ),
    )
    .returning({ userId: passwordResets.userId });
    if (claimed) await setPassword(tx, claimed.userId, passwordHash);
    return claimed?.userId;
  });
  if (!userId) throw new AppError(400, messages.resetLinkInvalid);
  ctx.recentViewers.forgetUser(userId);
}
