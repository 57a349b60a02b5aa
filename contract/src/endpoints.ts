import type { BillingDetailsResponseSchema, BillingDetailsSchema, BillingDocumentParamsSchema, BillingHistoryResponseSchema } from './billing.ts';
import type { ContactMessagesQuerySchema, ContactMessagesResponseSchema, ContactSchema } from './contact.ts';
import type { CourseIdParamsSchema, CourseListResponseSchema, CourseResponseSchema, ListCoursesQuerySchema } from './courses.ts';
import { endpoint, type Download, type Multipart, type RawBody } from './http.ts';
import type {
  CourseWithLecturesResponseSchema,
  CurriculumParamsSchema,
  CurriculumResponseSchema,
  DeleteLectureQuerySchema,
  LectureParamsSchema,
  LectureResponseSchema,
  LecturesResponseSchema,
  UpdateLectureSchema,
} from './lectures.ts';
import type {
  CancellationReasonsResponseSchema,
  CancellationSchema,
  CancellationTermsResponseSchema,
  PaymentRecordsQuerySchema,
  PaymentRecordsResponseSchema,
  PlanResponseSchema,
  RazorpayKeyResponseSchema,
  SaveOfferResponseSchema,
  SubscribeResponseSchema,
  SubscribeSchema,
  UnsubscribeResponseSchema,
  VerifyPaymentSchema,
  WebhookResponseSchema,
} from './payments.ts';
import type {
  AdminPlanResponseSchema,
  AdminPlansResponseSchema,
  CouponIdParamsSchema,
  CouponInputSchema,
  CouponResponseSchema,
  CouponsResponseSchema,
  CouponUpdateSchema,
  PlanIdParamsSchema,
  PlanInputSchema,
  PlansResponseSchema,
  PlanUpdateSchema,
} from './plans.ts';
import type {
  CompletionSchema,
  CourseProgressResponseSchema,
  EngagementResponseSchema,
  LectureProgressParamsSchema,
  MyProgressResponseSchema,
  ProgressSettingsResponseSchema,
  ProgressSettingsSchema,
  SaveProgressResponseSchema,
  SaveProgressSchema,
} from './progress.ts';
import type { RevenueExportQuerySchema, RevenueResponseSchema, UserStatsResponseSchema } from './stats.ts';
import type {
  ChangePasswordSchema,
  ForgotPasswordSchema,
  LoginSchema,
  MessageSchema,
  ResetPasswordSchema,
  ResetTokenParamsSchema,
  SignInTokenParamsSchema,
  UserIdParamsSchema,
  UserResponseSchema,
} from './users.ts';
import type { VideoStatusResponseSchema } from './video.ts';

/**
 * The HTTP surface, once: every endpoint's method, path under `API_PREFIX` and who may call it,
 * with the schemas of what it takes and answers. The web app calls through this table;
 * `ParamsOf`, `QueryOf`, `BodyOf` and `ResponseOf` (http.ts) give the types. The server
 * registers every API route from it, through api.ts, which binds each entry to its schemas.
 * Schemas are imported as types only: this file costs the browser a few paths, not zod.
 */
