import type { FastifyInstance } from 'fastify';
import { followChanges } from './changes.ts';
import type { Context } from './context.ts';
import { databaseTargetOf, openDatabase, type Database } from './db/client.ts';
import { AppError } from './errors.ts';
import { createPasswordHasher } from './features/auth/password.ts';
import { createSessionCache } from './features/auth/session-cache.ts';
import { createCatalogueCache } from './features/courses/catalogue-cache.ts';
import { createSettingsCache, loadSettings } from './features/settings/site-settings.ts';
import { createVideoTrust } from './features/media/video-trust.ts';
import { createLeaseCache } from './features/protection/lease-cache.ts';
import { createStorage } from './features/media/storage-factory.ts';
import { createRazorpayClient, inProcessFetch } from './features/payments/razorpay-client.ts';
import { createHeldSaves } from './features/progress/held-saves.ts';
import { writeHeldSaves } from './features/progress/progress.service.ts';
import { findVideoTools } from './features/video/ffmpeg.ts';
import { startJobQueue, type JobQueueOptions } from './job-queue.ts';
import { QUEUE_RULES, type Jobs } from './jobs.ts';
import { createMailer } from './mail.ts';
import { createRateLimits } from './rate-limit.ts';
import type { RuntimeConfig } from './secrets.ts';

export interface ContextOptions {
  /** An open database to use (tests); otherwise one is opened from the config and closed with the app. */
  database?: Database;
  /** Keeps the rate-limit counters of parallel test runs apart in a shared Redis. */
  rateLimitPrefix?: string;
  /** Retry timing of the job queue (tests shorten it). */
  jobs?: Pick<JobQueueOptions, 'retryDelaySeconds' | 'pollingIntervalSeconds' | 'rules'>;
  /** How often held progress saves are written (tests lengthen it to see them held). */
  heldSavesFlushMs?: number;
  /** The job queue and its workers are started by the caller once it listens (main.ts), not before. */
  jobsAfterListen?: boolean;
}

/** Where routes.ts mounts the sandbox's imitation of the Razorpay API. */
const SANDBOX_API_PREFIX = '/sandbox/v1';

/**
 * The Context of `app`: the database (opened unless given) with the changes this instance hears,
 * its caches, the job queue, mail, media storage, rate limits, the payment provider and the video
 * tools. `close` releases them, the database last.
 */
export async function createContext(
  app: FastifyInstance,
  config: RuntimeConfig,
  options: ContextOptions,
): Promise<{ ctx: Context; database: Database; close(): Promise<void> }> {
  // Run ffmpeg -version while the database opens: a start waits for both, one after the other otherwise.
  const videoTools = config.video.processing ? findVideoTools(config.video) : undefined;
  const database =
    options.database ??
    (await openDatabase(databaseTargetOf(config), {
      onIdleConnectionError: (error) => app.log.warn({ err: error }, 'database connection lost while idle; the pool will reconnect'),
    }));
  // This instance's copies, which hear every change to what they copy (changes.ts).
  const catalogue = createCatalogueCache();
  const settings = createSettingsCache(() => loadSettings(ctx));
  const sessions = createSessionCache();
  const publishedVideos = createVideoTrust();
  const leases = createLeaseCache();
  // Every progress save is held and written in batches; a save the rules refuse at the write (its lecture or learner deleted meanwhile) is dropped there.
  const heldSaves = createHeldSaves({
    write: (batch) => writeHeldSaves(ctx, batch),
    onError: (error) => void (error instanceof AppError || app.log.error({ err: error }, 'writing held progress saves failed')),
    flushMs: options.heldSavesFlushMs,
  });
  const changes = await followChanges(database, {
    apply(change) {
      if (change.kind === 'user') return sessions.forgetUser(change.userId);
      if (change.kind === 'session') return sessions.forgetSession(change.tokenHash);
      if (change.kind === 'playback') return leases.forgetSession(change.sessionId);
      if (change.kind === 'anything') {
        sessions.forgetAll();
        leases.forgetAll();
      }
      // Pages kept in the catalogue cache carry the site's name in their head.
      if (change.kind === 'settings' || change.kind === 'anything') settings.forget();
      catalogue.invalidate();
      publishedVideos.forgetAll();
      heldSaves.forgetCopies();
    },
    onListening(listening) {
      sessions.setTrusted(listening);
      leases.setTrusted(listening);
      heldSaves.lectures.setTrusted(listening);
      if (!listening) app.log.warn('not hearing changes from the database: sessions are looked up on every request until it is back');
    },
  });
  const ctx: Context = {
    config,
    db: database.db,
    changes,
    jobs: await startJobQueue<Jobs>(database, { log: app.log, rules: QUEUE_RULES, ...options.jobs, startLater: options.jobsAfterListen }),
    mailer: createMailer(config, async () => (await settings.current()).site.name),
    media: await createStorage(config),
    passwords: createPasswordHasher(config.passwordCost),
    limits: await createRateLimits(config, options.rateLimitPrefix),
    // In sandbox mode the provider is the imitation routes.ts mounts, reached in-process.
    razorpay: createRazorpayClient({
      keyId: config.payments.keyId,
      keySecret: config.payments.keySecret,
      ...(config.payments.mode === 'sandbox'
        ? { baseUrl: SANDBOX_API_PREFIX, fetch: inProcessFetch((request) => app.inject(request)) }
        : { baseUrl: config.payments.baseUrl }),
    }),
    catalogue,
    settings,
    sessions,
    publishedVideos,
    leases,
    heldSaves,
    video: videoTools ? await videoTools : { available: false, reason: 'it is turned off (VIDEO_PROCESSING=off)' },
  };
  const close = async () => {
    // Jobs in hand finish (or go back to the queue) before the database closes under them.
    await ctx.jobs.stop();
    await ctx.heldSaves.close();
    ctx.mailer.close();
    ctx.media.close();
    await ctx.limits.close();
    await changes.stop();
    if (!options.database) await database.close();
  };
  return { ctx, database, close };
}
