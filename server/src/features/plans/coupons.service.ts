import { and, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { MIN_PRICE, type Coupon, type CouponInput, type CouponKind, type CouponUpdate, type Discount } from '@lms/contract/plans';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { couponRedemptions, coupons, plans } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';

/*
 * Coupons (decision 0017): a percentage or an amount off the first charge or the first
 * few. A use is taken when a checkout asks for the coupon (held by that unpaid subscription, so two
 * buyers cannot both be sold the last use) and made final by the payment; a checkout dropped
 * unpaid gives its use back. One use per account.
 */

export type CouponRow = typeof coupons.$inferSelect;

export function couponJson(coupon: CouponRow): Coupon {
  return {
    id: coupon.id,
    code: coupon.code,
    kind: coupon.kind as CouponKind,
    amount: coupon.kind === 'amount' ? coupon.amount / 100 : coupon.amount,
    charges: coupon.charges,
    validFrom: coupon.validFrom?.toISOString() ?? null,
    validUntil: coupon.validUntil?.toISOString() ?? null,
    maxRedemptions: coupon.maxRedemptions,
    redemptions: coupon.redemptions,
    plans: coupon.planIds,
    saveOffer: coupon.saveOffer,
    archived: coupon.archivedAt !== null,
    createdAt: coupon.createdAt.toISOString(),
  };
}

export const discountJson = (coupon: CouponRow): Discount => {
  const { code, kind, amount, charges } = couponJson(coupon);
  return { code, kind, amount, charges };
};

/** A charge of `amountPaise` with the coupon's discount; below the provider's ₹1 it may not be sold. */
export function discountedPaise(coupon: Pick<CouponRow, 'kind' | 'amount'>, amountPaise: number): number {
  return coupon.kind === 'percent' ? Math.round((amountPaise * (100 - coupon.amount)) / 100) : amountPaise - coupon.amount;
}

/** The discounted charge, or 400 when it would be below what the provider charges at least. */
export function discountedCharge(coupon: Pick<CouponRow, 'kind' | 'amount'>, amountPaise: number): number {
  const discounted = discountedPaise(coupon, amountPaise);
  if (discounted < MIN_PRICE * 100) throw new AppError(400, messages.couponBelowMinimum);
  return discounted;
}

// ── The admin's coupons ────────────────────────────────────────────────────

export async function listCoupons(ctx: Pick<Context, 'db'>): Promise<Coupon[]> {
  const rows = await ctx.db.select().from(coupons).orderBy(desc(coupons.createdAt), desc(coupons.id));
  return rows.map(couponJson);
}

async function checkPlans(db: Db, planIds: string[]): Promise<void> {
  if (planIds.length === 0) return;
  const found = await db.select({ id: plans.id }).from(plans).where(inArray(plans.id, planIds));
  if (found.length !== new Set(planIds).size) throw new AppError(400, messages.planNotFound);
}

const dateOf = (value: string | null | undefined) => (value ? new Date(value) : null);

/** At most one coupon is the save offer: naming a new one retires the old one from that role. */
async function takeSaveOfferRole(db: Db, couponId?: string): Promise<void> {
  await db
    .update(coupons)
    .set({ saveOffer: false, updatedAt: new Date() })
    .where(and(eq(coupons.saveOffer, true), couponId ? ne(coupons.id, couponId) : undefined));
}

export async function createCoupon(ctx: Pick<Context, 'db'>, input: CouponInput): Promise<Coupon> {
  await checkPlans(ctx.db, input.plans);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      if (input.saveOffer) await takeSaveOfferRole(tx);
      const [made] = await tx
        .insert(coupons)
        .values({
          code: input.code,
          kind: input.kind,
          amount: input.kind === 'amount' ? Math.round(input.amount * 100) : input.amount,
          charges: input.charges,
          validFrom: dateOf(input.validFrom),
          validUntil: dateOf(input.validUntil),
          maxRedemptions: input.maxRedemptions ?? null,
          planIds: [...new Set(input.plans)],
          saveOffer: input.saveOffer,
        })
        .returning();
      return made!;
    });
    return couponJson(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, answers.couponCodeTaken);
    throw error;
  }
}

/** Changes when, how often and for which plans a coupon may be redeemed; its code and discount stay. */
export async function updateCoupon(ctx: Pick<Context, 'db'>, id: string, update: CouponUpdate): Promise<Coupon> {
  if (update.plans) await checkPlans(ctx.db, update.plans);
  const row = await ctx.db.transaction(async (tx) => {
    const [coupon] = await tx.select().from(coupons).where(eq(coupons.id, id)).for('update');
    if (!coupon) throw new AppError(404, answers.couponNotFound);
    const validFrom = update.validFrom === undefined ? coupon.validFrom : dateOf(update.validFrom);
    const validUntil = update.validUntil === undefined ? coupon.validUntil : dateOf(update.validUntil);
    if (validFrom && validUntil && validFrom >= validUntil) throw new AppError(400, messages.couponDatesInvalid);
    const maxRedemptions = update.maxRedemptions === undefined ? coupon.maxRedemptions : update.maxRedemptions;
    // Uses already taken stay taken: the limit may not go below them.
    if (maxRedemptions !== null && maxRedemptions < coupon.redemptions) throw new AppError(400, answers.couponMaxBelowUses);
    if (update.saveOffer) await takeSaveOfferRole(tx, id);
    const [changed] = await tx
      .update(coupons)
      .set({
        validFrom,
        validUntil,
        maxRedemptions,
        ...(update.plans && { planIds: [...new Set(update.plans)] }),
        ...(update.saveOffer !== undefined && { saveOffer: update.saveOffer }),
        ...(update.archived !== undefined && { archivedAt: update.archived ? (coupon.archivedAt ?? new Date()) : null }),
        updatedAt: new Date(),
      })
      .where(eq(coupons.id, id))
      .returning();
    return changed!;
  });
  return couponJson(row);
}

