import { sql } from 'drizzle-orm';
import { COURSE_STATUSES } from '@lms/contract/courses';
import { VIDEO_STATES } from '@lms/contract/lectures';
import type { Answer, AuthoredQuestion } from '@lms/contract/quizzes';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('role', ['USER', 'ADMIN']);

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    fullName: text().notNull(),
    /** Stored lower-cased, so the unique constraint is case-insensitive. */
    email: text().notNull().unique(),
    passwordHash: text().notNull(),
    role: roleEnum().notNull().default('USER'),
    /** Storage key of the re-encoded avatar; null for accounts made without one (CLI admins). */
    avatarKey: text(),
    /** The name printed on the user's certificates, chosen once; null until then (their full name is printed). */
    certificateName: text(),
    /** The end of the paid period: the user may watch lectures until then (see hasActiveSubscription). */
    subscriptionEndsAt: timestamp({ withTimezone: true }),
    /**
     * Set by a cancellation without a refund: no more renewals, access until subscriptionEndsAt.
     * Cleared when the user resumes or pays again. Kept here, beside the date, for `user/me`.
     */
    subscriptionCancelledAt: timestamp({ withTimezone: true }),
    /** Set for the initial administrator, whose password was printed: nothing works until they choose their own. */
    mustChangePassword: boolean().notNull().default(false),
    /** The learner's choice: at the end of a lecture, the next one starts after a short countdown. */
    autoplayNext: boolean().notNull().default(true),
    /** What the buyer wants on their invoices (features/billing); all optional. A GSTIN comes with a business name. */
    billingName: text(),
    billingGstin: text(),
    /** GST state code: the place of supply; unknown means the seller's state. */
    billingState: text(),
    billingAddress: text(),
    /** The user's first payment ever (refunded or not): when they became a subscriber, for the month's new subscribers. */
    firstPaidAt: timestamp({ withTimezone: true }),
    /** When the account's free trial began: one per account (features/plans, decision 0017). */
    trialUsedAt: timestamp({ withTimezone: true }),
    /** While in a free trial: its end, when the first payment is taken. Cleared by that payment. */
    trialEndsAt: timestamp({ withTimezone: true }),
    /** Set by an administrator (features/protection): the account cannot log in, and its sessions were ended. */
    suspendedAt: timestamp({ withTimezone: true }),
    /** Why, as the administrator gave it and the learner was mailed it. */
    suspensionReason: text(),
    /**
     * The end of complimentary access an administrator granted (access_grants): every course, no
     * payment. Null when none is in force; revoking or the expiry job sets it back to null.
     */
    complimentaryUntil: timestamp({ withTimezone: true }),
    /**
     * The last request seen from the account, written with its session's (features/auth/last-sight.ts)
     * every few minutes at most. Writing it alone tells no instance to drop its copies (migration 0020).
     */
    lastActiveAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (table) => [
    index().on(table.role, table.subscriptionEndsAt),
    // The learners list: newest sign-ups first (`created_at desc, id desc`), or most recently active
    // first (`last_active_at desc nulls last, id desc`), each read backwards, a page after a cursor.
    index('users_signed_up').on(table.createdAt, table.id),
    index('users_last_active').on(table.lastActiveAt.asc().nullsFirst(), table.id),
    // Search by any part of a name or email: trigram indexes (pg_trgm), made in migration 0020.
    index('users_complimentary')
      .on(table.complimentaryUntil)
      .where(sql`${table.complimentaryUntil} is not null`),
    index('users_trial')
      .on(table.trialEndsAt)
      .where(sql`${table.trialEndsAt} is not null`),
    // The engagement page's subscribers who stopped watching: those renewing, in renewal order, from the index alone.
    index('users_renewing')
      .on(table.subscriptionEndsAt, table.id)
      .where(sql`${table.role} = 'USER' and ${table.subscriptionCancelledAt} is null`),
    // Every column holding a media key is indexed and listed in MEDIA_KEY_COLUMNS (media/leftovers.ts):
    // the hourly sweep asks, a batch of keys at a time, which of them some row still refers to.
    index().on(table.avatarKey),
    index().on(table.firstPaidAt),
  ],
);

/** Login sessions: the cookie holds a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text().primaryKey(),
    /** What the account's list of devices names the session by: never the token's hash. */
    id: uuid().notNull().unique().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
    /** The browser's User-Agent as it signed in, cut to 300 characters: "Chrome on Windows" in the list of devices. */
    userAgent: text(),
    /** The address block (IPv4 /24, IPv6 /48) last seen: an approximate place without a lookup service. */
    addressBlock: text(),
    /** Written at most every few minutes (features/auth/last-sight.ts), not on every request. */
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.userId)],
);

/**
 * A playback: one device playing lectures, holding a lease (renewed by the player's heartbeat
 * until `endsAt`) and a watermark code shown over the video. The row stays after the lease ends:
 * it is how a code seen in a leaked clip is traced back to an account (features/protection).
 */
