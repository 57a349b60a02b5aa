import { z } from 'zod';
import { answers } from './answers.ts';
import { AuditEntrySchema } from './audit.ts';
import { BillingDocumentSchema } from './billing.ts';
import { ReplySchema as Reply } from './envelope.ts';
import { SignedInSessionSchema } from './protection.ts';
import { AccountEmailSchema } from './users.ts';

// Learner management (decision 0035): the administrator finds a learner, reads their money and
// progress on one page, grants or revokes complimentary access, refunds a payment through the
// provider, suspends, ends sessions, changes an email, and exports the learners as CSV. Every
// one of those actions is written to the audit trail (audit.ts).

/**
 * Where a learner stands, one word each, in this order of precedence (a cancelled trial is
 * `cancelled`; a subscriber who was also given complimentary days is `subscribed`):
 * - `cancelled`: cancelled without a refund, access until the paid period ends;
 * - `trial`: in a free trial;
 * - `subscribed`: paid for a period that has not ended, renewing;
 * - `complimentary`: access granted by an administrator, no payment;
 * - `lapsed`: paid once, no access now;
 * - `never_paid`: never paid, no access.
 */
export const LEARNER_STATES = ['subscribed', 'trial', 'complimentary', 'cancelled', 'lapsed', 'never_paid'] as const;
export type LearnerState = (typeof LEARNER_STATES)[number];

/** What the state is called on the pages and in the CSV. */
export const LEARNER_STATE_LABELS: Record<LearnerState, string> = {
  subscribed: 'Subscribed',
  trial: 'Trial',
  complimentary: 'Complimentary',
  cancelled: 'Cancelled, with access',
  lapsed: 'Lapsed',
  never_paid: 'Never paid',
};

/** The account's columns the state is read from (users), as dates or null. */
export interface StateColumns {
  subscriptionEndsAt: Date | null;
  subscriptionCancelledAt: Date | null;
  trialEndsAt: Date | null;
  complimentaryUntil: Date | null;
  firstPaidAt: Date | null;
}

/** The one reading of LEARNER_STATES' rule; the server's SQL filters say the same (a test holds them together). */
export function learnerStateOf(user: StateColumns, now = new Date()): LearnerState {
  const paidAccess = user.subscriptionEndsAt !== null && user.subscriptionEndsAt > now;
  if (paidAccess && user.subscriptionCancelledAt !== null) return 'cancelled';
  if (paidAccess && user.trialEndsAt !== null && user.trialEndsAt > now) return 'trial';
  if (paidAccess) return 'subscribed';
  if (user.complimentaryUntil !== null && user.complimentaryUntil > now) return 'complimentary';
  return user.firstPaidAt !== null ? 'lapsed' : 'never_paid';
}

export const LEARNER_SORTS = ['signed_up', 'last_active'] as const;
export type LearnerSort = (typeof LEARNER_SORTS)[number];

/** Search words: at most this long. */
export const LEARNER_SEARCH_MAX = 100;

/** The learners list: a search (name or email, any part, any case), a state, an order, and the cursor of the page after. */
export const LearnersQuerySchema = z.object({
  q: z.string().trim().max(LEARNER_SEARCH_MAX, answers.learnerSearchTooLong).optional(),
  state: z.enum(LEARNER_STATES, { error: answers.learnerStateInvalid }).optional(),
  sort: z.enum(LEARNER_SORTS, { error: answers.learnerSortInvalid }).default('signed_up'),
  /** The `nextCursor` of the page before: opaque. */
  cursor: z.string().max(200, answers.learnerCursorInvalid).optional(),
  limit: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(100, answers.invalidPage).default(50),
});
export type LearnersQuery = z.input<typeof LearnersQuerySchema>;

/** The CSV of learners: the list's search and state, every row. */
export const LearnersExportQuerySchema = LearnersQuerySchema.pick({ q: true, state: true });
export type LearnersExportQuery = z.input<typeof LearnersExportQuerySchema>;

