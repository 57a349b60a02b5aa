import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from './config.ts';

const WINDOW_SECONDS = 15 * 60;

export interface RateLimits {
  /** Every login attempt from one address. */
  loginPerIp: RateLimiterAbstract;
  /** Failed logins for one email, cleared by a successful one. */
  loginFailuresPerEmail: RateLimiterAbstract;
  /** Password-reset mails asked for one address, and from one client. */
  resetPerEmail: RateLimiterAbstract;
  resetPerIp: RateLimiterAbstract;
  /** Contact-form messages sent from one address: each one is stored and mailed. */
  contactPerIp: RateLimiterAbstract;
  close(): Promise<void>;
}

/**
 * Counters live in this process, or in Redis when REDIS_URL is set,
 * so that every instance behind a load balancer counts the same attempts.
 */
export async function createRateLimits(
  config: Pick<Config, 'redisUrl' | 'loginMaxPerIp' | 'loginMaxPerEmail'>,
  keyPrefix = 'lms',
): Promise<RateLimits> {
  let redis: Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import('ioredis');
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2 });
  }
  const limiter = (name: string, points: number) => {
    const options = { keyPrefix: `${keyPrefix}:${name}`, points, duration: WINDOW_SECONDS };
    return redis ? new RateLimiterRedis({ storeClient: redis, ...options }) : new RateLimiterMemory(options);
  };
  return {
    loginPerIp: limiter('login-ip', config.loginMaxPerIp),
    loginFailuresPerEmail: limiter('login-email', config.loginMaxPerEmail),
    resetPerEmail: limiter('reset-email', 3),
    resetPerIp: limiter('reset-ip', 20),
    contactPerIp: limiter('contact-ip', 5),
    close: async () => void (await redis?.quit()),
  };
}

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