// ── Redeeming ──────────────────────────────────────────────────────────────

/**
 * The coupon a buyer typed, if it may be used now, for this plan, by this account: 400 with the
 * reason otherwise. A use the account's own unpaid checkout holds (`heldBy`) does not count against it.
 * The save offer is not a checkout coupon: its code is answered as unknown.
 */
export async function couponForCheckout(
  ctx: Pick<Context, 'db'>,
  { code, planId, userId, heldBy, now = new Date() }: { code: string; planId: string; userId: string; heldBy?: string; now?: Date },
): Promise<CouponRow> {
  const [coupon] = await ctx.db.select().from(coupons).where(eq(coupons.code, code.toUpperCase()));
  if (!coupon || coupon.archivedAt || coupon.saveOffer) throw new AppError(400, messages.couponUnknown);
  return usableCoupon(ctx.db, coupon, { planId, userId, heldBy, now });
}

/** The coupon if this account may redeem it now on this plan; 400 with the reason otherwise. */
export async function usableCoupon(
  db: Db,
  coupon: CouponRow,
  { planId, userId, heldBy, now }: { planId: string; userId: string; heldBy?: string; now: Date },
): Promise<CouponRow> {
  if (coupon.validFrom && coupon.validFrom > now) throw new AppError(400, messages.couponNotYetValid);
  if (coupon.validUntil && coupon.validUntil <= now) throw new AppError(400, messages.couponExpired);
  if (coupon.planIds.length > 0 && !coupon.planIds.includes(planId)) throw new AppError(400, messages.couponOtherPlan);
  // One use per account; the one this account's own unpaid checkout holds is still theirs to use.
  const [redeemed] = await db
    .select()
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, coupon.id), eq(couponRedemptions.userId, userId)));
  const heldHere = redeemed !== undefined && redeemed.confirmedAt === null && heldBy !== undefined && redeemed.subscriptionId === heldBy;
  if (redeemed && !heldHere) throw new AppError(400, messages.couponAlreadyUsed);
  if (!heldHere && coupon.maxRedemptions !== null && coupon.redemptions >= coupon.maxRedemptions) throw new AppError(400, messages.couponExhausted);
  return coupon;
}

/**
 * Takes a use of the coupon for this account, in the caller's transaction: one per account (the
 * unique index), and never more than the maximum (the counter's check), so of two buyers after the
 * last use one wins and the other gets 400.
 */
export async function takeCouponUse(
  db: Db,
  { couponId, userId, subscriptionId, confirmed }: { couponId: string; userId: string; subscriptionId: string; confirmed?: Date },
): Promise<void> {
  const [taken] = await db
    .insert(couponRedemptions)
    .values({ couponId, userId, subscriptionId, confirmedAt: confirmed ?? null })
    .onConflictDoNothing()
    .returning({ id: couponRedemptions.id });
  if (!taken) throw new AppError(400, messages.couponAlreadyUsed);
  const [counted] = await db
    .update(coupons)
    .set({ redemptions: sql`${coupons.redemptions} + 1` })
    .where(and(eq(coupons.id, couponId), or(isNull(coupons.maxRedemptions), sql`${coupons.redemptions} < ${coupons.maxRedemptions}`)))
    .returning({ id: coupons.id });
  if (!counted) throw new AppError(400, messages.couponExhausted);
}

/** Gives back the use an unpaid subscription held (it was dropped, or never reached the provider). */
export async function releaseCouponUse(db: Db, subscriptionId: string): Promise<void> {
  const released = await db
    .delete(couponRedemptions)
    .where(and(eq(couponRedemptions.subscriptionId, subscriptionId), isNull(couponRedemptions.confirmedAt)))
    .returning({ couponId: couponRedemptions.couponId });
  for (const { couponId } of released) {
    await db
      .update(coupons)
      .set({ redemptions: sql`${coupons.redemptions} - 1` })
      .where(eq(coupons.id, couponId));
  }
}

/** The payment (or a trial's start) makes the use final. */
export async function confirmCouponUse(db: Db, subscriptionId: string, now = new Date()): Promise<void> {
  await db
    .update(couponRedemptions)
    .set({ confirmedAt: now })
    .where(and(eq(couponRedemptions.subscriptionId, subscriptionId), isNull(couponRedemptions.confirmedAt)));
}

/** The coupon the cancellation dialog offers, if one is named and may be used now. */
export async function currentSaveOffer(db: Db, now = new Date()): Promise<CouponRow | undefined> {
  const [offer] = await db
    .select()
    .from(coupons)
    .where(
      and(
        eq(coupons.saveOffer, true),
        isNull(coupons.archivedAt),
        or(isNull(coupons.validFrom), sql`${coupons.validFrom} <= ${now}`),
        or(isNull(coupons.validUntil), sql`${coupons.validUntil} > ${now}`),
      ),
    );
  return offer;
}
