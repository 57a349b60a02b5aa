import { z } from 'zod';
import { answers } from './answers.ts';
import { ReplySchema as Reply } from './envelope.ts';

// The audit trail (decision 0035): every administrator's action on people, money, settings and
// content, appended and never changed: who, what, when, on what, and why. The Activity page reads
// it with filters and exports it as CSV.

export const AUDIT_AREAS = ['people', 'money', 'content', 'settings'] as const;
export type AuditArea = (typeof AUDIT_AREAS)[number];

export const AUDIT_AREA_LABELS: Record<AuditArea, string> = { people: 'People', money: 'Money', content: 'Content', settings: 'Settings' };

/**
 * Every action the trail records, with its area and how the Activity page says it. The
 * administrator's writes through the API are named `<group>.<endpoint>` as in endpoints.ts; a
 * test checks that each of them is here. The rest are written by the services themselves, inside
 * the transaction of the change (with its reason), or by the queue (`access.expire`, actor null).
 */
export const AUDIT_ACTIONS = {
  // People
  'learners.grantAccess': { area: 'people', label: 'Granted complimentary access' },
  'learners.revokeAccess': { area: 'people', label: 'Revoked complimentary access' },
  'access.expire': { area: 'people', label: 'Complimentary access ended' },
  'learners.changeEmail': { area: 'people', label: 'Changed email (waiting for confirmation)' },
  'email.confirm': { area: 'people', label: 'Email change confirmed' },
  'protection.suspend': { area: 'people', label: 'Suspended account' },
  'protection.restore': { area: 'people', label: 'Restored account' },
  'protection.endSessions': { area: 'people', label: 'Ended sessions' },
  'certificates.issue': { area: 'people', label: 'Issued certificate' },
  'certificates.revoke': { area: 'people', label: 'Revoked or restored certificate' },
  // Money
  'learners.refund': { area: 'money', label: 'Refunded payment' },
  'learners.resendDocument': { area: 'money', label: 'Resent invoice or credit note' },
  'plans.create': { area: 'money', label: 'Created plan' },
  'plans.update': { area: 'money', label: 'Changed plan' },
  'coupons.create': { area: 'money', label: 'Created coupon' },
  'coupons.update': { area: 'money', label: 'Changed coupon' },
  // Content
  'courses.create': { area: 'content', label: 'Created course' },
  'courses.update': { area: 'content', label: 'Edited course' },
  'courses.delete': { area: 'content', label: 'Deleted course' },
  'courses.publish': { area: 'content', label: 'Published or scheduled course' },
  'courses.unpublish': { area: 'content', label: 'Unpublished course' },
  'lectures.add': { area: 'content', label: 'Added lecture' },
  'lectures.delete': { area: 'content', label: 'Deleted lecture' },
  'lectures.update': { area: 'content', label: 'Edited lecture' },
  'lectures.move': { area: 'content', label: 'Moved lecture' },
  'lectures.addSection': { area: 'content', label: 'Added section' },
  'lectures.renameSection': { area: 'content', label: 'Renamed section' },
  'lectures.deleteSection': { area: 'content', label: 'Deleted section' },
  'lectures.moveSection': { area: 'content', label: 'Moved section' },
  'lectures.retryProcessing': { area: 'content', label: 'Retried video processing' },
  'lectures.replaceVideo': { area: 'content', label: 'Replaced lecture video' },
  'resources.add': { area: 'content', label: 'Added lecture file' },
  'resources.delete': { area: 'content', label: 'Deleted lecture file' },
  'captions.add': { area: 'content', label: 'Added captions' },
  'captions.replace': { area: 'content', label: 'Replaced captions' },
  'captions.update': { area: 'content', label: 'Changed captions' },
  'captions.saveCues': { area: 'content', label: 'Edited captions' },
  'captions.delete': { area: 'content', label: 'Deleted captions' },
  'quizzes.create': { area: 'content', label: 'Added quiz' },
  'quizzes.update': { area: 'content', label: 'Saved quiz' },
  'quizzes.place': { area: 'content', label: 'Moved quiz' },
  'quizzes.delete': { area: 'content', label: 'Deleted quiz' },
  // Settings
  'settings.update': { area: 'settings', label: 'Changed site settings' },
  'settings.setLogo': { area: 'settings', label: 'Changed logo' },
  'settings.removeLogo': { area: 'settings', label: 'Removed logo' },
  'legalPages.update': { area: 'settings', label: 'Edited legal page' },
  'legalPages.reset': { area: 'settings', label: 'Reset legal page' },
} as const satisfies Record<string, { area: AuditArea; label: string }>;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export const AuditEntrySchema = z.object({
  /** Ever increasing: the newest entry has the largest. */
  _id: z.string(),
  at: z.iso.datetime(),
  /** The administrator (name and email as they were then); null for the queue's own entries. */
  actor: z.object({ _id: z.uuid().nullable(), name: z.string(), email: z.string() }).nullable(),
  action: z.string(),
  area: z.enum(AUDIT_AREAS),
  /** What it was done to: a learner, a payment, a course…, with how it was called then. */
  target: z.object({ type: z.string(), _id: z.string().nullable(), label: z.string() }).nullable(),
  /** The reason or note given with it. */
  reason: z.string().nullable(),
  /** What changed, in a few words: "30 days, until 28 Dec 2026", "₹99.00 of ₹99.00, access ended now". */
  summary: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const ActivityFilterSchema = z.object({
  area: z.enum(AUDIT_AREAS, { error: answers.activityFilterInvalid }).optional(),
  action: z.enum(AUDIT_ACTION_NAMES as [AuditAction, ...AuditAction[]], { error: answers.activityFilterInvalid }).optional(),
  /** The administrator who acted. */
  actorId: z.uuid({ error: answers.activityFilterInvalid }).optional(),
  /** What was acted on (a learner's id, a course's…). */
  targetId: z.uuid({ error: answers.activityFilterInvalid }).optional(),
  /** Days, India's calendar, both included. */
  from: z.iso.date({ error: answers.activityFilterInvalid }).optional(),
  to: z.iso.date({ error: answers.activityFilterInvalid }).optional(),
});
export const ActivityQuerySchema = ActivityFilterSchema.extend({
  /** The `nextCursor` of the page before. */
  cursor: z
    .string()
    .regex(/^\d{1,19}$/, answers.activityFilterInvalid)
    .optional(),
  limit: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(100, answers.invalidPage).default(50),
});
export type ActivityQuery = z.input<typeof ActivityQuerySchema>;
export const ActivityExportQuerySchema = ActivityFilterSchema;
export type ActivityExportQuery = z.input<typeof ActivityExportQuerySchema>;

export const ActivityResponseSchema = Reply.extend({
  entries: z.array(AuditEntrySchema),
  nextCursor: z.string().nullable(),
  /** The administrators who appear in the trail, for the filter. */
  actors: z.array(z.object({ _id: z.uuid(), name: z.string(), email: z.string() })),
});
