import { and, count, desc, eq, gt, ne, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { AccountSummary, SignedInSession } from '@lms/contract/protection';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { describeDevice, LOCAL_NETWORK } from '../protection/devices.ts';
import { endSessions } from './end-sessions.ts';
import { revokeAllSessions, type UserRow } from './sessions.ts';

/**
 * The account's signed-in sessions (every browser signed in to it), which its owner may end one
 * at a time or all but this one, and an administrator all at once or by suspending the account.
 * Ending a session stops its playbacks too (end-sessions.ts); its next request is logged out.
 */

const unexpired = () => gt(sessions.expiresAt, new Date());

/** The user's unexpired sessions, this one first, then the most recently used. */
export async function listSessions(ctx: Context, user: UserRow, currentId: string): Promise<SignedInSession[]> {
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), unexpired()))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  const now = new Date();
  return rows
    .map((row) => {
      const { browser, os, deviceType } = describeDevice(row.userAgent);
      const current = row.id === currentId;
      return {
        id: row.id,
        browser,
        os,
        deviceType,
        place: row.addressBlock ?? LOCAL_NETWORK,
        firstSeenAt: row.createdAt.toISOString(),
        // Its last sight is written every few minutes; this one is being seen now.
        lastSeenAt: (current ? now : row.lastSeenAt).toISOString(),
        current,
      };
    })
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends one of the user's own sessions; another's, or none, is 404 alike. Answers whether it was this one. */
export async function signOutSession(ctx: Context, user: UserRow, sessionId: string, currentId: string): Promise<{ current: boolean }> {
  const ended = await endSessions(ctx.db, and(eq(sessions.id, sessionId), eq(sessions.userId, user.id))!);
  if (ended.length === 0) throw new AppError(404, answers.notFound);
  return { current: sessionId === currentId };
}

/** Ends every session of the user but this one; answers how many ended. */
export async function signOutOtherSessions(ctx: Context, user: UserRow, currentId: string): Promise<number> {
  return (await endSessions(ctx.db, and(eq(sessions.userId, user.id), ne(sessions.id, currentId))!)).length;
}

/** The account as an administrator's pages show it, with its signed-in sessions now. */
export async function accountSummaryOf(db: Db, user: Pick<UserRow, 'id' | 'fullName' | 'email' | 'role' | 'suspendedAt'>): Promise<AccountSummary> {
  const [row] = await db
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), unexpired()));
  return { _id: user.id, fullName: user.fullName, email: user.email, role: user.role, suspended: user.suspendedAt !== null, activeSessions: row!.n };
}

/** An administrator ends every session of an account; answers how many ended. */
export async function endAccountSessions(ctx: Context, userId: string): Promise<number> {
  const [user] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) throw new AppError(404, answers.notFound);
  return revokeAllSessions(ctx.db, userId);
}

/**
 * Suspends an account or restores it. Suspended, it cannot sign in (createSession refuses it),
 * and its sessions end with their playbacks, in the transaction that marks it. Restoring it
 * gives nothing back: its owner signs in again. An administrator cannot suspend themself,
 * which would lock them out of restoring it.
 */
export async function setSuspension(ctx: Context, admin: UserRow, userId: string, suspended: boolean): Promise<AccountSummary> {
  if (userId === admin.id && suspended) throw new AppError(400, answers.cannotSuspendSelf);
  return ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      // Suspended again, it keeps the time it was first suspended.
      .set({ suspendedAt: suspended ? sql`coalesce(${users.suspendedAt}, now())` : null, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw new AppError(404, answers.notFound);
    if (suspended) await revokeAllSessions(tx, userId);
    return accountSummaryOf(tx, user);
  });
}