export const endpoints = {
  users: {
    register: endpoint<{ body: Multipart; response: typeof UserResponseSchema }>('POST', '/user/register', 'public'),
    login: endpoint<{ body: typeof LoginSchema; response: typeof UserResponseSchema }>('POST', '/user/login', 'public'),
    /** The spec's client logs out with GET; POST (logoutByPost) is the proper verb and works too. */
    logout: endpoint<{ response: typeof MessageSchema }>('GET', '/user/logout', 'public'),
    logoutByPost: endpoint<{ response: typeof MessageSchema }>('POST', '/user/logout', 'public'),
    /** Answers even while the user must first choose a password: the web app learns it here. */
    me: endpoint<{ response: typeof UserResponseSchema }>('GET', '/user/me', 'session'),
    update: endpoint<{ params: typeof UserIdParamsSchema; body: Multipart; response: typeof UserResponseSchema }>('PUT', '/user/update/:id', 'user'),
    /** With `me`, the one thing a user who must first choose a password may do. */
    changePassword: endpoint<{ body: typeof ChangePasswordSchema; response: typeof MessageSchema }>('POST', '/user/change-password', 'session'),
    requestReset: endpoint<{ body: typeof ForgotPasswordSchema; response: typeof MessageSchema }>('POST', '/user/reset', 'public'),
    reset: endpoint<{ params: typeof ResetTokenParamsSchema; body: typeof ResetPasswordSchema; response: typeof MessageSchema }>('POST', '/user/reset/:token', 'public'),
    /** Signs in with a one-time link mailed past the login's ceiling (decision 0021). */
    signInWithLink: endpoint<{ params: typeof SignInTokenParamsSchema; response: typeof UserResponseSchema }>('POST', '/user/sign-in/:token', 'public'),
  },
  courses: {
    /** The catalogue a page at a time (`search`, `category`), or one course by `id`. */
    list: endpoint<{ query: typeof ListCoursesQuerySchema; response: typeof CourseListResponseSchema }>('GET', '/courses', 'public'),
    create: endpoint<{ body: Multipart; response: typeof CourseResponseSchema }>('POST', '/courses', 'admin'),
    update: endpoint<{ params: typeof CourseIdParamsSchema; body: Multipart; response: typeof CourseResponseSchema }>('PUT', '/courses/:id', 'admin'),
    delete: endpoint<{ params: typeof CourseIdParamsSchema; response: typeof MessageSchema }>('DELETE', '/courses/:id', 'admin'),
    /** Public: the course with every lecture's title and duration; a free preview's video URL. */
    curriculum: endpoint<{ params: typeof CurriculumParamsSchema; response: typeof CurriculumResponseSchema }>('GET', '/courses/:id/curriculum', 'public'),
  },
  lectures: {
    /** A course's lectures with their video URLs: active subscribers and admins only. */
    list: endpoint<{ params: typeof CourseIdParamsSchema; response: typeof LecturesResponseSchema }>('GET', '/courses/:id', 'user'),
    /** Multipart: title, description and the video as `lectures`. */
    add: endpoint<{ params: typeof CourseIdParamsSchema; body: Multipart; response: typeof CourseWithLecturesResponseSchema }>('POST', '/courses/:id', 'admin'),
    delete: endpoint<{ query: typeof DeleteLectureQuerySchema; response: typeof CourseWithLecturesResponseSchema }>('DELETE', '/courses', 'admin'),
    /** Whether a lecture is a free preview. */
    update: endpoint<{ params: typeof LectureParamsSchema; body: typeof UpdateLectureSchema; response: typeof LectureResponseSchema }>(
      'PATCH',
      '/courses/:courseId/lectures/:lectureId',
      'admin',
    ),
    /** Process a lecture's video again after its processing failed. */
    retryProcessing: endpoint<{ params: typeof LectureParamsSchema; response: typeof LectureResponseSchema }>(
      'POST',
      '/courses/:courseId/lectures/:lectureId/processing',
      'admin',
    ),
  },
  video: {
    /** Whether this server can process videos, and if not, why. */
    status: endpoint<{ response: typeof VideoStatusResponseSchema }>('GET', '/video/status', 'admin'),
  },
  payments: {
    /** The provider's public key, the Checkout script to load and the bundle's price. */
    razorpayKey: endpoint<{ response: typeof RazorpayKeyResponseSchema }>('GET', '/payments/razorpay-key', 'user'),
    /** The bundle's price per month and refund window, for the storefront. */
    plan: endpoint<{ response: typeof PlanResponseSchema }>('GET', '/payments/plan', 'public'),
    /** The plans on sale; signed in, whether a free trial would be the learner's. */
    plans: endpoint<{ response: typeof PlansResponseSchema }>('GET', '/payments/plans', 'public'),
    /** The spec's client sends no body (the default plan); it may name a plan, a coupon, whether to take the trial. */
    subscribe: endpoint<{ body: typeof SubscribeSchema; response: typeof SubscribeResponseSchema }>('POST', '/payments/subscribe', 'user'),
    verify: endpoint<{ body: typeof VerifyPaymentSchema; response: typeof MessageSchema }>('POST', '/payments/verify', 'user'),
    /** The body (a reason and a note, both optional) may be left out, as the spec's client does. */
    unsubscribe: endpoint<{ body: typeof CancellationSchema; response: typeof UnsubscribeResponseSchema }>('POST', '/payments/unsubscribe', 'user'),
    /** What cancelling now would do for this subscriber (refund or not, access until when), by the rule unsubscribe applies. */
    cancellation: endpoint<{ response: typeof CancellationTermsResponseSchema }>('GET', '/payments/cancellation', 'user'),
    /** The discount the cancellation dialog may offer instead of cancelling, and taking it. */
    saveOffer: endpoint<{ response: typeof SaveOfferResponseSchema }>('GET', '/payments/save-offer', 'user'),
    acceptSaveOffer: endpoint<{ response: typeof SaveOfferResponseSchema }>('POST', '/payments/save-offer', 'user'),
    /** Admin: the latest `count` payments and this year's sales by month. */
    records: endpoint<{ query: typeof PaymentRecordsQuerySchema; response: typeof PaymentRecordsResponseSchema }>('GET', '/payments', 'admin'),
    /** The provider's events: anyone may post, the signature over the raw body says who sent it. */
    webhook: endpoint<{ body: RawBody; response: typeof WebhookResponseSchema }>('POST', '/payments/webhook', 'public'),
  },
  stats: {
    users: endpoint<{ response: typeof UserStatsResponseSchema }>('GET', '/admin/status/users', 'admin'),
    /** Active learners this week, subscribers who stopped watching, each course's starters and completions. */
    engagement: endpoint<{ response: typeof EngagementResponseSchema }>('GET', '/admin/engagement', 'admin'),
    /** Why subscribers cancelled lately, counted, and the latest in their own words. */
    cancellations: endpoint<{ response: typeof CancellationReasonsResponseSchema }>('GET', '/admin/cancellations', 'admin'),
    /** MRR, subscribers, churn, refunds and net revenue this month, 12 months of new vs cancelled, the latest payments. */
    revenue: endpoint<{ response: typeof RevenueResponseSchema }>('GET', '/admin/revenue', 'admin'),
    /** A CSV download, which the page links to: revenueExportUrl (stats.ts). */
    revenueExport: endpoint<{ query: typeof RevenueExportQuerySchema; response: Download }>('GET', '/admin/revenue/export', 'admin'),
  },
  /** The plans sold. */
  plans: {
    list: endpoint<{ response: typeof AdminPlansResponseSchema }>('GET', '/admin/plans', 'admin'),
    create: endpoint<{ body: typeof PlanInputSchema; response: typeof AdminPlanResponseSchema }>('POST', '/admin/plans', 'admin'),
    /** A new price makes a new price version: subscribers keep paying what they bought. */
    update: endpoint<{ params: typeof PlanIdParamsSchema; body: typeof PlanUpdateSchema; response: typeof AdminPlanResponseSchema }>('PATCH', '/admin/plans/:id', 'admin'),
  },
  /** The coupons given. */
  coupons: {
    list: endpoint<{ response: typeof CouponsResponseSchema }>('GET', '/admin/coupons', 'admin'),
    create: endpoint<{ body: typeof CouponInputSchema; response: typeof CouponResponseSchema }>('POST', '/admin/coupons', 'admin'),
    update: endpoint<{ params: typeof CouponIdParamsSchema; body: typeof CouponUpdateSchema; response: typeof CouponResponseSchema }>('PATCH', '/admin/coupons/:id', 'admin'),
  },
  /** The signed-in learner's progress. Writes are throttled per session. */
  progress: {
    /** Every course the learner has started, most recent first, and their settings. */
    mine: endpoint<{ response: typeof MyProgressResponseSchema }>('GET', '/progress', 'user'),
    course: endpoint<{ params: typeof CourseIdParamsSchema; response: typeof CourseProgressResponseSchema }>('GET', '/progress/courses/:id', 'user'),
    /** POST, so that the page's last save can go with navigator.sendBeacon. */
    save: endpoint<{ params: typeof LectureProgressParamsSchema; body: typeof SaveProgressSchema; response: typeof SaveProgressResponseSchema }>(
      'POST',
      '/progress/lectures/:lectureId',
      'user',
    ),
    /** Mark a lecture as completed, or not. */
    complete: endpoint<{ params: typeof LectureProgressParamsSchema; body: typeof CompletionSchema; response: typeof SaveProgressResponseSchema }>(
      'PUT',
      '/progress/lectures/:lectureId/completed',
      'user',
    ),
    settings: endpoint<{ body: typeof ProgressSettingsSchema; response: typeof ProgressSettingsResponseSchema }>('PUT', '/progress/settings', 'user'),
  },
  /** The signed-in buyer's billing. */
  billing: {
    details: endpoint<{ response: typeof BillingDetailsResponseSchema }>('GET', '/billing/details', 'user'),
    saveDetails: endpoint<{ body: typeof BillingDetailsSchema; response: typeof BillingDetailsResponseSchema }>('PUT', '/billing/details', 'user'),
    history: endpoint<{ response: typeof BillingHistoryResponseSchema }>('GET', '/billing/history', 'user'),
    /** An invoice's or credit note's PDF, a download the page links to: billingDocumentUrl (billing.ts). */
    document: endpoint<{ params: typeof BillingDocumentParamsSchema; response: Download }>('GET', '/billing/documents/:id/pdf', 'user'),
  },
  contact: {
    send: endpoint<{ body: typeof ContactSchema; response: typeof MessageSchema }>('POST', '/contact', 'public'),
    /** Admin: the inbox, newest first, a page at a time. */
    list: endpoint<{ query: typeof ContactMessagesQuerySchema; response: typeof ContactMessagesResponseSchema }>('GET', '/contact', 'admin'),
  },
} as const;
