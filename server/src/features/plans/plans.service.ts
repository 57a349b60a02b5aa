import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { MAX_PRICE, type AdminPlan, type Plan, type PlanInput, type PlanInterval, type PlanUpdate } from '@lms/contract/plans';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { planPrices, plans, subscriptions } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { RuntimeConfig } from '../../secrets.ts';

/*
 * The plans sold (decision 0017). A plan's price lives in `plan_prices`, a row per price
 * it has had: a new price is a new row, and each subscription keeps the row it was bought at, so a
 * subscriber's charge never changes when the seller changes a price. The spec's bundle is the
 * default plan: monthly, made on first start from SUBSCRIPTION_PRICE, never archived.
 */

export type PlanRow = typeof plans.$inferSelect;
export type PlanPriceRow = typeof planPrices.$inferSelect;
/** A plan with its current price. */
export interface PricedPlan {
  plan: PlanRow;
  price: PlanPriceRow;
}

/** The spec's bundle card's title: the default plan's one name, on the storefront, the admin's pages and the invoices. */
export const DEFAULT_PLAN_NAME = messages.bundleTitle;

/**
 * What a charge takes for a price as the seller enters it: GST added when prices exclude it. Only
 * the environment's GSTIN decides this (config.payments.pricesAddTax), never the dashboard's: a
 * GSTIN saved in the settings makes the documents tax invoices, with prices read as including GST,
 * but does not change what any plan charges.
 */
export const chargeFor = (config: RuntimeConfig, listPricePaise: number) =>
  config.payments.pricesAddTax ? Math.round(listPricePaise * (1 + config.seller.gstRate / 100)) : listPricePaise;

export const intervalOf = (plan: Pick<PlanRow, 'interval'>) => plan.interval as PlanInterval;

/**
 * Makes the default plan on the first start (SUBSCRIPTION_PRICE; several instances starting at once
 * make one), and gives subscriptions from before plans existed their plan and price.
 */
export async function ensureDefaultPlan(ctx: Pick<Context, 'db' | 'config'>): Promise<void> {
  let [existing] = await ctx.db.select().from(plans).where(eq(plans.isDefault, true));
  if (!existing) {
    await ctx.db.transaction(async (tx) => {
      const [made] = await tx.insert(plans).values({ name: DEFAULT_PLAN_NAME, interval: 'monthly', isDefault: true }).onConflictDoNothing().returning();
      if (made)
        await tx
          .insert(planPrices)
          .values({ planId: made.id, listPricePaise: ctx.config.payments.listPricePaise, amountPaise: ctx.config.payments.pricePaise });
    });
    [existing] = await ctx.db.select().from(plans).where(eq(plans.isDefault, true));
  }
  // Databases from before it had one name (it was made as "Monthly"): the same name everywhere.
  if (existing!.name !== DEFAULT_PLAN_NAME) await ctx.db.update(plans).set({ name: DEFAULT_PLAN_NAME }).where(eq(plans.id, existing!.id));
  const price = await currentPrice(ctx.db, existing!.id);
  // Subscriptions made before plans: the bundle, at what their provider plan charges.
  await ctx.db.execute(sql`
    update subscriptions set plan_id = ${existing!.id}, plan_price_id = ${price.id},
      next_charge_paise = coalesce((select amount_paise from payment_plans where provider_plan_id = subscriptions.provider_plan_id limit 1), ${price.amountPaise}),
      monthly_value_paise = coalesce((select amount_paise from payment_plans where provider_plan_id = subscriptions.provider_plan_id limit 1), ${price.amountPaise})
    where plan_id is null`);
}

async function currentPrice(db: Db, planId: string): Promise<PlanPriceRow> {
  const [price] = await db.select().from(planPrices).where(eq(planPrices.planId, planId)).orderBy(desc(planPrices.createdAt), desc(planPrices.id)).limit(1);
  if (!price) throw new Error(`plan ${planId} has no price`);
  return price;
}

/** Plans with their current prices, the default first, then monthly before yearly, then by price. */
async function priced(db: Db, rows: PlanRow[]): Promise<PricedPlan[]> {
  if (rows.length === 0) return [];
  const prices = await db
    .selectDistinctOn([planPrices.planId])
    .from(planPrices)
    .where(
      inArray(
        planPrices.planId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(planPrices.planId, desc(planPrices.createdAt), desc(planPrices.id));
  const byPlan = new Map(prices.map((price) => [price.planId, price]));
  const order = (entry: PricedPlan) => [entry.plan.isDefault ? 0 : 1, entry.plan.interval === 'monthly' ? 0 : 1, entry.price.amountPaise] as const;
  return rows
    .map((plan) => ({ plan, price: byPlan.get(plan.id)! }))
    .sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || a.plan.createdAt.getTime() - b.plan.createdAt.getTime();
    });
}

/** The plans on sale. */
export async function plansOnSale(ctx: Pick<Context, 'db'>): Promise<PricedPlan[]> {
  return priced(ctx.db, await ctx.db.select().from(plans).where(isNull(plans.archivedAt)));
}

/** The plan a buyer asked for (the default when none): 400 for one not on sale. */
export async function planOnSale(ctx: Pick<Context, 'db'>, planId?: string): Promise<PricedPlan> {
  const [plan] = await ctx.db
    .select()
    .from(plans)
    .where(and(planId ? eq(plans.id, planId) : eq(plans.isDefault, true), isNull(plans.archivedAt)));
  if (!plan) throw new AppError(400, messages.planNotFound);
  return { plan, price: await currentPrice(ctx.db, plan.id) };
}

