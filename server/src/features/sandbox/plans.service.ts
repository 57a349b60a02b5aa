import { z } from 'zod';
import type { Context } from '../../context.ts';
import { sandboxPlans } from '../../db/schema.ts';
import { toPlanEntity, type PlanEntity } from './entities.ts';
import { newId } from './ids.ts';
import { required, wholeNumber } from './inputs.ts';

/** Razorpay's plans: a price and a billing cycle, which subscriptions are made on. */

export const CreatePlanSchema = z.object({
  period: z.enum(['daily', 'weekly', 'monthly', 'yearly'], { error: 'The period must be one of daily, weekly, monthly or yearly.' }),
  interval: wholeNumber('interval').min(1, 'The interval must be at least 1.'),
  item: z.object(
    {
      name: z.string(required('name')).trim().min(1, 'The name field is required.').max(255),
      amount: wholeNumber('amount').min(100, 'The amount must be at least INR 1.00.'),
      currency: z.literal('INR', { error: 'The sandbox accepts INR only.' }),
    },
    required('item'),
  ),
});
export type CreatePlan = z.infer<typeof CreatePlanSchema>;

export async function createPlan(ctx: Context, input: CreatePlan): Promise<PlanEntity> {
  const [plan] = await ctx.db
    .insert(sandboxPlans)
    .values({
      id: newId('plan'),
      period: input.period,
      interval: input.interval,
      itemName: input.item.name,
      amount: input.item.amount,
      currency: input.item.currency,
    })
    .returning();
  return toPlanEntity(plan!);
}