export const playbacks = pgTable(
  'playbacks',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Eight characters of Crockford's base 32 (WATERMARK_ALPHABET), unique. */
    code: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** sessions.id: kept after the session ends, to say which sign-in it was. */
    sessionId: uuid().notNull(),
    lectureId: uuid().references(() => lectures.id, { onDelete: 'set null' }),
    addressBlock: text().notNull(),
    /** "Chrome on Windows": the device as the refusal and the trace name it. */
    device: text().notNull(),
    startedAt: createdAt(),
    lastBeatAt: createdAt(),
    /** The lease lapses here unless a heartbeat moves it on. */
    endsAt: timestamp({ withTimezone: true }).notNull(),
    /** Stopped (from this device or another, by signing out, by suspension): the lease is over whatever endsAt says. */
    stoppedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.userId, table.endsAt), index().on(table.sessionId), index().on(table.startedAt)],
);

/** A playback refused for the account's limit of streams at once: counted for the sharing-risk list. */
export const streamRefusals = pgTable(
  'stream_refusals',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressBlock: text().notNull(),
    at: createdAt(),
  },
  (table) => [index().on(table.userId, table.at), index().on(table.at)],
);

/** The columns of a link mailed to open an account: a random token, stored hashed, single use, short-lived. */
const mailedLinkColumns = () => ({
  tokenHash: text().primaryKey(),
  userId: uuid()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
});

/** Forgot-password links. */
export const passwordResets = pgTable('password_resets', mailedLinkColumns(), (table) => [index().on(table.userId)]);

/**
 * One-time sign-in links, mailed when the right password arrives from an unknown browser while
 * the account's failed logins are past their ceiling (decision 0021): random, stored hashed,
 * single use, short-lived, as reset links are.
 */
export const signInLinks = pgTable('sign_in_links', mailedLinkColumns(), (table) => [index().on(table.userId)]);

/**
 * A position in an ordered list (sections of a course, lectures of a section): a fractional-indexing
 * key, so that moving one item writes one row, whatever the list's length. Keys compare byte by
 * byte, hence the "C" collation whatever the database's locale.
 */
const rank = customType<{ data: string }>({ dataType: () => 'text collate "C"' });

export const courses = pgTable(
  'courses',
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    description: text().notNull(),
    category: text().notNull(),
    /** The instructor's name, as the spec calls it. */
    createdBy: text().notNull(),
    thumbnailKey: text().notNull(),
    /** A draft is seen by administrators only; visitors and learners see published courses alone. */
    status: text({ enum: COURSE_STATUSES }).notNull().default('draft'),
    /** When a draft is to be published by the queue's scheduled-publishing job; null when none is planned. */
    publishAt: timestamp({ withTimezone: true }),
    /** When it was last published: the catalogue lists the newest first. Null while a draft. */
    publishedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (table) => [
    // The catalogue lists newest first, a page at a time: drafts (no publishedAt) first for administrators.
    index().on(table.publishedAt.desc().nullsFirst(), table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index().on(table.category),
    index().on(table.thumbnailKey),
    // The scheduled-publishing job looks for the few drafts with a date.
    index()
      .on(table.publishAt)
      .where(sql`${table.publishAt} is not null`),
    check('courses_status', sql`${table.status} in ('draft', 'published')`),
  ],
);

/** A course's chapters: lectures are grouped under them; a course without sections lists its lectures alone. */
export const courseSections = pgTable(
  'course_sections',
  {
    id: uuid().primaryKey().defaultRandom(),
    courseId: uuid()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    rank: rank().notNull(),
    createdAt: createdAt(),
  },
  (table) => [unique().on(table.courseId, table.rank)],
);

export const lectures = pgTable(
  'lectures',
  {
    id: uuid().primaryKey().defaultRandom(),
    courseId: uuid()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** The section it is listed under; null for a lecture of no section (every lecture of a course without sections). */
    sectionId: uuid().references(() => courseSections.id),
    /** Its place among the lectures of its section (or of no section): ordered by `rank`, see above. */
    rank: rank().notNull(),
    title: text().notNull(),
    description: text().notNull(),
    /** Storage key of the video; private, reached only through signed URLs. */
    videoKey: text().notNull(),
    videoType: text().notNull(),
    videoBytes: bigint({ mode: 'number' }).notNull(),
    /** Seconds, once the video pipeline has measured it; null until then. */
    durationSeconds: real(),
    /** A free preview: its video is issued to anyone, logged in or not. */
    isPreview: boolean().notNull().default(false),
    /** The video pipeline's state (VIDEO_STATES): waiting, processing, ready or failed; see features/video. */
    videoState: text({ enum: VIDEO_STATES }).notNull().default('waiting'),
    /** 0–100 while processing. */
    processingPercent: integer(),
    /** Why processing failed, for the admin. */
    processingError: text(),
    /** Which run of the job holds the lecture: a run that finds another's id here has been replaced, and stops. */
    processingRun: uuid(),
    /** Written by the run every few seconds; a run silent for longer than the stall limit died with its process, and is started again. */
    processingHeartbeatAt: timestamp({ withTimezone: true }),
    videoWidth: integer(),
    videoHeight: integer(),
    /** A frame of the video (public, WebP), once processed. */
    posterKey: text(),
    /** The folder of the HLS ladder (`hls/<hex>`: master playlist, rendition playlists, segments), once processed. */
    hlsKey: text(),
    /**
     * A new video uploaded to take this one's place: processed while the current video still
     * plays, then swapped in (its type and size beside it). Null when no replacement is pending.
     */
    replacementVideoKey: text(),
    replacementVideoType: text(),
    replacementVideoBytes: bigint({ mode: 'number' }),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.courseId, table.createdAt),
    // Two lectures never share a place: a reorder that lost a race fails rather than duplicate it.
    unique().on(table.courseId, table.sectionId, table.rank).nullsNotDistinct(),
    index().on(table.sectionId),
    index().on(table.replacementVideoKey),
    index().on(table.videoKey),
    index().on(table.posterKey),
    index().on(table.hlsKey),
    // The stall check looks for lectures still waiting or processing: few, among many ready ones.
    index()
      .on(table.videoState)
      .where(sql`${table.videoState} in ('waiting', 'processing')`),
    check('lectures_video_state', sql`${table.videoState} in ('waiting', 'processing', 'ready', 'failed')`),
  ],
);

