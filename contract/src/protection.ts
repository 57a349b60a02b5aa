import { z } from 'zod';
import { answers } from './answers.ts';
import { FailureSchema, ReplySchema as Reply } from './envelope.ts';
import { WATERMARK_ALPHABET, WATERMARK_CODE_LENGTH, normaliseCode } from './watermark-code.ts';

// Content protection: how many streams an account may play at once (leases renewed by a heartbeat),
// the account's signed-in sessions, the watermark every stream carries, and what an administrator
// does with a leaked clip (trace its code to an account). No web player can stop a screen
// recording; these limit sharing and make a recording traceable (docs/decisions/0031).

/** How often the player renews its lease; a lease lapses LEASE_SECONDS after its last heartbeat. */
export const HEARTBEAT_SECONDS = 30;
export const LEASE_SECONDS = 75;

export { codeForDisplay, normaliseCode, WATERMARK_ALPHABET, WATERMARK_CODE_LENGTH } from './watermark-code.ts';

// ---- Settings -------------------------------------------------------------------------------

export const WATERMARK_SIZES = ['small', 'medium', 'large'] as const;
export type WatermarkSize = (typeof WATERMARK_SIZES)[number];

// Every refusal names the range: an empty box, a fraction and a number out of range all get the same answer.
const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: answers.settingRange(label, min, max) })
    .int(answers.settingRange(label, min, max))
    .min(min, answers.settingRange(label, min, max))
    .max(max, answers.settingRange(label, min, max));

/** What the administrator sets on the settings page ("Content protection"). */
export const ProtectionSettingsSchema = z.object({
  /** Devices an account may play on at once (administrators are not limited). */
  maxStreams: whole('Simultaneous streams', 1, 10),
  /** Signed-in devices an account may keep; 0: no limit. Past it, the oldest session ends. */
  maxDevices: whole('Signed-in devices', 0, 20),
  /** The watermark's opacity, in percent. */
  watermarkOpacity: whole('Watermark opacity', 10, 60),
  watermarkSize: z.enum(WATERMARK_SIZES, { error: answers.settingInvalid('Watermark size') }),
  /** Sharing risk: accounts seen from more than this many address blocks in 24 hours. */
  riskAddressBlocks: whole('Address blocks', 2, 50),
  /** Sharing risk: accounts refused a stream more than this many times in 24 hours. */
  riskRefusals: whole('Refused streams', 1, 500),
});
export type ProtectionSettings = z.infer<typeof ProtectionSettingsSchema>;

export const DEFAULT_PROTECTION: ProtectionSettings = {
  maxStreams: 2,
  maxDevices: 0,
  watermarkOpacity: 30,
  watermarkSize: 'medium',
  riskAddressBlocks: 4,
  riskRefusals: 10,
};

/** The settings page's view: the effective values, and those the server's environment sets (MAX_STREAMS, MAX_DEVICES), which win. */
export const ProtectionViewSchema = ProtectionSettingsSchema.extend({
  fromEnvironment: z.object({ maxStreams: z.boolean(), maxDevices: z.boolean() }),
});
export type ProtectionView = z.infer<typeof ProtectionViewSchema>;

// ---- Playback: leases and watermark codes ---------------------------------------------------

export const StartPlaybackSchema = z.object({ lectureId: z.uuid({ error: answers.invalidRequest }) });
export const PlaybackParamsSchema = z.object({ id: z.uuid({ error: answers.notFound }) });

/** Another device playing on the account, as the refusal names it. */
export const StreamSchema = z.object({
  /** The playback: `DELETE /playback/:id` stops it ("Stop playback there"). */
  id: z.uuid(),
  /** "Chrome on Windows", from the user agent. */
  device: z.string(),
  /** The address block it plays from: "203.0.113.0/24", or "Local network". */
  place: z.string(),
  lectureTitle: z.string().nullable(),
  lastSeenAt: z.iso.datetime(),
  /** This very browser session (another tab of it). */
  thisSession: z.boolean(),
});
export type Stream = z.infer<typeof StreamSchema>;

export const WatermarkSchema = z.object({
  /** The viewer's email, masked: "ra•••@gmail.com". */
  text: z.string(),
  /** This playback's code, as stored (WATERMARK_CODE_LENGTH characters of WATERMARK_ALPHABET). */
  code: z.string(),
  opacity: z.number().int(),
  size: z.enum(WATERMARK_SIZES),
});
export type Watermark = z.infer<typeof WatermarkSchema>;

