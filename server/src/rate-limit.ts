import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { answers } from '@lms/contract/answers';
import type { Config } from './config.ts';
import { AppError } from './errors.ts';

const WINDOW_SECONDS = 15 * 60;
/** Six saves a minute while playing, the rest for pauses, seeks and marks. */
export const PROGRESS_WRITES_PER_MINUTE = 30;

/** One-time sign-in links one account is mailed in 15 minutes. */
export const SIGN_IN_LINKS_PER_WINDOW = 3;

/** CSV exports one admin may start in a minute. */
export const EXPORTS_PER_MINUTE = 6;
/** Checkouts (POST /payments/subscribe) one account may start in 15 minutes: one per page load, plan picked or coupon applied. */
export const CHECKOUTS_PER_WINDOW = 40;
/** Refused coupon codes one account may try in 15 minutes. */
export const COUPON_FAILURES_PER_WINDOW = 10;
/** Files one administrator may attach to lectures in 15 minutes: a course's handouts at once, not a flood. */
export const RESOURCE_UPLOADS_PER_WINDOW = 100;
/** Caption files one administrator may save in 15 minutes (uploads, replacements, the cue editor's saves): a course's languages at once, not a flood. */
export const CAPTION_UPLOADS_PER_WINDOW = 100;
/** Logos one administrator may upload in 15 minutes: a few tries at the right file, not a flood of re-encodes. */
export const LOGO_UPLOADS_PER_WINDOW = 20;
/** Playbacks one account may start in a minute: a lecture picked every two seconds, a few tabs, retries after a refusal. */
export const PLAYBACK_STARTS_PER_MINUTE = 30;
/** Leak traces one administrator may run in a minute: each reads the playbacks' codes; plenty for reading a clip by hand. */
export const TRACES_PER_MINUTE = 30;
/** Searches of what lectures say from one address in a minute: a search box typed into, with room for a shared address. */
export const CAPTION_SEARCHES_PER_MINUTE = 120;

/** Certificate lookups by code from one address in a minute (the public page and its API call count one each): open to anyone, each costs a query. */
export const CERTIFICATE_VERIFICATIONS_PER_MINUTE = 120;
/** Quiz attempts one account may start (or resume) in 15 minutes: far more than anyone retries, few enough that a script cannot fill the table. */
export const QUIZ_STARTS_PER_WINDOW = 100;

