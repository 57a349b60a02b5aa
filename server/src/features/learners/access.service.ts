import { and, eq, gt, isNull, lte } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { GrantAccess } from '@lms/contract/learners';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { accessGrants, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { recordAudit, type AuditActor } from '../audit/audit.ts';
import { formatIndiaDate } from '../billing/format.ts';
import { queueLifecycleMails, recordLifecycleMail } from '../billing/lifecycle-mail.ts';
import type { UserRow } from '../auth/sessions.ts';

/**
 * Complimentary access: every course, as a subscription gives, without a payment, an invoice or a
 * provider's subscription (a scholarship, goodwill after a fault). One grant is in force at a time;
 * a new one replaces it. users.complimentaryUntil is the end of the grant in force, which is what
 * canWatchLectures compares with now: access stops at that moment whatever the expiry job does.
 *
 * Granting and revoking lock the learner's row first, so that two at once take turns: the last to
 * commit is what stands, and the audit trail has both. Writing users also tells every instance to
 * drop its cached copy of the learner (changes.ts), so a revocation holds at once everywhere.
 */

const DAY_MS = 24 * 3600 * 1000;

/** The last moment of `date` (YYYY-MM-DD) on India's clock. */
export function endOfIndiaDay(date: string): Date {
  return new Date(new Date(`${date}T00:00:00.000+05:30`).getTime() + DAY_MS - 1);
}

const userTarget = (user: Pick<UserRow, 'id' | 'fullName' | 'email'>) => ({ type: 'user' as const, id: user.id, label: `${user.fullName} <${user.email}>` });

/** The learner's row, locked until the transaction ends; 404 when there is none. */
async function lockLearner(tx: Db, userId: string): Promise<UserRow> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
  if (!user) throw new AppError(404, answers.notFound);
  return user;
}

/** Grants complimentary access for some days from now, or until the end of a date; answers its end. */
export async function grantAccess(ctx: Context, admin: UserRow, userId: string, input: GrantAccess): Promise<Date> {
  const now = new Date();
  const endsAt = input.days !== undefined ? new Date(now.getTime() + input.days * DAY_MS) : endOfIndiaDay(input.until!);
  if (endsAt <= now) throw new AppError(400, answers.grantUntilPast);
  const until = formatIndiaDate(endsAt);
  const mailId = await ctx.db.transaction(async (tx) => {
    const user = await lockLearner(tx, userId);
    if (user.role === 'ADMIN') throw new AppError(409, answers.grantToAdmin);
    if (user.suspendedAt) throw new AppError(409, answers.grantToSuspended);
    const replaced = await tx
      .update(accessGrants)
      .set({ endedAt: now })
      .where(and(eq(accessGrants.userId, userId), isNull(accessGrants.endedAt)))
      .returning({ id: accessGrants.id });
    const [grant] = await tx
      .insert(accessGrants)
      .values({ userId, startsAt: now, endsAt, note: input.note, grantedById: admin.id, grantedByName: admin.fullName })
      .returning();
    await tx.update(users).set({ complimentaryUntil: endsAt, updatedAt: now }).where(eq(users.id, userId));
    await recordAudit(tx, {
      actor: admin,
      action: 'learners.grantAccess',
      target: userTarget(user),
      reason: input.note,
      summary: input.days !== undefined ? `${input.days} ${input.days === 1 ? 'day' : 'days'}, until ${until}` : `Until ${until}`,
      details: { grantId: grant!.id, endsAt: endsAt.toISOString(), ...(replaced.length > 0 && { replaced: replaced.map((row) => row.id) }) },
    });
    return recordLifecycleMail(tx, { key: `access_granted:${grant!.id}`, kind: 'access_granted', userId, data: { until: endsAt.toISOString() } });
  });
  await queueLifecycleMails(ctx, [mailId]);
  return endsAt;
}

/** Ends the learner's complimentary access now; 409 when none is in force. */
export async function revokeAccess(ctx: Context, admin: UserRow, userId: string, input: { note: string }): Promise<void> {
  const mailId = await ctx.db.transaction(async (tx) => {
    const user = await lockLearner(tx, userId);
    const now = new Date();
    const [grant] = await tx
      .update(accessGrants)
      // A grant past its end is the expiry job's to close: there is nothing left to revoke.
      .set({ revokedAt: now, revokedById: admin.id, revokedByName: admin.fullName, revokeNote: input.note, endedAt: now })
      .where(and(eq(accessGrants.userId, userId), isNull(accessGrants.endedAt), gt(accessGrants.endsAt, now)))
      .returning();
    if (!grant) throw new AppError(409, answers.noAccessToRevoke);
    await tx.update(users).set({ complimentaryUntil: null, updatedAt: now }).where(eq(users.id, userId));
    await recordAudit(tx, {
      actor: admin,
      action: 'learners.revokeAccess',
      target: userTarget(user),
      reason: input.note,
      summary: `Ended access granted until ${formatIndiaDate(grant.endsAt)}`,
      details: { grantId: grant.id, endsAt: grant.endsAt.toISOString() },
    });
    return recordLifecycleMail(tx, { key: `access_revoked:${grant.id}`, kind: 'access_revoked', userId, data: { until: grant.endsAt.toISOString() } });
  });
  await queueLifecycleMails(ctx, [mailId]);
}

/**
 * The `complimentary-expiry` job, every minute: closes the grants whose end has passed. The
 * learner lost access at that moment already; this records it, clears users.complimentaryUntil
 * (only if it is still this grant's end: a newer grant stands) and mails them. Each grant is closed
 * by one update that claims it, so two instances running this close it once.
 */
export async function expireGrants(ctx: Context, now = new Date()): Promise<number> {
  const due = await ctx.db
    .select({ id: accessGrants.id })
    .from(accessGrants)
    .where(and(isNull(accessGrants.endedAt), lte(accessGrants.endsAt, now)))
    .limit(500);
  const mailIds: (string | null)[] = [];
  for (const { id } of due) mailIds.push(await expireGrant(ctx, id, now));
  await queueLifecycleMails(ctx, mailIds);
  return mailIds.length;
}

async function expireGrant(ctx: Context, grantId: string, now: Date): Promise<string | null> {
  const actor: AuditActor = null;
  return ctx.db.transaction(async (tx) => {
    const [grant] = await tx
      .update(accessGrants)
      .set({ endedAt: now })
      .where(and(eq(accessGrants.id, grantId), isNull(accessGrants.endedAt), lte(accessGrants.endsAt, now)))
      .returning();
    if (!grant) return null;
    await tx
      .update(users)
      .set({ complimentaryUntil: null, updatedAt: now })
      .where(and(eq(users.id, grant.userId), eq(users.complimentaryUntil, grant.endsAt)));
    // The grant's row goes with its account (cascade), so the account is there.
    const [learner] = await tx.select().from(users).where(eq(users.id, grant.userId));
    await recordAudit(tx, {
      actor,
      action: 'access.expire',
      target: userTarget(learner!),
      summary: `Access granted until ${formatIndiaDate(grant.endsAt)} ended`,
      details: { grantId: grant.id, endsAt: grant.endsAt.toISOString() },
    });
    return recordLifecycleMail(tx, {
      key: `access_expired:${grant.id}`,
      kind: 'access_expired',
      userId: grant.userId,
      data: { until: grant.endsAt.toISOString() },
    });
  });
}
