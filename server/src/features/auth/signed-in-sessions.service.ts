import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, gt, ne, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { AccountSummary, SignedInSession } from '@lms/contract/protection';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/audit.ts';
import { queueLifecycleMails, recordLifecycleMail } from '../billing/lifecycle-mail.ts';
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

const userTarget = (user: Pick<UserRow, 'id' | 'fullName' | 'email'>) => ({ type: 'user' as const, id: user.id, label: `${user.fullName} <${user.email}>` });

/** An administrator ends every session of an account; answers how many ended. Audited with the ending. */
export async function endAccountSessions(ctx: Context, admin: UserRow, userId: string): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError(404, answers.notFound);
    const ended = await revokeAllSessions(tx, userId);
    await recordAudit(tx, {
      actor: admin,
      action: 'protection.endSessions',
      target: userTarget(user),
      summary: `Ended ${ended} ${ended === 1 ? 'session' : 'sessions'}`,
      details: { ended },
    });
    return ended;
  });
}

/**
 * Suspends an account or restores it. Suspended, it cannot sign in (createSession refuses it),
 * and its sessions end with their playbacks, in the transaction that marks it. Restoring it
 * gives nothing back: its owner signs in again. An administrator cannot suspend themself,
 * which would lock them out of restoring it. The reason is kept with the account, mailed to its
 * owner (through the queue) and written to the audit trail, with the change.
 */
export async function setSuspension(
  ctx: Context,
  admin: UserRow,
  userId: string,
  { suspended, reason }: { suspended: boolean; reason?: string | undefined },
): Promise<AccountSummary> {
  if (userId === admin.id && suspended) throw new AppError(400, answers.cannotSuspendSelf);
  const { account, mailId } = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!before) throw new AppError(404, answers.notFound);
    const [user] = await tx
      .update(users)
      // Suspended again, it keeps the time it was first suspended, and takes the latest reason.
      .set({
        suspendedAt: suspended ? sql`coalesce(${users.suspendedAt}, now())` : null,
        suspensionReason: suspended ? reason! : null,
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId))
      .returning();
    if (suspended) await revokeAllSessions(tx, userId);
    await recordAudit(tx, {
      actor: admin,
      action: suspended ? 'protection.suspend' : 'protection.restore',
      target: userTarget(user!),
      reason: reason || null,
      summary: suspended
        ? before.suspendedAt
          ? 'Suspended again, with a new reason'
          : 'Suspended; every session ended'
        : before.suspendedAt
          ? 'Restored'
          : 'Restored (it was not suspended)',
    });
    // Mailed when the state changes, and when the reason given to the learner does.
    const changed = suspended ? before.suspendedAt === null || before.suspensionReason !== reason : before.suspendedAt !== null;
    const mailId = changed
      ? await recordLifecycleMail(tx, {
          key: `${suspended ? 'account_suspended' : 'account_restored'}:${randomUUID()}`,
          kind: suspended ? 'account_suspended' : 'account_restored',
          userId,
          data: suspended ? { reason: reason! } : {},
        })
      : null;
    return { account: await accountSummaryOf(tx, user!), mailId };
  });
  await queueLifecycleMails(ctx, [mailId]);
  return account;
}
