import type { Coupon } from '@lms/contract/plans';
import { formatDate } from '../../lib/format';
import { couponsTexts } from './plans-texts';

/**
 * A coupon's days as the admin picks them: whole days on India's calendar (as every date the app
 * shows). "Valid from 1 Dec" starts at midnight in India; "valid until 31 Dec" lasts through that
 * day, so the server's end (the first moment it no longer works) is the next midnight.
 */
const INDIA = '+05:30';
const DAY_MS = 86_400_000;
const isoDay = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Kolkata' });

/** `2026-12-01` → the moment it begins in India, as ISO; anything else is handed on for the schema to refuse. */
export function startOfDay(day: string): string {
  const time = Date.parse(`${day}T00:00:00${INDIA}`);
  return Number.isNaN(time) ? day : new Date(time).toISOString();
}

/** `2026-12-31` → the moment after it ends in India (the next midnight), as ISO. */
export function endOfDay(day: string): string {
  const time = Date.parse(`${day}T00:00:00${INDIA}`);
  return Number.isNaN(time) ? day : new Date(time + DAY_MS).toISOString();
}

/** The day (`YYYY-MM-DD`, India) a start falls on. */
export const dayOfStart = (iso: string) => isoDay.format(new Date(iso));
/** The last day (India) on which a coupon ending at `iso` still works. */
export const dayOfEnd = (iso: string) => isoDay.format(new Date(Date.parse(iso) - 1));

export type CouponStatus = keyof typeof couponsTexts.status;

/** Whether a buyer could use the coupon now, and if not, why. */
export function couponStatus(coupon: Pick<Coupon, 'archived' | 'validFrom' | 'validUntil' | 'maxRedemptions' | 'redemptions'>, now = Date.now()): CouponStatus {
  if (coupon.archived) return 'archived';
  if (coupon.validUntil && Date.parse(coupon.validUntil) <= now) return 'expired';
  if (coupon.maxRedemptions !== null && coupon.redemptions >= coupon.maxRedemptions) return 'usedUp';
  if (coupon.validFrom && Date.parse(coupon.validFrom) > now) return 'scheduled';
  return 'active';
}

/** "1 Dec 2026 to 31 Dec 2026", "From 1 Dec 2026", "Until 31 Dec 2026" or "Any time". */
export function validityWords({ validFrom, validUntil }: Pick<Coupon, 'validFrom' | 'validUntil'>): string {
  const from = validFrom ? formatDate(validFrom) : undefined;
  const until = validUntil ? formatDate(new Date(Date.parse(validUntil) - 1).toISOString()) : undefined;
  if (from && until) return couponsTexts.between(from, until);
  if (from) return couponsTexts.from(from);
  if (until) return couponsTexts.until(until);
  return couponsTexts.always;
}