/** Files attached to a lecture (handouts): private, downloaded through signed links by those who may watch it. */
export const lectureResources = pgTable(
  'lecture_resources',
  {
    id: uuid().primaryKey().defaultRandom(),
    lectureId: uuid()
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    /** Storage key of the file; private. */
    fileKey: text().notNull(),
    /** The name it is downloaded as: the uploaded name, made safe. */
    fileName: text().notNull(),
    /** The type its content showed. */
    mime: text().notNull(),
    bytes: bigint({ mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.lectureId, table.createdAt), index().on(table.fileKey)],
);

/**
 * A lecture's captions in one language: the WebVTT file in private storage (SRT is converted on
 * upload), and its cues below for the transcript's search. Each save (upload, replacement, the cue
 * editor) writes a new file and bumps `version`; the file before it is removed once the row points
 * at the new one.
 */
export const lectureCaptions = pgTable(
  'lecture_captions',
  {
    id: uuid().primaryKey().defaultRandom(),
    lectureId: uuid()
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    /** BCP 47, canonical ("en", "pt-BR"). */
    language: text().notNull(),
    label: text().notNull(),
    /** The one a learner is shown when they turn captions on without a language of their own; one per lecture at most. */
    isDefault: boolean().notNull().default(false),
    /** Storage key of the current WebVTT file; private. */
    fileKey: text().notNull(),
    bytes: integer().notNull(),
    cueCount: integer().notNull(),
    version: integer().notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique().on(table.lectureId, table.language),
    uniqueIndex('lecture_captions_one_default')
      .on(table.lectureId)
      .where(sql`${table.isDefault}`),
    index().on(table.fileKey),
  ],
);

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const regconfig = customType<{ data: string }>({ dataType: () => 'regconfig' });

/**
 * Every cue of every caption file, as plain text (tags stripped) with its words for full-text
 * search: in the language's own configuration where PostgreSQL has one (`english`, `french`, …),
 * `simple` otherwise (Hindi, Hinglish). Written with the file, in the same transaction.
 */
export const captionCues = pgTable(
  'caption_cues',
  {
    captionId: uuid()
      .notNull()
      .references(() => lectureCaptions.id, { onDelete: 'cascade' }),
    /** Its place in the file, from 0. */
    position: integer().notNull(),
    /** Milliseconds from the start of the video. */
    startMs: integer().notNull(),
    endMs: integer().notNull(),
    text: text().notNull(),
    searchConfig: regconfig().notNull(),
    words: tsvector().generatedAlwaysAs(sql`to_tsvector(search_config, text)`),
  },
  (table) => [primaryKey({ columns: [table.captionId, table.position] }), index('caption_cues_words').using('gin', table.words)],
);

// ── Learner progress (features/progress, decision 0015) ─────────────────────

/**
 * Where each learner is in each lecture: the most frequent write of the product (a viewer saves
 * every ~10 s), so nothing on it is indexed that a save changes, and updates stay HOT.
 */
export const lectureProgress = pgTable(
  'lecture_progress',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lectureId: uuid()
      .notNull()
      .references(() => lectures.id, { onDelete: 'cascade' }),
    courseId: uuid()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** Seconds from the start, where the learner stopped. */
    positionSeconds: real().notNull(),
    /** The browser's clock when that position was read: a save read earlier never replaces it. */
    positionAt: timestamp({ withTimezone: true }).notNull(),
    /** Seconds played in all, capped at the lecture's length. */
    watchedSeconds: real().notNull().default(0),
    completedAt: timestamp({ withTimezone: true }),
    /** When the learner last marked or unmarked it: saves read before then do not complete it again. */
    completionSetAt: timestamp({ withTimezone: true }),
    updatedAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.lectureId] }),
    index().on(table.lectureId),
    index().on(table.courseId),
    // A learner's rows in a course (read when they start watching, their completed lectures counted
    // by every batch of saves): a few entries read, where the course's index reads every learner of it.
    index().on(table.userId, table.courseId),
  ],
);

