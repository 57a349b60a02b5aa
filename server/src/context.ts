import type { RuntimeConfig } from './secrets.ts';
import type { Db } from './db/client.ts';
import type { PasswordHasher } from './features/auth/password.ts';
import type { CatalogueCache } from './features/courses/catalogue-cache.ts';
import type { SessionCache } from './features/auth/session-cache.ts';
import type { Changes } from './changes.ts';
import type { HeldSaves } from './features/progress/held-saves.ts';
import type { VideoTrust } from './features/media/video-trust.ts';
import type { MediaStorage } from './features/media/storage.ts';
import type { RazorpayClient } from './features/payments/razorpay-client.ts';
import type { JobQueue } from './job-queue.ts';
import type { Jobs } from './jobs.ts';
import type { Mailer } from './mail.ts';
import type { VideoToolsStatus } from './features/video/ffmpeg.ts';
import type { RateLimits } from './rate-limit.ts';
import type { SettingsCache } from './features/settings/site-settings.ts';
import type { LeaseCache } from './features/protection/lease-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Context;
  }
}

/**
 * What services need from the outside world, built once by createContext (create-context.ts) and
 * handed to each service call. Types only, from modules that never import this one back, so any
 * service may import it without making a cycle.
 */
export interface Context {
  config: RuntimeConfig;
  db: Db;
  /** Background work, taken by whichever instance is free: mail and whatever must not hold up a request. */
  jobs: JobQueue<Jobs>;
  /** Sends mail now: the `mail` job, and jobs whose mail must not be queued (a link that opens an account); services call queueMail. */
  mailer: Mailer;
  media: MediaStorage;
  passwords: PasswordHasher;
  limits: RateLimits;
  razorpay: RazorpayClient;
  /** What this instance keeps copies of hears every change to it, from any instance, job or command (changes.ts). */
  changes: Changes;
  /** Serialized catalogue pages; course and lecture changes empty it. */
  catalogue: CatalogueCache;
  /** The site's settings (name, logo, colours, texts, seller, legal pages); any change to them drops the copy. */
  settings: SettingsCache;
  /** Sessions in use and their users; whatever ends or changes one forgets it. */
  sessions: SessionCache;
  /** Videos recently found to belong to a published course (a preview? its ladder ready?); catalogue changes forget them. */
  publishedVideos: VideoTrust;
  /** Sessions recently found holding a playback lease; a lease stopped anywhere forgets its session. */
  leases: LeaseCache;
  /** Progress saves, held and written in batches, and the copies a save is checked and answered from (features/progress). */
  heldSaves: HeldSaves;
  /** The ffmpeg this instance processes videos with, or why it cannot (features/video). */
  video: VideoToolsStatus;
}