export const PlaybackSchema = z.object({
  id: z.uuid(),
  watermark: WatermarkSchema,
  heartbeatSeconds: z.number().int(),
  /** When the lease lapses without a heartbeat. */
  endsAt: z.iso.datetime(),
});
export type Playback = z.infer<typeof PlaybackSchema>;

export const PlaybackResponseSchema = Reply.extend({ playback: PlaybackSchema });
/** 409: the account plays on as many devices as it may; `streams` names them. */
export const StreamLimitSchema = FailureSchema.extend({ limit: z.number().int(), streams: z.array(StreamSchema) });
export type StreamLimit = z.infer<typeof StreamLimitSchema>;
export const HeartbeatResponseSchema = Reply.extend({ endsAt: z.iso.datetime() });
export const StreamsResponseSchema = Reply.extend({ limit: z.number().int().nullable(), streams: z.array(StreamSchema) });

// ---- Sessions and devices -------------------------------------------------------------------

export const SessionParamsSchema = z.object({ id: z.uuid({ error: answers.notFound }) });

export const SignedInSessionSchema = z.object({
  id: z.uuid(),
  /** "Chrome 131", "Safari", or "Unknown browser". */
  browser: z.string(),
  /** "Windows 10", "iOS 18.1", or "Unknown system". */
  os: z.string(),
  /** "mobile", "tablet" or "desktop". */
  deviceType: z.enum(['mobile', 'tablet', 'desktop']),
  /** The address block last seen: "203.0.113.0/24", or "Local network". */
  place: z.string(),
  firstSeenAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** The session this request comes from. */
  current: z.boolean(),
});
export type SignedInSession = z.infer<typeof SignedInSessionSchema>;
export const SessionsResponseSchema = Reply.extend({ sessions: z.array(SignedInSessionSchema) });
export const SessionsEndedResponseSchema = Reply.extend({ ended: z.number().int() });

// ---- Administrators: leak trace, sharing risk, suspension -----------------------------------

export const TraceQuerySchema = z.object({
  /** A code or part of one (at least 4 characters once normalised), as read off a clip. */
  code: z
    .string({ error: answers.traceCodeShort })
    .max(40, answers.traceCodeShort)
    .transform(normaliseCode)
    .refine(
      (code) => code.length >= 4 && code.length <= WATERMARK_CODE_LENGTH && [...code].every((c) => WATERMARK_ALPHABET.includes(c)),
      answers.traceCodeShort,
    ),
});

export const AccountSummarySchema = z.object({
  _id: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  role: z.enum(['USER', 'ADMIN']),
  suspended: z.boolean(),
  /** Signed-in sessions the account has now. */
  activeSessions: z.number().int(),
});
export type AccountSummary = z.infer<typeof AccountSummarySchema>;

export const TracedPlaybackSchema = z.object({
  code: z.string(),
  account: AccountSummarySchema,
  /** Null once the lecture was deleted. */
  lecture: z.object({ _id: z.uuid(), title: z.string(), courseId: z.uuid(), courseTitle: z.string() }).nullable(),
  startedAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  place: z.string(),
  device: z.string(),
});
export type TracedPlayback = z.infer<typeof TracedPlaybackSchema>;
/** The playbacks whose code contains the one asked for, newest first (at most 20). */
export const TraceResponseSchema = Reply.extend({ playbacks: z.array(TracedPlaybackSchema) });

export const SharingRiskSchema = z.object({
  account: AccountSummarySchema,
  /** Distinct address blocks seen in the window (sign-ins, playbacks, refusals). */
  addressBlocks: z.number().int(),
  /** Streams refused for the limit in the window. */
  refusals: z.number().int(),
  lastSeenAt: z.iso.datetime().nullable(),
});
export type SharingRisk = z.infer<typeof SharingRiskSchema>;
export const SharingRiskResponseSchema = Reply.extend({
  windowHours: z.number().int(),
  addressBlocks: z.number().int(),
  refusals: z.number().int(),
  accounts: z.array(SharingRiskSchema),
});

export const AccountParamsSchema = z.object({ id: z.uuid({ error: answers.notFound }) });
export const SuspensionSchema = z
  .object({
    suspended: z.boolean({ error: answers.invalidRequest }),
    /** Why, mailed to the learner and kept in the audit trail; needed to suspend, optional to restore. */
    reason: z.string().trim().max(500, answers.suspensionReasonInvalid).optional(),
  })
  .refine((body) => !body.suspended || (body.reason ?? '').length >= 2, answers.suspensionReasonNeeded);
export const AccountResponseSchema = Reply.extend({ account: AccountSummarySchema });
