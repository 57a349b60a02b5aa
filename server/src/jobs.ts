import type { FastifyBaseLogger } from 'fastify';
import type { Context } from './context.ts';
import { mailPasswordReset, mailSignInLink } from './features/auth/auth.service.ts';
import { makeDocumentPdf } from './features/billing/billing-pdf.ts';
import { queueStalledPdfs } from './features/billing/billing.service.ts';
import { queueRenewalReminders, queueUnsentMails, sendLifecycleMail } from './features/billing/lifecycle-mail.ts';
import { LEFTOVER_AGE_MS, sweepMediaLeftovers } from './features/media/leftovers.ts';
import type { Mail } from './mail.ts';
import { processLectureVideo, restartStalledVideos, type VideoProcessingJob } from './features/video/video-processing.ts';
import { describeFfmpeg, ffmpegWarning } from './features/video/ffmpeg.ts';
import type { QueueRules } from './job-queue.ts';
import { dropAbandonedCheckouts } from './features/payments/checkout.service.ts';
import { changeProviderPlan } from './features/payments/charges.service.ts';

/**
 * Every job the queue (job-queue.ts) runs, with what it carries, and the service
 * function that does it: the background counterpart of routes.ts.
 */
export interface Jobs {
  /** An outgoing mail, sent with the configured transport; queueMail puts it here. */
  mail: Mail;
  /**
   * A forgot-password request: a reset link for an account with this email, nothing otherwise.
   * The job makes the link and mails it itself: no job's data ever holds one.
   */
  'password-reset': { email: string };
  /** The right password past the account's login ceiling from an unknown browser: a one-time sign-in link, mailed as reset links are. */
  'sign-in-link': { userId: string };
  /** Unfinished uploads and files no row refers to, removed from media storage; hourly, on one instance. */
  'media-leftovers': Record<string, never>;
  /** A lecture's video probed, given a poster and an HLS ladder (features/video). */
  'video-processing': VideoProcessingJob;
  /** Lectures whose processing stalled (a killed process) or never got queued, queued again; every minute. */
  'video-stalled': Record<string, never>;
  /** An invoice's or credit note's PDF, made and stored privately (features/billing). */
  'billing-pdf': { documentId: string };
  /** Documents whose PDF was never queued (a process died after the commit), queued again; every minute. */
  'billing-pdf-stalled': Record<string, never>;
  /** A lifecycle mail written with its event (receipt, reminder, failed payment…), composed and sent once. */
  'lifecycle-mail': { id: string };
  /** Lifecycle mails written but never queued, queued again; every minute. */
  'lifecycle-mail-unsent': Record<string, never>;
  /** Reminders of the renewals and first charges after a trial due within three days, written and queued; hourly. */
  'renewal-reminders': Record<string, never>;
  /** A subscription moved to the provider's plan for what its next charge takes: a coupon's discount starting or ending (features/payments). */
  'subscription-plan': { subscriptionId: string };
  /** Checkouts left unpaid for a day, cancelled at the provider, their coupon uses given back; hourly. */
  'abandoned-checkouts': Record<string, never>;
}

/**
 * Queues whose jobs need other rules than the default (8 retries from 15 s): a transcode that
 * failed three times will fail a fourth, and one may run for hours (a 2 GB lecture).
 */
export const QUEUE_RULES: Partial<Record<keyof Jobs, QueueRules>> = {
  'video-processing': { retryLimit: 3, retryDelaySeconds: 30, expireInSeconds: 6 * 3600 },
};

/** Minute 17 of every hour, UTC: away from the top of the hour, when other cron work tends to run. */
const HOURLY = '17 * * * *';
const EVERY_MINUTE = '* * * * *';

export async function startWorkers(ctx: Context, log: FastifyBaseLogger): Promise<void> {
  await ctx.jobs.work('mail', (mail) => ctx.mailer.send(mail));
  await ctx.jobs.work('password-reset', (request) => mailPasswordReset(ctx, request));
  await ctx.jobs.work('sign-in-link', (request) => mailSignInLink(ctx, request));
  await ctx.jobs.work('media-leftovers', async () => void (await sweepMediaLeftovers(ctx, { olderThanMs: LEFTOVER_AGE_MS, log })));
  await ctx.jobs.schedule('media-leftovers', HOURLY, {});
  await ctx.jobs.work('billing-pdf', (job) => makeDocumentPdf(ctx, job));
  await ctx.jobs.work('billing-pdf-stalled', async () => void (await queueStalledPdfs(ctx)));
  await ctx.jobs.schedule('billing-pdf-stalled', EVERY_MINUTE, {});
  await ctx.jobs.work('lifecycle-mail', (job) => sendLifecycleMail(ctx, job));
  await ctx.jobs.work('lifecycle-mail-unsent', async () => void (await queueUnsentMails(ctx)));
  await ctx.jobs.schedule('lifecycle-mail-unsent', EVERY_MINUTE, {});
  await ctx.jobs.work('renewal-reminders', async () => void (await queueRenewalReminders(ctx)));
  await ctx.jobs.schedule('renewal-reminders', HOURLY, {});
  await ctx.jobs.work('subscription-plan', (job) => changeProviderPlan(ctx, job));
  await ctx.jobs.work('abandoned-checkouts', async () => void (await dropAbandonedCheckouts(ctx, log)));
  await ctx.jobs.schedule('abandoned-checkouts', HOURLY, {});

  // Without a working ffmpeg, uploads stay `waiting` and play as MP4; their jobs wait in the queue
  // for an instance that has one (and restartStalledVideos queues them again if they were lost).
  if (!ctx.video.available) {
    if (ctx.config.video.processing) log.warn(`video processing is off: ${ctx.video.reason}`);
    return;
  }
  const { tools } = ctx.video;
  log.info({ ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe }, `videos are processed with ${describeFfmpeg(tools.build)}`);
  const outdated = ffmpegWarning(tools.build);
  if (outdated) log.warn(outdated);
  await ctx.jobs.work(
    'video-processing',
    (job, { finalAttempt, signal }) => processLectureVideo(ctx, tools, job, { finalAttempt, log, signal }),
    { concurrency: ctx.config.video.jobsPerInstance },
  );
  await ctx.jobs.work('video-stalled', () => restartStalledVideos(ctx, log));
  await ctx.jobs.schedule('video-stalled', EVERY_MINUTE, {});
  await restartStalledVideos(ctx, log);
}