export interface RateLimits {
  /** Every login attempt from one address. */
  loginPerIp: RateLimiterAbstract;
  /** Failed logins for one email from one address (keyed by `loginKey`), cleared by a successful one: the lock. */
  loginFailuresPerEmailAndIp: RateLimiterAbstract;
  /**
   * Failed logins for one email from every address together: a much higher ceiling against
   * guessing from many addresses. Past it, only a browser that signed in to the account before
   * logs in with the password; any other gets a one-time link by mail (decision 0021).
   */
  loginFailuresPerEmail: RateLimiterAbstract;
  /** One-time sign-in links mailed to one account (keyed by user id): no mail bombing through the ceiling. */
  signInLinksPerAccount: RateLimiterAbstract;
  /** Sign-in links tried from one address: each is a look-up, and a good one a new session. */
  signInTokenPerIp: RateLimiterAbstract;
  /** Password-reset mails asked for one address, and from one client. */
  resetPerEmail: RateLimiterAbstract;
  resetPerIp: RateLimiterAbstract;
  /** Reset links tried from one address: each good one costs a password hash. */
  resetTokenPerIp: RateLimiterAbstract;
  /** Email changes an administrator asks for one account (keyed by its id): each mails both addresses. */
  emailChangesPerAccount: RateLimiterAbstract;
  /** Email-change links tried from one address: each is a look-up, and a good one ends the account's sessions. */
  emailChangeTokenPerIp: RateLimiterAbstract;
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
  /** Files one account attaches to lectures (each up to RESOURCE_MAX_BYTES stored, every byte checked). */
  resourceUploadsPerAccount: RateLimiterAbstract;
  /** Caption files one account saves (each up to CAPTION_MAX_BYTES read, stored, and up to 20,000 cues indexed). */
  captionUploadsPerAccount: RateLimiterAbstract;
  /** Logos one account uploads (each decoded, re-encoded and made into four icons). */
  logoUploadsPerAccount: RateLimiterAbstract;
  /** Playbacks one account starts, a minute at a time: each writes a row, and a refused one two. */
  playbackStartsPerAccount: RateLimiterAbstract;
  /** Leak traces one administrator runs, a minute at a time: each looks for the code inside every playback's. */
  tracesPerAccount: RateLimiterAbstract;
  /** Searches of what lectures say from one address, a minute at a time: each reads the cues' index and ranks what it finds. */
  captionSearchesPerAddress: RateLimiterAbstract;
  /** The name printed on certificates: chosen once, so a few tries an account (each remakes every PDF of theirs). */
  certificateNamesPerAccount: RateLimiterAbstract;
  /** Certificates looked up by code, per address: 80-bit codes cannot be guessed, but the lookups' cost is bounded. */
  certificateVerificationsPerAddress: RateLimiterAbstract;
  /** Quiz attempts one account starts or resumes, 15 minutes at a time: each new one writes a row. */
  quizStartsPerAccount: RateLimiterAbstract;
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
    signInLinksPerAccount: limiter('sign-in-link-account', SIGN_IN_LINKS_PER_WINDOW),
    signInTokenPerIp: limiter('sign-in-token-ip', 10),
    resetPerEmail: limiter('reset-email', 3),
    resetPerIp: limiter('reset-ip', 20),
    resetTokenPerIp: limiter('reset-token-ip', 10),
    emailChangesPerAccount: limiter('email-change-account', 5),
    emailChangeTokenPerIp: limiter('email-change-token-ip', 10),
    signupPerIp: limiter('signup-ip', config.signupMaxPerIp),
    passwordChangePerUser: limiter('password-change-user', 10),
    contactPerIp: limiter('contact-ip', 5),
    progressPerSession: limiter('progress-session', PROGRESS_WRITES_PER_MINUTE, 60),
    exportsPerAccount: limiter('exports-account', EXPORTS_PER_MINUTE, 60),
    checkoutsPerAccount: limiter('checkout-account', CHECKOUTS_PER_WINDOW),
    couponFailuresPerAccount: limiter('coupon-failure-account', COUPON_FAILURES_PER_WINDOW),
    resourceUploadsPerAccount: limiter('resource-upload-account', RESOURCE_UPLOADS_PER_WINDOW),
    captionUploadsPerAccount: limiter('caption-upload-account', CAPTION_UPLOADS_PER_WINDOW),
    logoUploadsPerAccount: limiter('logo-upload-account', LOGO_UPLOADS_PER_WINDOW),
    playbackStartsPerAccount: limiter('playback-start-account', PLAYBACK_STARTS_PER_MINUTE, 60),
    tracesPerAccount: limiter('trace-account', TRACES_PER_MINUTE, 60),
    captionSearchesPerAddress: limiter('caption-search-ip', CAPTION_SEARCHES_PER_MINUTE, 60),
    certificateNamesPerAccount: limiter('certificate-name-account', 10),
    certificateVerificationsPerAddress: limiter('certificate-verify-ip', CERTIFICATE_VERIFICATIONS_PER_MINUTE, 60),
    quizStartsPerAccount: limiter('quiz-start-account', QUIZ_STARTS_PER_WINDOW),
    close: async () => void (await redis?.quit()),
  };
}

/**
 * What every per-address limit counts a client by. An IPv4 address is one client. An IPv6
 * client is its /64: one home or phone gets a whole /64 from its provider (RFC 6177) and picks
 * any address in it at will, so counting whole addresses would give it 2^64 counters. An
 * IPv4 address written as IPv6 (`::ffff:203.0.113.9`, as a dual-stack socket reports it) is
 * that IPv4 address. Anything else (never from Node's sockets) counts as written.
 */
export function addressKey(ip: string): string {
  const address = ip.split('%')[0]!;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted quad read). */