/**
 * One row per learner and course they started, kept in step with lecture_progress by the same
 * transactions: the home page, the cards and the dashboard read a row per course, not per lecture.
 */
export const courseProgress = pgTable(
  'course_progress',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: uuid()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** Lectures of the course with completedAt set. */
    completedLectures: integer().notNull().default(0),
    lastLectureId: uuid().references(() => lectures.id, { onDelete: 'set null' }),
    /** Moved at most once a minute by saves, so steady playback does not rewrite the row. */
    lastWatchedAt: timestamp({ withTimezone: true }).notNull(),
    startedAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.courseId] }),
    // Per-course starters and completions, from the index alone.
    index().on(table.courseId, table.completedLectures),
    // Active learners this week, and who has not watched for a while.
    index().on(table.lastWatchedAt, table.userId),
    // Whether one learner watched lately, and when last: from the index alone.
    index().on(table.userId, table.lastWatchedAt),
    index().on(table.lastLectureId),
  ],
);

/**
 * How many learners of each course have completed how many of its lectures: a row per course and
 * count, kept in step with course_progress by triggers (migration 0007). The dashboard's per-course
 * figures read a dozen rows a course instead of a row per learner.
 */
export const courseCompletionCounts = pgTable(
  'course_completion_counts',
  {
    courseId: uuid()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    completedLectures: integer().notNull(),
    learners: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.courseId, table.completedLectures] })],
);

// ── Payments ───────────────────────────────────────────────────────────────

/**
 * The provider's plan for each period and amount, created on first use: Razorpay plans cannot be
 * edited, and one amount of one period is one plan, whichever of our plans or coupons needs it.
 */
export const paymentPlans = pgTable(
  'payment_plans',
  {
    /** monthly or yearly. */
    period: text().notNull().default('monthly'),
    amountPaise: integer().notNull(),
    providerPlanId: text().notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.period, table.amountPaise] })],
);

/** What is sold (features/plans, decision 0017): the spec's bundle is the default plan. Prices are in `planPrices`. */
export const plans = pgTable(
  'plans',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    /** monthly or yearly (PLAN_INTERVALS). */
    interval: text().notNull(),
    trialDays: integer().notNull().default(0),
    /** The spec's bundle: created on first start from SUBSCRIPTION_PRICE, never archived. */
    isDefault: boolean().notNull().default(false),
    /** Sold no more; its subscribers renew as before. */
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (table) => [
    uniqueIndex('plans_one_default')
      .on(table.isDefault)
      .where(sql`${table.isDefault}`),
  ],
);

/**
 * Each price a plan has had: a new price is a new row, and a subscription keeps the row it was
 * bought at (its provider plan has that amount), so changing a price never changes what an
 * existing subscriber pays. The plan's current price is its latest row.
 */
export const planPrices = pgTable(
  'plan_prices',
  {
    id: uuid().primaryKey().defaultRandom(),
    planId: uuid()
      .notNull()
      .references(() => plans.id),
    /** As the seller entered it: before GST when prices exclude it. */
    listPricePaise: integer().notNull(),
    /** What each charge takes from the buyer. */
    amountPaise: integer().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.planId, table.createdAt)],
);

/** Discounts a buyer enters at checkout, or the save offer of the cancellation dialog. */
export const coupons = pgTable(
  'coupons',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Upper case; unique. */
    code: text().notNull().unique(),
    /** percent or amount (COUPON_KINDS). */
    kind: text().notNull(),
    /** Percent (1–99), or paise off each discounted charge. */
    amount: integer().notNull(),
    /** The first this many charges are discounted. */
    charges: integer().notNull(),
    validFrom: timestamp({ withTimezone: true }),
    validUntil: timestamp({ withTimezone: true }),
    maxRedemptions: integer(),
    /** Uses taken, held ones included; the check makes the last use go to one buyer only. */
    redemptions: integer().notNull().default(0),
    /** The plans it applies to; empty for all. */
    planIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    saveOffer: boolean().notNull().default(false),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (table) => [
    check('coupons_redemptions_within_max', sql`${table.maxRedemptions} is null or ${table.redemptions} <= ${table.maxRedemptions}`),
    uniqueIndex('coupons_one_save_offer')
      .on(table.saveOffer)
      .where(sql`${table.saveOffer} and ${table.archivedAt} is null`),
  ],
);

