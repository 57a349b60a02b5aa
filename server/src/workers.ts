import type { FastifyBaseLogger } from 'fastify';
import type { Context } from './context.ts';
import { mailPasswordReset, mailSignInLink } from './features/auth/auth.service.ts';
import { makeDocumentPdf } from './features/billing/billing-pdf.ts';
import { queueStalledPdfs } from './features/billing/billing.service.ts';
import { queueRenewalReminders, queueUnsentMails, sendLifecycleMail } from './features/billing/lifecycle-mail.ts';
import { LEFTOVER_AGE_MS, sweepMediaLeftovers } from './features/media/leftovers.ts';
import { processLectureVideo, restartStalledVideos } from './features/video/video-processing.ts';
import { describeFfmpeg, ffmpegWarning } from './features/video/ffmpeg.ts';
import { publishDueCourses } from './features/courses/publishing.service.ts';
import { dropAbandonedCheckouts } from './features/payments/checkout.service.ts';
import { changeProviderPlan } from './features/payments/charges.service.ts';
import { makeCertificatePdf, queueStalledCertificatePdfs } from './features/certificates/certificate-pdf.ts';
import { issueEarnedCertificate } from './features/certificates/certificates.service.ts';
import { forgetOldPlaybacks } from './features/protection/playback.service.ts';
import { expireGrants } from './features/learners/access.service.ts';
import { mailEmailChangeLink } from './features/learners/email-change.service.ts';
import { reconcilePendingRefunds } from './features/learners/refunds.service.ts';

/** Minute 17 of every hour, UTC: away from the top of the hour, when other cron work tends to run. */
const HOURLY = '17 * * * *';
const EVERY_MINUTE = '* * * * *';

export async function startWorkers(ctx: Context, { log }: { log: FastifyBaseLogger }): Promise<void> {
  await ctx.jobs.work('mail', (mail) => ctx.mailer.send(mail));
  await ctx.jobs.work('password-reset', (request) => mailPasswordReset(ctx, request));
  await ctx.jobs.work('sign-in-link', (request) => mailSignInLink(ctx, request));
  await ctx.jobs.work('email-change', (job) => mailEmailChangeLink(ctx, job));
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
  await ctx.jobs.work('abandoned-checkouts', async () => void (await dropAbandonedCheckouts(ctx, { log })));
  await ctx.jobs.schedule('abandoned-checkouts', HOURLY, {});
  await ctx.jobs.work('scheduled-publishing', async () => void (await publishDueCourses(ctx, { log })));
  await ctx.jobs.schedule('scheduled-publishing', EVERY_MINUTE, {});
  await ctx.jobs.work('certificate-earned', async (job) => void (await issueEarnedCertificate(ctx, job)));
  await ctx.jobs.work('certificate-pdf', (job) => makeCertificatePdf(ctx, job));
  await ctx.jobs.work('certificate-pdf-stalled', async () => void (await queueStalledCertificatePdfs(ctx)));
  await ctx.jobs.schedule('certificate-pdf-stalled', EVERY_MINUTE, {});
  await ctx.jobs.work('playback-history', async () => void (await forgetOldPlaybacks(ctx)));
  await ctx.jobs.schedule('playback-history', HOURLY, {});
  await ctx.jobs.work('complimentary-expiry', async () => void (await expireGrants(ctx)));
  await ctx.jobs.schedule('complimentary-expiry', EVERY_MINUTE, {});
  await ctx.jobs.work('admin-refunds-pending', async () => void (await reconcilePendingRefunds(ctx, { log })));
  await ctx.jobs.schedule('admin-refunds-pending', EVERY_MINUTE, {});

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
  await ctx.jobs.work('video-processing', (job, { finalAttempt, signal }) => processLectureVideo(ctx, tools, job, { finalAttempt, log, signal }), {
    concurrency: ctx.config.video.jobsPerInstance,
  });
  await ctx.jobs.work('video-stalled', () => restartStalledVideos(ctx, { log }));
  await ctx.jobs.schedule('video-stalled', EVERY_MINUTE, {});
  await restartStalledVideos(ctx, { log });
}
