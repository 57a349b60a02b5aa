import type { FastifyBaseLogger } from 'fastify';
import type { Context } from './context.ts';
import { mailPasswordReset } from './features/auth/auth.service.ts';
import { LEFTOVER_AGE_MS, sweepMediaLeftovers } from './features/media/leftovers.ts';
import type { Mail } from './mail.ts';

/**
 * Every job the queue (job-queue.ts) runs, with what it carries, and the service
 * function that does it: the background counterpart of routes.ts.
 */
export interface Jobs {
  /** An outgoing mail, sent with the configured transport; queueMail puts it here. */
  mail: Mail;
  /** A forgot-password request: a reset link for an account with this email, nothing otherwise. */
  'password-reset': { email: string };
  /** Unfinished uploads and files no row refers to, removed from media storage; hourly, on one instance. */
  'media-leftovers': Record<string, never>;
}

/** Minute 17 of every hour, UTC: away from the top of the hour, when other cron work tends to run. */
const HOURLY = '17 * * * *';

export async function startWorkers(ctx: Context, log: FastifyBaseLogger): Promise<void> {
  await ctx.jobs.work('mail', (mail) => ctx.mailer.send(mail));
  await ctx.jobs.work('password-reset', (request) => mailPasswordReset(ctx, request));
  await ctx.jobs.work('media-leftovers', async () => void (await sweepMediaLeftovers(ctx, { olderThanMs: LEFTOVER_AGE_MS, log })));
  await ctx.jobs.schedule('media-leftovers', HOURLY, {});
}
