import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import type { SignedInSession } from './session-cache.ts';

export const SESSION_COOKIE = 'lms_session';

/** Tokens are random; the database keeps only their SHA-256, so a leaked table opens no session. */
export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type UserRow = typeof users.$inferSelect;

export async function createSession(ctx: Context, userId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + ctx.config.sessionDays * 24 * 60 * 60 * 1000);
  await ctx.db.insert(sessions).values({ tokenHash: hashToken(token), userId, expiresAt });
  // Housekeeping: a user's expired sessions go when they next log in.
  await ctx.db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date())));
  return { token, expiresAt };
}

/** The session and its user, from this instance's cache (session-cache.ts) when it is there. */
export async function findSession(ctx: Context, token: string): Promise<SignedInSession | undefined> {
  const tokenHash = hashToken(token);
  const cached = ctx.sessions.sessionOf(tokenHash);
  if (cached) return cached;
  const keep = ctx.sessions.beginRead();
  const [row] = await ctx.db
    .select({ user: users, id: sessions.id, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date())));
  if (!row) return undefined;
  const session = { id: row.id, user: row.user };
  keep(tokenHash, session, row.expiresAt);
  return session;
}

/** Ends the session; every instance's cache hears it from the database (changes.ts). */
export async function revokeSession(ctx: Context, token: string): Promise<void> {
  const tokenHash = hashToken(token);
  await ctx.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  // The spec logs out with a GET, which the write barrier of caught-up.ts does not wait on: forgotten here at once too.
  ctx.sessions.forgetSession(tokenHash);
}

export async function revokeAllSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: { token: string; expiresAt: Date }) {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https' });
}
