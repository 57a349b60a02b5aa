import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { answers } from '@lms/contract/answers';
import { batchLoaderPer } from '../../batch-loader.ts';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { addressBlockOf, USER_AGENT_MAX } from '../protection/devices.ts';
import { protectionOf } from '../settings/site-settings.ts';
import { endSessionsPastCap, queueDevicesSignedOutMail } from './device-cap.ts';
import { endSessions } from './end-sessions.ts';
import { noteSignIn } from './last-sight.ts';
import type { SignedInSession } from './session-cache.ts';

export const SESSION_COOKIE = 'lms_session';

/** Tokens are random; the database keeps only their SHA-256, so a leaked table opens no session. */
export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type UserRow = typeof users.$inferSelect;

/** Where a sign-in comes from: what the list of devices shows of it, and where to log a mail that could not be queued. */
export interface SignInClient {
  userAgent: string | undefined;
  ip: string;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** The client of a request, as createSession records it. */
export const clientOf = (request: FastifyRequest): SignInClient => ({ userAgent: request.headers['user-agent'], ip: request.ip, log: request.log });

/**
 * Opens a session for the user, recording the browser and address block it signs in from. A
 * suspended account gets none (403): every way of signing in comes here. The user's row is
 * locked while the session is written, so a suspension (which updates that row, then ends the
 * account's sessions) either sees the new session and ends it or makes this refuse, and two
 * sign-ins at once count each other against the cap on devices.
 */
export async function createSession(ctx: Context, userId: string, client: SignInClient): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + ctx.config.sessionDays * 24 * 60 * 60 * 1000);
  const { maxDevices } = await protectionOf(ctx);
  const userAgent = client.userAgent?.slice(0, USER_AGENT_MAX) || null;
  const addressBlock = addressBlockOf(client.ip);
  const { id, user, signedOut } = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new AppError(401, answers.notLoggedIn);
    if (user.suspendedAt) throw new AppError(403, answers.accountSuspended);
    const [created] = await tx
      .insert(sessions)
      .values({ tokenHash: hashToken(token), userId, expiresAt, userAgent, addressBlock })
      .returning({ id: sessions.id });
    // Housekeeping: a user's expired sessions go when they next sign in.
    await endSessions(tx, and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date()))!);
    const signedOut = await endSessionsPastCap(tx, { user, sessionId: created!.id, maxDevices });
    return { id: created!.id, user, signedOut };
  });
  noteSignIn(ctx, id, client.log);
  if (signedOut.length > 0) {
    try {
      await queueDevicesSignedOutMail(ctx, { user, signedOut, newDevice: { userAgent, addressBlock }, maxDevices });
    } catch (error) {
      client.log.error({ err: error, userId }, 'sessions past the cap on devices ended but the mail telling the learner not queued');
    }
  }
  return { token, expiresAt };
}

/** Sessions not in the cache, read together (batch-loader.ts): after the cache's time limit, every viewer's next request reads. */
const sessionReadsOf = batchLoaderPer((ctx: Context, tokenHashes: string[]) => readSessions(ctx, tokenHashes));

/** The live sessions of these token hashes, with their users, kept in the cache as they are found. */
async function readSessions(ctx: Context, tokenHashes: string[]): Promise<Map<string, SignedInSession>> {
  const keep = ctx.sessions.beginRead();
  const rows = await ctx.db
    .select({ user: users, id: sessions.id, expiresAt: sessions.expiresAt, tokenHash: sessions.tokenHash })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(inArray(sessions.tokenHash, tokenHashes), gt(sessions.expiresAt, new Date())));
  const found = new Map<string, SignedInSession>();
  for (const row of rows) {
    // A suspension ends the account's sessions in the same transaction; this only guards against a row written around it.
    if (row.user.suspendedAt) continue;
    const session = { id: row.id, user: row.user };
    keep(row.tokenHash, session, row.expiresAt);
    found.set(row.tokenHash, session);
  }
  return found;
}

/** The session and its user, from this instance's cache (session-cache.ts) when it is there. */
export async function findSession(ctx: Context, token: string): Promise<SignedInSession | undefined> {
  const tokenHash = hashToken(token);
  return ctx.sessions.sessionOf(tokenHash) ?? (await sessionReadsOf(ctx).load(tokenHash));
}

/** Ends the session of this cookie (logging out), and its playbacks. */
export async function revokeSession(ctx: Context, token: string): Promise<void> {
  const tokenHash = hashToken(token);
  await endSessions(ctx.db, eq(sessions.tokenHash, tokenHash));
  // The spec logs out with a GET, which the write barrier of caught-up.ts does not wait on: forgotten here at once too.
  ctx.sessions.forgetSession(tokenHash);
}

/** Ends every session of the user (a new password, a suspension), and their playbacks; answers how many ended. */
export async function revokeAllSessions(db: Db, userId: string): Promise<number> {
  return (await endSessions(db, eq(sessions.userId, userId))).length;
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