function ipv6Groups(address: string): number[] {
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = quad ? `${address.slice(0, quad.index)}${((+quad[1]! << 8) | +quad[2]!).toString(16)}:${((+quad[3]! << 8) | +quad[4]!).toString(16)}` : address;
  const [head = '', tail] = text.split('::');
  const read = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const before = read(head);
  const after = tail === undefined ? [] : read(tail);
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

/** The key of one email tried from one address (an email has no spaces). */
export const loginKey = (email: string, ip: string) => `${email} ${addressKey(ip)}`;

/** Counts one hit; false when the limit was already reached. Store failures propagate. */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<boolean> {
  return (await consumeOrWait(limiter, key)) === 0;
}

/** Counts one hit; 0 when it was within the limit, otherwise the milliseconds until the next is. Store failures propagate. */
export async function consumeOrWait(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return Math.max(1, rejection.msBeforeNext);
    throw rejection;
  }
}

/** The milliseconds until `key` may count a hit again when it has used up its points, else 0; counts nothing. */
export async function waitBeforeNext(limiter: RateLimiterAbstract, key: string): Promise<number> {
  const state = await limiter.get(key);
  return state !== null && state.remainingPoints <= 0 ? Math.max(1, state.msBeforeNext) : 0;
}

/** Whole minutes to tell someone to wait, at least one. */
export const minutesToWait = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

/** One limit a route applies before its handler runs. */
export interface Limit<R extends FastifyRequest = FastifyRequest> {
  limiter: Exclude<keyof RateLimits, 'close'>;
  /** What the counter counts the request by: its address (`byAddress`), its account (`byAccount`), a session. */
  key: (request: R) => string;
  /** Only for the requests this says yes to (a checkout that names a coupon). */
  when?: (request: R) => boolean;
  /**
   * `count` (the default) counts this request and refuses it past the limit. `check` counts
   * nothing and refuses once the counter is used up: the service counts that counter itself, on
   * failures only (wrong passwords, refused coupons).
   */
  mode?: 'count' | 'check';
  /** Past the limit: refuse (the default), or let the request through marked, for a handler that holds its work back instead (`isOverLimit`). */
  over?: 'refuse' | 'let-through';
  /** The refusal's text, given the milliseconds until a request is let through again; `answers.tooManyRequests` otherwise. */
  message?: (msBeforeNext: number) => string;
}

/** The pre-handler `rateLimited` makes, typed by the request of the route it belongs to. */
export type RateLimited<R extends FastifyRequest = FastifyRequest> = (request: R, reply: FastifyReply) => Promise<void>;

const overLimit = new WeakSet<FastifyRequest>();

/**
 * The one pre-handler that applies a route's rate limits, in the order given, stopping at the
 * first refusal: every limit of the API is declared beside its route this way (the request's type,
 * for the keys, comes from the route it is given to). It runs after the
 * access guard and after the body was validated, before anything is read or written.
 */
export function rateLimited<R extends FastifyRequest>(...limits: Limit<NoInfer<R>>[]): RateLimited<R> {
  return async (request) => {
    const counters = request.server.ctx.limits;
    for (const limit of limits) {
      if (limit.when && !limit.when(request)) continue;
      const counter = counters[limit.limiter];
      const key = limit.key(request);
      const wait = limit.mode === 'check' ? await waitBeforeNext(counter, key) : await consumeOrWait(counter, key);
      if (!wait) continue;
      if (limit.over === 'let-through') {
        overLimit.add(request);
        continue;
      }
      throw new AppError(429, limit.message ? limit.message(wait) : answers.tooManyRequests);
    }
  };
}

/** Whether a `let-through` limit of this request's route was past its limit. */
export const isOverLimit = (request: FastifyRequest) => overLimit.has(request);

/** Counts a request by its client's address. */
export const byAddress = (request: FastifyRequest) => addressKey(request.ip);
/** Counts a request by its logged-in account: for routes behind an access guard. */
export const byAccount = (request: FastifyRequest) => {
  if (!request.user) throw new Error('byAccount: the route has no access guard');
  return request.user.id;
};