/** A user's subscription at the provider (Razorpay or the sandbox), mirrored here. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerSubscriptionId: text().notNull().unique(),
    providerPlanId: text().notNull(),
    /** Razorpay's status: created, authenticated, active, pending, halted, cancelled, completed, expired. */
    status: text().notNull(),
    /** End of the paid period as the provider last told us. */
    currentEnd: timestamp({ withTimezone: true }),
    /** When the user cancelled it: at once with a refund, or at the end of the paid period without one. */
    cancelledAt: timestamp({ withTimezone: true }),
    /** The first charge of a subscription that starts later (a resumed one starts when the paid period ends, a trial when it ends). */
    startAt: timestamp({ withTimezone: true }),
    /** Our plan and the price version bought (decision 0017); set for every subscription since (older ones at start). */
    planId: uuid().references(() => plans.id),
    planPriceId: uuid().references(() => planPrices.id),
    /** Days of free trial before the first charge (at `startAt`); 0 for none. */
    trialDays: integer().notNull().default(0),
    /** When verifying Checkout's authorisation began the trial (access until `startAt`). */
    trialStartedAt: timestamp({ withTimezone: true }),
    /** The coupon redeemed: charges `discountFrom + 1` to `discountFrom + discountCharges` take `discountedPaise`. */
    couponId: uuid().references(() => coupons.id),
    discountedPaise: integer(),
    discountFrom: integer().notNull().default(0),
    discountCharges: integer().notNull().default(0),
    /** Charges recorded on this subscription. */
    paidCount: integer().notNull().default(0),
    /** What the next charge takes, and that per month (a yearly charge / 12): the MRR figure sums the latter. */
    nextChargePaise: integer(),
    monthlyValuePaise: integer(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (table) => [
    index().on(table.userId, table.createdAt),
    // At most one unpaid subscription a user: concurrent subscribes get the same one.
    uniqueIndex('subscriptions_one_unpaid_per_user')
      .on(table.userId)
      .where(sql`${table.status} = 'created'`),
    // The subscriptions that will charge again, with their plan and monthly value: MRR reads just these (an index-only scan).
    index('subscriptions_renewing')
      .on(table.currentEnd, table.planId, table.monthlyValuePaise)
      .where(sql`${table.status} in ('active', 'pending') and ${table.cancelledAt} is null`),
    // Unpaid subscriptions by age: the hourly sweep drops abandoned checkouts and frees their coupons.
    index('subscriptions_unpaid')
      .on(table.createdAt)
      .where(sql`${table.status} = 'created'`),
  ],
);

/** A coupon's use by an account (one each): held by an unpaid checkout, taken for good once paid. */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    couponId: uuid()
      .notNull()
      .references(() => coupons.id),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: uuid().references(() => subscriptions.id, { onDelete: 'set null' }),
    /** When the first discounted payment (or a trial's authorisation, or the save offer's acceptance) made it final. */
    confirmedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex().on(table.couponId, table.userId), index().on(table.subscriptionId)],
);

/**
 * Cards that have had a free trial, by a hash of the card network's reference (Razorpay's card
 * fingerprint): one trial per card, whichever account presents it.
 */
export const trialCards = pgTable('trial_cards', {
  fingerprintHash: text().primaryKey(),
  userId: uuid()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/** One row per successful charge; recorded once, whichever of verify or webhook comes first. */
export const payments = pgTable(
  'payments',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    providerPaymentId: text().notNull().unique(),
    amountPaise: integer().notNull(),
    currency: text().notNull().default('INR'),
    /** captured, or refunded once the full amount went back. */
    status: text().notNull(),
    refundedPaise: integer().notNull().default(0),
    providerRefundId: text(),
    /** When the payment was made (the provider's time), which the statistics count by. */
    paidAt: timestamp({ withTimezone: true }).notNull(),
    refundedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.paidAt.desc().nullsFirst()),
    index().on(table.subscriptionId, table.paidAt),
    // A subscriber's latest payment (what they pay a month, for MRR); the month's refunds.
    index().on(table.userId, table.paidAt),
    index().on(table.refundedAt),
  ],
);

/**
 * The payments of each calendar month in India, kept up to date by triggers on
 * `payments` (migration 0003), so the dashboard's monthly chart and its totals read a
 * row per month instead of every payment ever made.
 */
export const paymentMonths = pgTable('payment_months', {
  /** The first day of the month, in Asia/Kolkata. */
  month: date({ mode: 'string' }).primaryKey(),
  /** Payments made that month, refunded ones included (each was a month sold). */
  payments: integer().notNull(),
  /** Amount paid minus amount refunded, in paise. */
  netPaise: bigint({ mode: 'number' }).notNull(),
});

/**
 * Invoices and credit notes (features/billing, decision 0016): one invoice per captured payment and one
 * credit note per refunded one, issued in the transaction that records the payment or the refund.
 * Each keeps what it said when issued (seller, buyer, amounts), whatever changes later.
 */
