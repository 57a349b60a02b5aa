import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { passwordResets, signInLinks } from '../../db/schema.ts';
import type { Mail } from '../../mail.ts';
import { hashToken, newToken, type UserRow } from './sessions.ts';

/** The links mailed to open an account: a password reset, a one-time sign-in. */
type LinkTable = typeof passwordResets | typeof signInLinks;

/**
 * Mails `user` a single-use link to `${PUBLIC_URL}/<page>/<token>`, valid for `minutes`. The token
 * exists only in the mail: the table keeps its hash, and the mail is sent here, by the job that
 * made it, never queued as a `mail` job (whose data a table, the write-ahead log and a backup
 * would keep). When sending fails the row goes again, so that the job's retry mails a fresh link
 * and no live one is left that nobody received.
 */
export async function mailSingleUseLink(
  ctx: Pick<Context, 'db' | 'mailer' | 'config'>,
  table: LinkTable,
  { user, page, minutes, compose }: { user: UserRow; page: string; minutes: number; compose: (link: string) => Omit<Mail, 'to'> },
): Promise<void> {
  const token = newToken();
  const tokenHash = hashToken(token);
  await ctx.db.insert(table).values({ tokenHash, userId: user.id, expiresAt: new Date(Date.now() + minutes * 60 * 1000) });
  try {
    await ctx.mailer.send({ to: user.email, ...compose(`${ctx.config.publicUrl}/${page}/${token}`) });
  } catch (error) {
    await ctx.db.delete(table).where(eq(table.tokenHash, tokenHash));
    throw error;
  }
}

/**
 * Uses a mailed link once: marking it used is the claim, so of two concurrent uses only one
 * gets the user's id back. Undefined for an unknown, used or expired token.
 */
export async function claimSingleUseLink(ctx: Pick<Context, 'db'>, table: LinkTable, token: string): Promise<string | undefined> {
  const [claimed] = await ctx.db
    .update(table)
    .set({ usedAt: new Date() })
    .where(and(eq(table.tokenHash, hashToken(token)), isNull(table.usedAt), gt(table.expiresAt, new Date())))
    .returning({ userId: table.userId });
  return claimed?.userId;
}
