import type { QueueRules } from './job-queue.ts';
import type { Mail } from './mail.ts';

/**
 * Every job the queue (job-queue.ts) runs, with what it carries; workers.ts names the service
 * function that does each. The background counterpart of routes.ts. Types only, and nothing
 * that imports the Context: the Context names this table.
 */
export interface Jobs {
  /** An outgoing mail, sent with the configured transport; queueMail puts it here. */
  mail: Mail;
  /**
   * A forgot-password request: a reset link for an account with this email, nothing otherwise.
   * The job makes the link and mails it itself: no job's data ever holds one.
   */
  'password-reset': { email: string };
  /** An administrator changed an account's email: a confirmation link made and mailed to the new address by the job, as reset links are. */
  'email-change': { userId: string; newEmail: string; requestedById: string };
  /** The right password past the account's login ceiling from an unknown browser: a one-time sign-in link, mailed as reset links are. */
  'sign-in-link': { userId: string };
  /** Unfinished uploads and files no row refers to, removed from media storage; hourly, on one instance. */
  'media-leftovers': Record<string, never>;
  /**
   * A lecture's video probed, given a poster and an HLS ladder (features/video). `run` is the run
   * this job is: it works only while the lecture names it.
   */
  'video-processing': { lectureId: string; run: string };
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
  /** Drafts whose publishing time has come, published (features/courses); every minute. */
  'scheduled-publishing': Record<string, never>;
  /** Checkouts left unpaid for a day, cancelled at the provider, their coupon uses given back; hourly. */
  'abandoned-checkouts': Record<string, never>;
  /**
   * A learner completed a lecture: their certificate of its course issued if they have now earned
   * it (features/certificates), once. Queued on every completion; the job reads the rule itself.
   */
  'certificate-earned': { userId: string; courseId: string };
  /** A certificate's PDF, made (again, after the learner chose their name) and stored privately. */
  'certificate-pdf': { certificateId: string };
  /** Certificates whose PDF was never queued (a process died after the commit), queued again; every minute. */
  'certificate-pdf-stalled': Record<string, never>;
  /** Complimentary access whose end has passed, closed, mailed and audited (features/learners); every minute. */
  'complimentary-expiry': Record<string, never>;
  /** Administrators' refunds whose provider answer was lost, settled from the provider's list of refunds (features/learners); every minute. */
  'admin-refunds-pending': Record<string, never>;
  /** Playbacks and refused streams past the time they are kept for (features/protection); hourly. */
  'playback-history': Record<string, never>;
}

/**
 * Queues whose jobs need other rules than the default (8 retries from 15 s): a transcode that
 * failed three times will fail a fourth, and one may run for hours (a 2 GB lecture).
 */
export const QUEUE_RULES: Partial<Record<keyof Jobs, QueueRules>> = {
  'video-processing': { retryLimit: 3, retryDelaySeconds: 30, expireInSeconds: 6 * 3600 },
};