export const billingDocuments = pgTable(
  'billing_documents',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** invoice, or credit_note. */
    kind: text().notNull(),
    /** `LMS/26-27/000123` or `CN/26-27/000004`: its series, the financial year, the place in both. */
    number: text().notNull().unique(),
    /** Kept, not cascaded: documents are tax records, and a payment is never deleted while it has one. */
    paymentId: uuid()
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** A credit note's invoice. */
    invoiceId: uuid(),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** tax_invoice, or receipt (a seller without a GSTIN). */
    documentType: text().notNull(),
    seller: jsonb().$type<{ name: string; address: string; stateCode: string; gstin: string | null; sac: string }>().notNull(),
    buyer: jsonb()
      .$type<{ name: string; email: string; businessName: string | null; gstin: string | null; stateCode: string | null; address: string | null }>()
      .notNull(),
    /** The state whose tax applies: the buyer's, or the seller's when the buyer's is unknown. */
    placeOfSupply: text().notNull(),
    description: text().notNull(),
    taxRate: real().notNull(),
    taxablePaise: integer().notNull(),
    cgstPaise: integer().notNull(),
    sgstPaise: integer().notNull(),
    igstPaise: integer().notNull(),
    totalPaise: integer().notNull(),
    /** Storage key of the PDF, once the `billing-pdf` job has made it. */
    pdfKey: text(),
    /** A credit note of an administrator's refund (one each); null for the one of a learner's own cancellation. */
    adminRefundId: uuid().unique(),
    createdAt: createdAt(),
  },
  (table) => [
    // One invoice a payment, and one credit note of the learner's own cancellation; an administrator's refunds add theirs.
    uniqueIndex('billing_documents_payment_kind')
      .on(table.paymentId, table.kind)
      .where(sql`${table.adminRefundId} is null`),
    index().on(table.userId, table.issuedAt),
    // The accountant's export reads a range of days.
    index().on(table.issuedAt),
    index().on(table.pdfKey),
    index('billing_documents_pdf_pending')
      .on(table.createdAt)
      .where(sql`${table.pdfKey} is null`),
  ],
);

/** The last number given in each series and financial year: the row lock keeps the series gap-free. */
export const billingCounters = pgTable(
  'billing_counters',
  {
    series: text().notNull(),
    /** `26-27`: April 2026 to March 2027, in India. */
    fiscalYear: text().notNull(),
    lastNumber: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.series, table.fiscalYear] })],
);

/**
 * Each cancellation a subscriber made, with the reason they gave (if any): the admin's list of reasons
 * and the month's cancellations count these. `key` makes recording one idempotent.
 */
export const cancellations = pgTable(
  'cancellations',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** `refund:<payment id>` or `stop:<user id>:<end of the paid period>`: one cancellation each. */
    key: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One of CANCEL_REASONS (contract/payments.ts), or null when the subscriber skipped the question. */
    reason: text(),
    note: text(),
    refunded: boolean().notNull(),
    /** When access ends: now with a refund, the end of the paid period without. */
    accessUntil: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.createdAt), index().on(table.userId)],
);

/**
 * Lifecycle mail (features/billing/lifecycle-mail.ts), written in the transaction of the event it is
 * about: `key` names the event, so a webhook delivered twice writes one row and one mail is sent. The
 * `lifecycle-mail` job sends a row and sets `sentAt`; a sweep queues rows left unsent.
 */
export const lifecycleMails = pgTable(
  'lifecycle_mails',
  {
    id: uuid().primaryKey().defaultRandom(),
    key: text().notNull().unique(),
    /** receipt, refund, cancelled, payment_failed, access_ended, renewal_reminder. */
    kind: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    data: jsonb().$type<Record<string, string | number | boolean | null>>().notNull(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('lifecycle_mails_unsent')
      .on(table.createdAt)
      .where(sql`${table.sentAt} is null`),
  ],
);

/** Webhook deliveries already handled, by Razorpay's x-razorpay-event-id. */
export const webhookEvents = pgTable('webhook_events', {
  eventId: text().primaryKey(),
  event: text().notNull(),
  receivedAt: createdAt(),
});

// ── Contact ────────────────────────────────────────────────────────────────

export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    message: text().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.createdAt.desc().nullsFirst())],
);

/**
 * The seller's site settings, one row a field (`name`, `social.facebook`, `brand`, `page:terms`):
 * two administrators saving different fields at once both keep theirs, and a field is always one
 * write's value, never a mix. A field with no row has its default (site-settings.ts).
 */
export const siteSettings = pgTable('site_settings', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
});

// ── The offline payment sandbox: the provider's own records, as Razorpay would keep them ──

export const sandboxPlans = pgTable('sandbox_plans', {
  id: text().primaryKey(),
  period: text().notNull(),
  interval: integer().notNull(),
  itemName: text().notNull(),
  amount: integer().notNull(),
  currency: text().notNull(),
  createdAt: createdAt(),
});

