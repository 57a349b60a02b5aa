import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from './config.ts';

const WINDOW_SECONDS = 15 * 60;
/** Six saves a minute while playing, the rest for pauses, seeks and marks. */
export const PROGRESS_WRITES_PER_MINUTE = 30;

/** CSV exports one admin may start in a minute. */
export const EXPORTS_PER_MINUTE = 6;
/** Checkouts (POST /payments/subscribe) one account may start in 15 minutes: one per page load, plan picked or coupon applied. */
export const CHECKOUTS_PER_WINDOW = 40;
/** Refused coupon codes one account may try in 15 minutes. */
export const COUPON_FAILURES_PER_WINDOW = 10;

export interface RateLimits {
  /** Every login attempt from one address. */
  loginPerIp: RateLimiterAbstract;
  /** Failed logins for one email from one address (keyed by `loginKey`), cleared by a successful one: the lock. */
  loginFailuresPerEmailAndIp: RateLimiterAbstract;
  /**
   * Failed logins for one email from every address together: a much higher ceiling
   * against guessing from many addresses, which an owner elsewhere rarely meets.
   */
  loginFailuresPerEmail: RateLimiterAbstract;
  /** Password-reset mails asked for one address, and from one client. */
  resetPerEmail: RateLimiterAbstract;
  resetPerIp: RateLimiterAbstract;
  /** Reset links tried from one address: each good one costs a password hash. */
  resetTokenPerIp: RateLimiterAbstract;
  /** Sign-ups from one address: each costs a password hash and an image re-encode. */
  signupPerIp: RateLimiterAbstract;
  /** Password changes of one account: each checks the old password with a hash. */
  passwordChangePerUser: RateLimiterAbstract;
  /** Contact-form messages sent from one address: each one is stored and mailed. */
  contactPerIp: RateLimiterAbstract;
  /**
   * Progress writes from one session (saves, marks, settings), a minute at a time: a player saves
   * every ~10 s plus pauses and seeks. Saves beyond it are held back, the latest kept (features/progress).
   */
  progressPerSession: RateLimiterAbstract;
  /** CSV exports by one admin, a minute at a time: each reads up to a year of payments or documents. */
  exportsPerAccount: RateLimiterAbstract;
  /** Checkouts one account starts (each may create a subscription, and a plan, at the provider). */
  checkoutsPerAccount: RateLimiterAbstract;
  /** Coupon codes one account tries that are refused: guessing codes is slow. */
  couponFailuresPerAccount: RateLimiterAbstract;
  close(): Promise<void>;
}

/**
 * Counters live in this process, or in Redis when REDIS_URL is set,
 * so that every instance behind a load balancer counts the same attempts.
 */
export async function createRateLimits(
  config: Pick<Config, 'redisUrl' | 'loginMaxPerIp' | 'loginMaxPerEmail' | 'loginMaxPerAccount' | 'signupMaxPerIp'>,
  keyPrefix = 'lms',
): Promise<RateLimits> {
  let redis: Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
  }
  const limiter = (name: string, points: number, duration = WINDOW_SECONDS) => {
    const options = { keyPrefix: `${keyPrefix}:${name}`, points, duration };
    return redis ? new RateLimiterRedis({ storeClient: redis, ...options }) : new RateLimiterMemory(options);
  };
  return {
    loginPerIp: limiter('login-ip', config.loginMaxPerIp),
    loginFailuresPerEmailAndIp: limiter('login-email-ip', config.loginMaxPerEmail),
    loginFailuresPerEmail: limiter('login-email', config.loginMaxPerAccount),
    resetPerEmail: limiter('reset-email', 3),
    resetPerIp: limiter('reset-ip', 20),
    resetTokenPerIp: limiter('reset-token-ip', 10),
    signupPerIp: limiter('signup-ip', config.signupMaxPerIp),
    passwordChangePerUser: limiter('password-change-user', 10),
    contactPerIp: limiter('contact-ip', 5),
    progressPerSession: limiter('progress-session', PROGRESS_WRITES_PER_MINUTE, 60),
    exportsPerAccount: limiter('exports-account', EXPORTS_PER_MINUTE, 60),
    checkoutsPerAccount: limiter('checkout-account', CHECKOUTS_PER_WINDOW),
    couponFailuresPerAccount: limiter('coupon-failure-account', COUPON_FAILURES_PER_WINDOW),
    close: async () => void (await redis?.quit()),
  };
}

/** The key of one email tried from one address (an email has no spaces). */
export const loginKey = (email: string, ip: string) => `${email} ${ip}`;

/** Counts one hit; false when the limit was already reached. Store failures propagate. */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  try {
    await limiter.consume(key);
    return true;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return false;
    throw rejection;
  }
}

/** Whether `key` has used up its points, without counting a hit. */
export async function isExhausted(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  const state = await limiter.get(key);
  return state !== null && state.remainingPoints <= 0;
}