export const LearnerRowSchema = z.object({
  _id: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  avatarUrl: z.string(),
  role: z.enum(['USER', 'ADMIN']),
  state: z.enum(LEARNER_STATES),
  /** The plan of the latest subscription, if any. */
  plan: z.string().nullable(),
  suspended: z.boolean(),
  signedUpAt: z.iso.datetime(),
  /** The last request seen from the account (written every few minutes at most); null if never signed in since. */
  lastActiveAt: z.iso.datetime().nullable(),
  /** Rupees paid, less what was refunded. */
  lifetimePaid: z.number(),
});
export type LearnerRow = z.infer<typeof LearnerRowSchema>;
export const LearnersResponseSchema = Reply.extend({ learners: z.array(LearnerRowSchema), nextCursor: z.string().nullable() });

export const LearnerParamsSchema = z.object({ id: z.uuid({ error: answers.notFound }) });
export const PaymentParamsSchema = z.object({ id: z.uuid({ error: answers.notFound }) });

// ---- One learner ----------------------------------------------------------------------------

export const GRANT_STATES = ['active', 'expired', 'revoked'] as const;

export const AccessGrantSchema = z.object({
  _id: z.uuid(),
  startsAt: z.iso.datetime(),
  endsAt: z.iso.datetime(),
  note: z.string(),
  /** The administrator's name, or null once their account is gone. */
  grantedBy: z.string().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  revokedBy: z.string().nullable(),
  state: z.enum(GRANT_STATES),
});
export type AccessGrant = z.infer<typeof AccessGrantSchema>;

export const REFUND_STATES = ['pending', 'processed', 'failed'] as const;