export const sandboxSubscriptions = pgTable('sandbox_subscriptions', {
  id: text().primaryKey(),
  planId: text()
    .notNull()
    .references(() => sandboxPlans.id),
  status: text().notNull(),
  totalCount: integer().notNull(),
  paidCount: integer().notNull().default(0),
  currentStart: timestamp({ withTimezone: true }),
  currentEnd: timestamp({ withTimezone: true }),
  /** The first charge's time when asked for a later start (`start_at`); null starts at the first payment. */
  startAt: timestamp({ withTimezone: true }),
  /** `cancel_at_cycle_end: 1`: stays as it is until the current cycle ends, then cancelled. */
  cancelAtCycleEnd: boolean().notNull().default(false),
  /** An update with `schedule_change_at: cycle_end`: the plan the next cycle moves to. */
  scheduledPlanId: text().references(() => sandboxPlans.id),
  /** The card mandate Checkout made: its token, and the card network's reference for the card (its fingerprint). */
  tokenId: text(),
  cardReference: text(),
  notes: jsonb().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

export const sandboxPayments = pgTable('sandbox_payments', {
  id: text().primaryKey(),
  subscriptionId: text()
    .notNull()
    .references(() => sandboxSubscriptions.id),
  amount: integer().notNull(),
  currency: text().notNull(),
  /** captured, failed, refunded */
  status: text().notNull(),
  amountRefunded: integer().notNull().default(0),
  errorCode: text(),
  errorDescription: text(),
  /** The card's token (the subscription's mandate), as Razorpay's payment entity carries it. */
  tokenId: text(),
  createdAt: createdAt(),
});

export const sandboxRefunds = pgTable('sandbox_refunds', {
  id: text().primaryKey(),
  paymentId: text()
    .notNull()
    .references(() => sandboxPayments.id),
  amount: integer().notNull(),
  status: text().notNull(),
  /** What the caller asked Razorpay to keep with the refund: how a refund is found again after a lost answer. */
  notes: jsonb().$type<Record<string, string>>().notNull().default({}),
  receipt: text(),
  createdAt: createdAt(),
});

// ── Certificates of completion (features/certificates, decision 0033) ─────────

/**
 * A certificate: earned (every lecture completed, every quiz passed) or issued by an administrator.
 * What it certifies is copied in when it is issued (the course's title and instructor, the seller's
 * name), so that it reads the same after the course is renamed or deleted. One a learner and course.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** CERTIFICATE_CODE_LENGTH characters of Crockford's base 32: 80 random bits. */
    code: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: uuid().references(() => courses.id, { onDelete: 'set null' }),
    /** The name printed: the learner's chosen name, else their full name, when it was last made. */
    name: text().notNull(),
    courseTitle: text().notNull(),
    instructor: text().notNull(),
    issuer: text().notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The administrator who issued it by hand; null when it was earned. */
    issuedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp({ withTimezone: true }),
    /** Storage key of its PDF; null while the job makes it (again). */
    pdfKey: text(),
  },
  (table) => [unique().on(table.userId, table.courseId), index().on(table.courseId, table.issuedAt), index().on(table.issuedAt)],
);

// ── Quizzes ────────────────────────────────────────────────────────────────

/**
 * A quiz of a course, placed in its curriculum (QuizPlacementSchema): after the lecture
 * `afterLectureId`, else at the end of the section `sectionId`, else at the course's end. What it
 * asks lives in its versions; `currentVersion` is the one new attempts take.
 */
export const quizzes = pgTable(
  'quizzes',
  {
    id: uuid().primaryKey().defaultRandom(),
    courseId: uuid()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    sectionId: uuid().references(() => courseSections.id, { onDelete: 'set null' }),
    afterLectureId: uuid().references(() => lectures.id, { onDelete: 'set null' }),
    currentVersion: integer().notNull().default(1),
    /**
     * The results' figures, counted as attempts finish (graded or expired), over every version:
     * the results page reads a row a quiz, never its attempts. `learners` counts each learner at
     * their first finished attempt, which is their number 1 (attempts are taken one at a time).
     */
    finishedAttempts: integer().notNull().default(0),
    passedAttempts: integer().notNull().default(0),
    scoreTotal: bigint({ mode: 'number' }).notNull().default(0),
    learners: integer().notNull().default(0),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (table) => [index().on(table.courseId, table.createdAt), index().on(table.sectionId), index().on(table.afterLectureId)],
);

/**
 * A quiz as it was saved once: settings and questions, answers included (never sent to learners).
 * Never changed after it is written: an attempt is graded against the version it answered.
 */
export const quizVersions = pgTable(
  'quiz_versions',
  {
    id: uuid().primaryKey().defaultRandom(),
    quizId: uuid()
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    title: text().notNull(),
    passMark: integer().notNull(),
    attemptsAllowed: integer(),
    timeLimitMinutes: integer(),
    shuffleQuestions: boolean().notNull(),
    shuffleOptions: boolean().notNull(),
    layout: text({ enum: ['one', 'all'] }).notNull(),
    questions: jsonb().$type<AuthoredQuestion[]>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [unique().on(table.quizId, table.number)],
);

/**
 * A learner's attempt at a quiz: `open` from its start until it is submitted (`graded`) or its time
 * runs out unsubmitted (`expired`, scoring 0). At most one open attempt a learner and quiz; numbers
 * count from 1, and the unique number is what stops two starts racing past the attempts allowed.
 */
export const quizAttempts = pgTable(
  'quiz_attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    quizId: uuid()
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    versionId: uuid()
      .notNull()
      .references(() => quizVersions.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: uuid()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    number: integer().notNull(),
    state: text({ enum: ['open', 'graded', 'expired'] })
      .notNull()
      .default('open'),
    /** The order its questions, and each one's options, were shown in (shuffled or not): ids. */
    questionOrder: jsonb().$type<{ questionId: string; optionIds: string[] }[]>().notNull(),
    startedAt: createdAt(),
    /** When the server stops accepting it; null without a time limit. */
    endsAt: timestamp({ withTimezone: true }),
    submittedAt: timestamp({ withTimezone: true }),
    /** Percent right, rounded down; null while open. */
    score: integer(),
    correctCount: integer(),
    passed: boolean().notNull().default(false),
    /** What was submitted, and whether each question was right (by question id). */
    answers: jsonb().$type<Answer[]>(),
    correct: jsonb().$type<Record<string, boolean>>(),
  },
  (table) => [
    unique().on(table.userId, table.quizId, table.number),
    uniqueIndex()
      .on(table.userId, table.quizId)
      .where(sql`${table.state} = 'open'`),
    // The results: a quiz's finished attempts, read from the index alone.
    index()
      .on(table.quizId, table.userId, table.score, table.passed)
      .where(sql`${table.state} <> 'open'`),
    // The admin's list of a course's attempts, newest first, and one learner's.
    index().on(table.courseId, table.startedAt.desc()),
    index().on(table.userId, table.courseId),
    index().on(table.versionId),
    check('quiz_attempts_state', sql`${table.state} in ('open', 'graded', 'expired')`),
  ],
);

/** How often each question of a quiz was answered, and answered right: the "hardest questions" without reading every attempt. */
export const quizQuestionStats = pgTable(
  'quiz_question_stats',
  {
    quizId: uuid()
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    questionId: uuid().notNull(),
    answered: integer().notNull().default(0),
    correct: integer().notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.quizId, table.questionId] })],
);

