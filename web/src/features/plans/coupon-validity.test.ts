import { describe, expect, it } from 'vitest';
import { couponStatus, dayOfEnd, dayOfStart, endOfDay, startOfDay, validityWords } from './coupon-validity';

const open = { archived: false, validFrom: null, validUntil: null, maxRedemptions: null, redemptions: 0 };
const now = Date.parse('2026-12-10T12:00:00.000Z');

describe('a coupon’s days, on India’s calendar', () => {
  it('start at midnight in India and last through the last day', () => {
    expect(startOfDay('2026-12-01')).toBe('2026-11-30T18:30:00.000Z');
    expect(endOfDay('2026-12-31')).toBe('2026-12-31T18:30:00.000Z');
    expect(dayOfStart('2026-11-30T18:30:00.000Z')).toBe('2026-12-01');
    expect(dayOfEnd('2026-12-31T18:30:00.000Z')).toBe('2026-12-31');
    // An end the API set mid-day still shows the day it falls on.
    expect(dayOfEnd('2026-12-31T10:00:00.000Z')).toBe('2026-12-31');
    expect(validityWords({ validFrom: '2026-11-30T18:30:00.000Z', validUntil: '2026-12-31T18:30:00.000Z' }).replace(/\s/g, ' ')).toBe(
      '1 Dec 2026 to 31 Dec 2026',
    );
  });

  it('hand anything that is not a day to the schema as it is', () => {
    expect(startOfDay('not a day')).toBe('not a day');
    expect(endOfDay('2026-13-45')).toBe('2026-13-45');
  });
});

describe('a coupon’s status', () => {
  it.each([
    [{}, 'active'],
    [{ archived: true, validUntil: '2026-01-01T00:00:00.000Z' }, 'archived'],
    [{ validUntil: '2026-12-10T12:00:00.000Z' }, 'expired'],
    [{ validUntil: '2026-12-10T12:00:01.000Z' }, 'active'],
    [{ validFrom: '2026-12-10T12:00:01.000Z' }, 'scheduled'],
    [{ maxRedemptions: 5, redemptions: 5 }, 'usedUp'],
    [{ maxRedemptions: 5, redemptions: 4 }, 'active'],
  ])('%o is %s', (overrides, status) => {
    expect(couponStatus({ ...open, ...overrides }, now)).toBe(status);
  });
});