export const AdminRefundSchema = z.object({
  _id: z.uuid(),
  /** Rupees. */
  amount: z.number(),
  state: z.enum(REFUND_STATES),
  /** What the provider said when it refused. */
  failure: z.string().nullable(),
  note: z.string(),
  /** Whether access ended with it (`now`) or runs to the paid period's end. */
  access: z.enum(['now', 'period_end']),
  by: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AdminRefund = z.infer<typeof AdminRefundSchema>;

export const LearnerPaymentSchema = z.object({
  _id: z.uuid(),
  paidAt: z.iso.datetime(),
  description: z.string(),
  /** Rupees charged, and refunded so far (by the learner's cancellation or an administrator). */
  amount: z.number(),
  refunded: z.number(),
  status: z.enum(['paid', 'partly_refunded', 'refunded']),
  invoice: BillingDocumentSchema.nullable(),
  creditNotes: z.array(BillingDocumentSchema),
  /** Refunds an administrator asked for, newest first. */
  refunds: z.array(AdminRefundSchema),
});
export type LearnerPayment = z.infer<typeof LearnerPaymentSchema>;

export const LearnerSubscriptionSchema = z.object({
  _id: z.uuid(),
  plan: z.string().nullable(),
  /** The provider's status: created, authenticated, active, pending, halted, cancelled, completed, expired. */
  status: z.string(),
  createdAt: z.iso.datetime(),
  currentEnd: z.iso.datetime().nullable(),
  cancelledAt: z.iso.datetime().nullable(),
  trialDays: z.number().int(),
  paidCount: z.number().int(),
  coupon: z.string().nullable(),
});

export const LearnerCourseProgressSchema = z.object({
  courseId: z.uuid(),
  title: z.string(),
  startedAt: z.iso.datetime(),
  lastWatchedAt: z.iso.datetime(),
  completedLectures: z.number().int(),
  lectureCount: z.number().int(),
  percent: z.number().int(),
  completed: z.boolean(),
});

export const LearnerQuizSchema = z.object({
  quizId: z.uuid(),
  quizTitle: z.string(),
  courseId: z.uuid(),
  courseTitle: z.string(),
  attempts: z.number().int(),
  /** Percent; null before a graded attempt. */
  bestScore: z.number().int().nullable(),
  passed: z.boolean(),
});

export const LearnerCertificateSchema = z.object({
  code: z.string(),
  courseTitle: z.string(),
  issuedAt: z.iso.datetime(),
  revokedAt: z.iso.datetime().nullable(),
});

export const LearnerCancellationSchema = z.object({
  at: z.iso.datetime(),
  reason: z.string().nullable(),
  note: z.string().nullable(),
  refunded: z.boolean(),
  accessUntil: z.iso.datetime(),
});

export const LearnerDetailSchema = z.object({
  profile: z.object({
    _id: z.uuid(),
    fullName: z.string(),
    email: z.string(),
    avatarUrl: z.string(),
    role: z.enum(['USER', 'ADMIN']),
    signedUpAt: z.iso.datetime(),
    lastActiveAt: z.iso.datetime().nullable(),
    /** An address the administrator changed the email to, waiting for its owner to confirm it. */
    pendingEmail: z.string().nullable(),
    suspendedAt: z.iso.datetime().nullable(),
    suspensionReason: z.string().nullable(),
    certificateName: z.string().nullable(),
  }),
  state: z.enum(LEARNER_STATES),
  /** Until when they may watch, and why: their paid period, or complimentary access; null without access. */
  access: z.object({ until: z.iso.datetime(), source: z.enum(['subscription', 'complimentary']) }).nullable(),
  grants: z.array(AccessGrantSchema),
  subscriptions: z.array(LearnerSubscriptionSchema),
  payments: z.array(LearnerPaymentSchema),
  progress: z.array(LearnerCourseProgressSchema),
  sessions: z.array(SignedInSessionSchema),
  quizzes: z.array(LearnerQuizSchema),
  certificates: z.array(LearnerCertificateSchema),
  cancellations: z.array(LearnerCancellationSchema),
  /** The latest entries of the audit trail about this learner. */
  activity: z.array(AuditEntrySchema),
});
export type LearnerDetail = z.infer<typeof LearnerDetailSchema>;
export const LearnerResponseSchema = Reply.extend({ learner: LearnerDetailSchema });

// ---- What an administrator does ---------------------------------------------------------------

/** Why: every action on a learner says it, for the audit trail. */
const note = (error: string) => z.string({ error }).trim().min(2, error).max(200, error);
export const GRANT_DAYS_MAX = 3650;

/** Complimentary access for `days` from now, or until the end of `until` (a date, India's calendar): one of the two. */
export const GrantAccessSchema = z
  .object({
    days: z
      .number({ error: answers.grantDaysInvalid })
      .int(answers.grantDaysInvalid)
      .min(1, answers.grantDaysInvalid)
      .max(GRANT_DAYS_MAX, answers.grantDaysInvalid)
      .optional(),
    until: z.iso.date({ error: answers.grantUntilInvalid }).optional(),
    note: note(answers.grantNoteInvalid),
  })
  .refine((body) => (body.days === undefined) !== (body.until === undefined), answers.grantDaysOrUntil);
export type GrantAccess = z.infer<typeof GrantAccessSchema>;

export const RevokeAccessSchema = z.object({ note: note(answers.revokeNoteInvalid) });

/** A refund: `key` is made when the dialog opens, so a second click of the same dialog is the same refund. */
export const RefundRequestSchema = z.object({
  key: z.uuid({ error: answers.invalidRequest }),
  /** Rupees, to the paisa. */
  amount: z
    .number({ error: answers.refundAmountInvalid })
    .positive(answers.refundAmountInvalid)
    .max(10_000_000, answers.refundAmountInvalid)
    .refine((rupees) => Math.abs(rupees * 100 - Math.round(rupees * 100)) < 1e-6, answers.refundAmountInvalid),
  access: z.enum(['now', 'period_end'], { error: answers.refundAccessInvalid }),
  note: note(answers.refundNoteInvalid),
});
export type RefundRequest = z.infer<typeof RefundRequestSchema>;
export const RefundResponseSchema = Reply.extend({ refund: AdminRefundSchema });

export const EmailChangeSchema = z.object({
  email: AccountEmailSchema,
  note: note(answers.emailChangeNoteInvalid),
});
/** The link mailed to the new address. */
export const EmailChangeTokenParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, answers.emailChangeLinkInvalid) });

export const ResendDocumentSchema = z.object({ note: z.string().trim().max(200, answers.invalidRequest).optional() });