// ── Learner management (features/learners, decision 0035) ─────────────────

/**
 * Complimentary access an administrator granted: every course, without a payment, an invoice or a
 * provider subscription. The one in force is mirrored in `users.complimentary_until`, which the
 * access check reads; a revocation or the expiry job ends it there and here (`endedAt`).
 */
export const accessGrants = pgTable(
  'access_grants',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startsAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    note: text().notNull(),
    /** The administrator, by id and by name as it was then (the trail outlives accounts). */
    grantedById: uuid(),
    grantedByName: text().notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    revokedById: uuid(),
    revokedByName: text(),
    revokeNote: text(),
    /** When it stopped counting: revoked, replaced by a later grant, or past its end (the expiry job). Null while in force. */
    endedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index().on(table.userId, table.createdAt),
    // The expiry job: grants in force whose end has come.
    index('access_grants_in_force')
      .on(table.endsAt)
      .where(sql`${table.endedAt} is null`),
  ],
);

/**
 * A refund an administrator asked for (full or part of a payment), made through the provider.
 * `key` comes from the dialog that asked, so a double click is one refund. Written `pending`
 * before the provider is called; `processed` with the provider's id, or `failed` with its words.
 */
export const adminRefunds = pgTable(
  'admin_refunds',
  {
    id: uuid().primaryKey().defaultRandom(),
    key: uuid().notNull().unique(),
    paymentId: uuid()
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    amountPaise: integer().notNull(),
    /** now, or period_end: whether the learner's access ends with the refund. */
    access: text({ enum: ['now', 'period_end'] }).notNull(),
    note: text().notNull(),
    state: text({ enum: ['pending', 'processed', 'failed'] })
      .notNull()
      .default('pending'),
    failure: text(),
    providerRefundId: text(),
    creditNoteId: uuid(),
    actorId: uuid(),
    actorName: text().notNull(),
    createdAt: createdAt(),
    processedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index().on(table.paymentId, table.createdAt),
    index('admin_refunds_pending')
      .on(table.createdAt)
      .where(sql`${table.state} = 'pending'`),
    check('admin_refunds_state', sql`${table.state} in ('pending', 'processed', 'failed')`),
    check('admin_refunds_access', sql`${table.access} in ('now', 'period_end')`),
    check('admin_refunds_amount', sql`${table.amountPaise} > 0`),
  ],
);

/** An email an administrator changed an account to: applied once the link mailed to the new address is opened. */
export const emailChanges = pgTable(
  'email_changes',
  {
    ...mailedLinkColumns(),
    /** Lower-cased, as users.email. */
    newEmail: text().notNull(),
    requestedById: uuid(),
  },
  (table) => [index().on(table.userId)],
);

/**
 * The audit trail: every administrator's action on people, money, settings and content
 * (AUDIT_ACTIONS in the contract), appended and never changed: a trigger refuses updates and
 * deletes (migration 0020). Names are copied in, so an entry reads the same after the account or
 * the course is gone; there are no foreign keys for the same reason.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint({ mode: 'bigint' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Null for the queue's own entries (complimentary access that ran out). */
    actorId: uuid(),
    actorName: text(),
    actorEmail: text(),
    action: text().notNull(),
    area: text().notNull(),
    targetType: text(),
    targetId: uuid(),
    targetLabel: text(),
    reason: text(),
    summary: text().notNull(),
    /** What the action carried, for whoever reads the trail later: amounts, dates, fields changed. */
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [
    // Each filter, newest first (read backwards).
    index().on(table.action, table.id),
    index().on(table.area, table.id),
    index().on(table.actorId, table.id),
    index().on(table.targetId, table.id),
    index().on(table.at),
  ],
);