/** A subscription's plan and the price version it was bought at. */
export async function planOfSubscription(db: Db, subscription: { planId: string | null; planPriceId: string | null }): Promise<PricedPlan> {
  const [row] = await db
    .select({ plan: plans, price: planPrices })
    .from(planPrices)
    .innerJoin(plans, eq(plans.id, planPrices.planId))
    .where(eq(planPrices.id, subscription.planPriceId!));
  if (!row) throw new Error(`no plan price ${subscription.planPriceId}`);
  return row;
}

export const planJson = ({ plan, price }: PricedPlan): Plan => ({
  id: plan.id,
  name: plan.name,
  interval: intervalOf(plan),
  price: price.amountPaise / 100,
  trialDays: plan.trialDays,
  default: plan.isDefault,
});

/** The default plan's price: the storefront's "₹99 per month". */
export async function defaultPlanPrice(ctx: Pick<Context, 'db'>): Promise<number> {
  return planJson(await planOnSale(ctx)).price;
}

// ── The admin's plans ──────────────────────────────────────────────────────

/** Subscriptions that count as a plan's subscribers: they will charge again, or are in a free trial. */
const LIVE_STATES = ['active', 'pending', 'authenticated'];

export async function listPlansForAdmin(ctx: Pick<Context, 'db'>): Promise<AdminPlan[]> {
  const rows = await ctx.db.select().from(plans).orderBy(asc(plans.createdAt));
  const [entries, versions, counts] = await Promise.all([
    priced(ctx.db, rows),
    ctx.db.select().from(planPrices).orderBy(desc(planPrices.createdAt), desc(planPrices.id)),
    ctx.db
      .select({ planPriceId: subscriptions.planPriceId, count: sql<number>`count(*)::int` })
      .from(subscriptions)
      .where(and(inArray(subscriptions.status, LIVE_STATES), isNull(subscriptions.cancelledAt)))
      .groupBy(subscriptions.planPriceId),
  ]);
  const countOf = new Map(counts.map((row) => [row.planPriceId, row.count]));
  return entries.map((entry) => {
    const own = versions.filter((version) => version.planId === entry.plan.id);
    return {
      ...planJson(entry),
      archived: entry.plan.archivedAt !== null,
      listPrice: entry.price.listPricePaise / 100,
      subscribers: own.reduce((sum, version) => sum + (countOf.get(version.id) ?? 0), 0),
      prices: own.map((version) => ({
        price: version.amountPaise / 100,
        listPrice: version.listPricePaise / 100,
        since: version.createdAt.toISOString(),
        subscribers: countOf.get(version.id) ?? 0,
        current: version.id === entry.price.id,
      })),
      createdAt: entry.plan.createdAt.toISOString(),
    };
  });
}

async function adminPlan(ctx: Pick<Context, 'db'>, id: string): Promise<AdminPlan> {
  const plan = (await listPlansForAdmin(ctx)).find((entry) => entry.id === id);
  if (!plan) throw new AppError(404, messages.planNotFound);
  return plan;
}

const toPaise = (rupees: number) => Math.round(rupees * 100);

/** Checks a charge against what the provider allows: GST added to a price may still pass the cap. */
function priceVersion(ctx: Pick<Context, 'config'>, planId: string, listPrice: number) {
  const listPricePaise = toPaise(listPrice);
  const amountPaise = chargeFor(ctx.config, listPricePaise);
  if (amountPaise > MAX_PRICE * 100) throw new AppError(400, messages.planPriceWithTaxTooHigh);
  return { planId, listPricePaise, amountPaise };
}

export async function createPlan(ctx: Pick<Context, 'db' | 'config'>, input: PlanInput): Promise<AdminPlan> {
  const id = await ctx.db.transaction(async (tx) => {
    const [plan] = await tx.insert(plans).values({ name: input.name, interval: input.interval, trialDays: input.trialDays }).returning();
    await tx.insert(planPrices).values(priceVersion(ctx, plan!.id, input.price));
    return plan!.id;
  });
  return adminPlan(ctx, id);
}

/**
 * Renames, re-prices, sets the trial, archives or brings back a plan. A new price is a new price
 * version for new buyers; the default plan cannot be archived, nor renamed (the storefront sells it
 * by the spec's name).
 */
export async function updatePlan(ctx: Pick<Context, 'db' | 'config'>, id: string, update: PlanUpdate): Promise<AdminPlan> {
  await ctx.db.transaction(async (tx) => {
    const [plan] = await tx.select().from(plans).where(eq(plans.id, id)).for('update');
    if (!plan) throw new AppError(404, messages.planNotFound);
    if (update.archived && plan.isDefault) throw new AppError(409, answers.defaultPlanArchived);
    if (update.name !== undefined && update.name !== plan.name && plan.isDefault) throw new AppError(409, answers.defaultPlanRenamed);
    await tx
      .update(plans)
      .set({
        ...(update.name !== undefined && { name: update.name }),
        ...(update.trialDays !== undefined && { trialDays: update.trialDays }),
        ...(update.archived !== undefined && { archivedAt: update.archived ? (plan.archivedAt ?? new Date()) : null }),
        updatedAt: new Date(),
      })
      .where(eq(plans.id, id));
    if (update.price !== undefined) {
      const version = priceVersion(ctx, id, update.price);
      const current = await currentPrice(tx, id);
      if (current.amountPaise !== version.amountPaise || current.listPricePaise !== version.listPricePaise) await tx.insert(planPrices).values(version);
    }
  });
  return adminPlan(ctx, id);
}
