import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { emailChanges, passwordResets, signInLinks, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { hashToken, newToken, revokeAllSessions, type UserRow } from '../auth/sessions.ts';
import { queueLifecycleMails, recordLifecycleMail } from '../billing/lifecycle-mail.ts';
import { siteOf } from '../settings/site-settings.ts';

/**
 * An administrator changes a learner's email: nothing changes until the new address proves it is
 * read. The `email-change` job makes a single-use link (kept hashed, as reset links are, and made
 * in the job so that no job's data holds it) and mails it to the new address; the old address is
 * told at once. Opening the link sets the email and ends every session of the account, whose
 * owner then logs in with the new address.
 */

export const EMAIL_CHANGE_LINK_HOURS = 24;

const userTarget = (user: Pick<UserRow, 'id' | 'fullName' | 'email'>) => ({ type: 'user' as const, id: user.id, label: `${user.fullName} <${user.email}>` });

/** Asks for the change; answers the new address the link is mailed to. */
export async function changeEmail(ctx: Context, admin: UserRow, userId: string, input: { email: string; note: string }): Promise<string> {
  const mailId = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new AppError(404, answers.notFound);
    if (user.email === input.email) throw new AppError(400, answers.emailChangeSame);
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, input.email), ne(users.id, userId)));
    if (taken) throw new AppError(409, answers.emailTaken);
    await recordAudit(tx, {
      actor: admin,
      action: 'learners.changeEmail',
      target: userTarget(user),
      reason: input.note,
      summary: `${user.email} → ${input.email}, waiting for confirmation`,
      details: { from: user.email, to: input.email },
    });
    return recordLifecycleMail(tx, {
      key: `email_change_asked:${randomUUID()}`,
      kind: 'email_change_asked',
      userId,
      data: { oldEmail: user.email, newEmail: input.email },
    });
  });
  await queueLifecycleMails(ctx, [mailId]);
  await ctx.jobs.send('email-change', { userId, newEmail: input.email, requestedById: admin.id });
  return input.email;
}

/**
 * The `email-change` job: a link valid for a day, mailed to the new address. Any earlier link of
 * the account stops working: only the latest change asked for can be confirmed. When sending
 * fails the row goes again, so the job's retry mails a fresh link and none is left that nobody got.
 */
export async function mailEmailChangeLink(ctx: Context, job: { userId: string; newEmail: string; requestedById: string }): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, job.userId));
  if (!user || user.email === job.newEmail) return;
  const token = newToken();
  const tokenHash = hashToken(token);
  const now = new Date();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(emailChanges)
      .set({ usedAt: now })
      .where(and(eq(emailChanges.userId, user.id), isNull(emailChanges.usedAt)));
    await tx.insert(emailChanges).values({
      tokenHash,
      userId: user.id,
      newEmail: job.newEmail,
      requestedById: job.requestedById,
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_LINK_HOURS * 3600 * 1000),
    });
  });
  const { name: siteName } = await siteOf(ctx);
  const link = `${ctx.config.publicUrl}/confirm-email/${token}`;
  try {
    await ctx.mailer.send({
      to: job.newEmail,
      subject: `Confirm your new ${siteName} email`,
      text:
        `Hello ${user.fullName},\n\nThe email of your ${siteName} account is to change to this address.\n` +
        `To confirm it, open this link within ${EMAIL_CHANGE_LINK_HOURS} hours:\n\n${link}\n\n` +
        `Once it is confirmed, log in with this address; every device signed in to the account is signed out.\n` +
        `If you did not expect this, ignore this mail: nothing changes.\n\n— ${siteName}\n`,
    });
  } catch (error) {
    await ctx.db.delete(emailChanges).where(eq(emailChanges.tokenHash, tokenHash));
    throw error;
  }
}

/**
 * Opens the link: the account's email becomes the new address, every session of the account ends,
 * and links mailed to the old address (password resets, sign-in links) stop working. 400 for an
 * unknown, used or expired link; 409 when another account took the address meanwhile.
 */
export async function confirmEmailChange(ctx: Context, token: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const [change] = await tx
      .update(emailChanges)
      .set({ usedAt: now })
      .where(and(eq(emailChanges.tokenHash, hashToken(token)), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)))
      .returning();
    if (!change) throw new AppError(400, answers.emailChangeLinkInvalid);
    const [user] = await tx.select().from(users).where(eq(users.id, change.userId)).for('update');
    if (!user) throw new AppError(400, answers.emailChangeLinkInvalid);
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, change.newEmail), ne(users.id, user.id)));
    if (taken) throw new AppError(409, answers.emailTaken);
    try {
      // Two accounts moving to one address at once: the database decides.
      await tx.update(users).set({ email: change.newEmail, updatedAt: now }).where(eq(users.id, user.id));
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, answers.emailTaken);
      throw error;
    }
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await tx
      .update(signInLinks)
      .set({ usedAt: now })
      .where(and(eq(signInLinks.userId, user.id), isNull(signInLinks.usedAt)));
    const ended = await revokeAllSessions(tx, user.id);
    await recordAudit(tx, {
      actor: null,
      action: 'email.confirm',
      target: { type: 'user', id: user.id, label: `${user.fullName} <${change.newEmail}>` },
      summary: `${user.email} → ${change.newEmail}; ${ended} ${ended === 1 ? 'session' : 'sessions'} ended`,
      details: { from: user.email, to: change.newEmail },
    });
  });
}
