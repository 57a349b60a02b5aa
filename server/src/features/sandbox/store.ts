import { eq } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sandboxPayments, sandboxPlans, sandboxSubscriptions } from '../../db/schema.ts';
import { idNotFound } from './errors.ts';
import { newId } from './ids.ts';
import { toSubscriptionEntity, type PaymentRow, type PlanRow, type SubscriptionRow } from './entities.ts';

/** Reading and writing the sandbox's rows the way every verb does: subscriptions under a row lock, payments once. */

/** The subscription and its plan; with `forUpdate`, locked until the transaction ends. */
export async function loadSubscription(db: Db, id: string, { forUpdate = false } = {}) {
  const query = db
    .select({ subscription: sandboxSubscriptions, plan: sandboxPlans })
    .from(sandboxSubscriptions)
    .innerJoin(sandboxPlans, eq(sandboxPlans.id, sandboxSubscriptions.planId))
    .where(eq(sandboxSubscriptions.id, id));
  const [found] = forUpdate ? await query.for('update', { of: sandboxSubscriptions }) : await query;
  if (!found) throw idNotFound();
  return found;
}

/** Changes a subscription under a row lock: `change` checks the status and answers the new values. */
export async function changeSubscription(
  ctx: Context,
  id: string,
  change: (found: { subscription: SubscriptionRow; plan: PlanRow }, tx: Db) => Promise<Partial<SubscriptionRow>>,
) {
  return ctx.db.transaction(async (tx) => {
    const found = await loadSubscription(tx, id, { forUpdate: true });
    const values = await change(found, tx);
    const [updated] = await tx
      .update(sandboxSubscriptions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(sandboxSubscriptions.id, id))
      .returning();
    const [plan] = updated!.planId === found.plan.id ? [found.plan] : await tx.select().from(sandboxPlans).where(eq(sandboxPlans.id, updated!.planId));
    return toSubscriptionEntity(updated!, plan!, ctx.config.publicUrl);
  });
}

export async function insertPayment(
  db: Db,
  subscription: SubscriptionRow,
  plan: PlanRow,
  createdAt: Date,
  outcome:
    { status: 'captured' } | { status: 'refunded'; amount: number; amountRefunded: number } | { status: 'failed'; errorCode: string; errorDescription: string },
): Promise<PaymentRow> {
  const [payment] = await db
    .insert(sandboxPayments)
    .values({
      id: newId('pay'),
      subscriptionId: subscription.id,
      amount: plan.amount,
      currency: plan.currency,
      tokenId: subscription.tokenId,
      createdAt,
      ...outcome,
    })
    .returning();
  return payment!;
}
