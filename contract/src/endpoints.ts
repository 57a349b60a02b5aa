import type { ContactMessagesQuerySchema, ContactMessagesResponseSchema, ContactSchema } from './contact.ts';
import type {
  CourseIdParamsSchema,
  CourseListResponseSchema,
  CourseResponseSchema,
  CourseWithLecturesResponseSchema,
  CurriculumResponseSchema,
  DeleteLectureQuerySchema,
  LectureParamsSchema,
  LectureResponseSchema,
  LecturesResponseSchema,
  ListCoursesQuerySchema,
  UpdateLectureSchema,
  VideoStatusResponseSchema,
} from './courses.ts';
import { endpoint } from './http.ts';
import type {
  CancellationReasonsResponseSchema,
  CancellationSchema,
  CancellationTermsResponseSchema,
  PaymentRecordsQuerySchema,
  PaymentRecordsResponseSchema,
  PlanResponseSchema,
  RazorpayKeyResponseSchema,
  SubscribeResponseSchema,
  UnsubscribeResponseSchema,
  VerifyPaymentSchema,
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
  SaveOfferResponseSchema,
  SubscribeSchema,
} from './plans.ts';
import type { BillingDetailsResponseSchema, BillingDetailsSchema, BillingHistoryResponseSchema } from './billing.ts';
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
import type { RevenueResponseSchema, UserStatsResponseSchema } from './stats.ts';
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

/**
 * The HTTP surface, once: every endpoint's method and path under `API_PREFIX` (spec §7 and
 * DESIGN §4's additions), with the schemas of what it takes and answers. The web app calls
 * through this table; `ParamsOf`, `QueryOf`, `BodyOf` and `ResponseOf` (http.ts) give the types.
 * Schemas are imported as types only: this file costs the browser a few paths, not zod.
 */
export const endpoints = {
  user: {
    register: endpoint<{ body: 'multipart'; response: typeof UserResponseSchema }>('POST', '/user/register'),
    login: endpoint<{ body: typeof LoginSchema; response: typeof UserResponseSchema }>('POST', '/user/login'),
    logout: endpoint<{ response: typeof MessageSchema }>('GET', '/user/logout'),
    me: endpoint<{ response: typeof UserResponseSchema }>('GET', '/user/me'),
    update: endpoint<{ params: typeof UserIdParamsSchema; body: 'multipart'; response: typeof UserResponseSchema }>('PUT', '/user/update/:id'),
    changePassword: endpoint<{ body: typeof ChangePasswordSchema; response: typeof MessageSchema }>('POST', '/user/change-password'),
    requestReset: endpoint<{ body: typeof ForgotPasswordSchema; response: typeof MessageSchema }>('POST', '/user/reset'),
    reset: endpoint<{ params: typeof ResetTokenParamsSchema; body: typeof ResetPasswordSchema; response: typeof MessageSchema }>('POST', '/user/reset/:token'),
    /** Ours: signs in with a one-time link mailed past the login's ceiling (decision 0021). */
    signInWithLink: endpoint<{ params: typeof SignInTokenParamsSchema; response: typeof UserResponseSchema }>('POST', '/user/sign-in/:token'),
  },
  courses: {
    /** The catalogue a page at a time (`search`, `category`), or one course by `id`. */
    list: endpoint<{ query: typeof ListCoursesQuerySchema; response: typeof CourseListResponseSchema }>('GET', '/courses'),
    create: endpoint<{ body: 'multipart'; response: typeof CourseResponseSchema }>('POST', '/courses'),
    update: endpoint<{ params: typeof CourseIdParamsSchema; body: 'multipart'; response: typeof CourseResponseSchema }>('PUT', '/courses/:id'),
    delete: endpoint<{ params: typeof CourseIdParamsSchema; response: typeof MessageSchema }>('DELETE', '/courses/:id'),
    /** Ours, public: the course with every lecture's title and duration; a free preview's video URL. */
    curriculum: endpoint<{ params: typeof CourseIdParamsSchema; response: typeof CurriculumResponseSchema }>('GET', '/courses/:id/curriculum'),
  },
  lectures: {
    /** A course's lectures with their video URLs: active subscribers and admins only. */
    list: endpoint<{ params: typeof CourseIdParamsSchema; response: typeof LecturesResponseSchema }>('GET', '/courses/:id'),
    /** Multipart: title, description and the video as `lectures`. */
    add: endpoint<{ params: typeof CourseIdParamsSchema; body: 'multipart'; response: typeof CourseWithLecturesResponseSchema }>('POST', '/courses/:id'),
    delete: endpoint<{ query: typeof DeleteLectureQuerySchema; response: typeof CourseWithLecturesResponseSchema }>('DELETE', '/courses'),
    /** Ours (admin): whether a lecture is a free preview. */
    update: endpoint<{ params: typeof LectureParamsSchema; body: typeof UpdateLectureSchema; response: typeof LectureResponseSchema }>(
      'PATCH',
      '/courses/:courseId/lectures/:lectureId',
    ),
    /** Ours (admin): process a lecture's video again after its processing failed. */
    retryProcessing: endpoint<{ params: typeof LectureParamsSchema; response: typeof LectureResponseSchema }>(
      'POST',
      '/courses/:courseId/lectures/:lectureId/processing',
    ),
  },
  video: {
    /** Ours (admin): whether this server can process videos, and if not, why. */
    status: endpoint<{ response: typeof VideoStatusResponseSchema }>('GET', '/video/status'),
  },
  payments: {
    /** The provider's public key, the Checkout script to load and the bundle's price. */
    razorpayKey: endpoint<{ response: typeof RazorpayKeyResponseSchema }>('GET', '/payments/razorpay-key'),
    /** Ours, public: the bundle's price per month and refund window, for the storefront. */
    plan: endpoint<{ response: typeof PlanResponseSchema }>('GET', '/payments/plan'),
    /** Ours, public: the plans on sale (issue 16). */
    plans: endpoint<{ response: typeof PlansResponseSchema }>('GET', '/payments/plans'),
    /** The spec's client sends no body (the default plan); ours: a plan, a coupon, whether to take the trial. */
    subscribe: endpoint<{ body: typeof SubscribeSchema; response: typeof SubscribeResponseSchema }>('POST', '/payments/subscribe'),
    verify: endpoint<{ body: typeof VerifyPaymentSchema; response: typeof MessageSchema }>('POST', '/payments/verify'),
    /** The body (ours: a reason and a note, both optional) may be left out, as the spec's client does. */
    unsubscribe: endpoint<{ body: typeof CancellationSchema; response: typeof UnsubscribeResponseSchema }>('POST', '/payments/unsubscribe'),
    /** Ours: what cancelling now would do for this subscriber (refund or not, access until when), by the rule unsubscribe applies. */
    cancellation: endpoint<{ response: typeof CancellationTermsResponseSchema }>('GET', '/payments/cancellation'),
    /** Ours: the discount the cancellation dialog may offer instead of cancelling, and taking it. */
    saveOffer: endpoint<{ response: typeof SaveOfferResponseSchema }>('GET', '/payments/save-offer'),
    acceptSaveOffer: endpoint<{ response: typeof SaveOfferResponseSchema }>('POST', '/payments/save-offer'),
    /** Admin: the latest `count` payments and this year's sales by month. */
    records: endpoint<{ query: typeof PaymentRecordsQuerySchema; response: typeof PaymentRecordsResponseSchema }>('GET', '/payments'),
  },
  stats: {
    users: endpoint<{ response: typeof UserStatsResponseSchema }>('GET', '/admin/status/users'),
    /** Ours (admin): active learners this week, subscribers who stopped watching, each course's starters and completions. */
    engagement: endpoint<{ response: typeof EngagementResponseSchema }>('GET', '/admin/engagement'),
    /** Ours (admin): why subscribers cancelled lately, counted, and the latest in their own words. */
    cancellations: endpoint<{ response: typeof CancellationReasonsResponseSchema }>('GET', '/admin/cancellations'),
    /** Ours (admin): MRR, subscribers, churn, refunds and net revenue this month, 12 months of new vs cancelled, the latest payments. */
    revenue: endpoint<{ response: typeof RevenueResponseSchema }>('GET', '/admin/revenue'),
    // The CSV export is a download, not JSON: revenueExportUrl (stats.ts) names it.
  },
  /** Ours (admin, issue 16): the plans sold and the coupons given. */
  plans: {
    list: endpoint<{ response: typeof AdminPlansResponseSchema }>('GET', '/admin/plans'),
    create: endpoint<{ body: typeof PlanInputSchema; response: typeof AdminPlanResponseSchema }>('POST', '/admin/plans'),
    /** A new price makes a new price version: subscribers keep paying what they bought. */
    update: endpoint<{ params: typeof PlanIdParamsSchema; body: typeof PlanUpdateSchema; response: typeof AdminPlanResponseSchema }>('PATCH', '/admin/plans/:id'),
  },
  coupons: {
    list: endpoint<{ response: typeof CouponsResponseSchema }>('GET', '/admin/coupons'),
    create: endpoint<{ body: typeof CouponInputSchema; response: typeof CouponResponseSchema }>('POST', '/admin/coupons'),
    update: endpoint<{ params: typeof CouponIdParamsSchema; body: typeof CouponUpdateSchema; response: typeof CouponResponseSchema }>('PATCH', '/admin/coupons/:id'),
  },
  /** Ours: the signed-in learner's progress (issue 14). Saves are throttled per session. */
  progress: {
    /** Every course the learner has started, most recent first, and their settings. */
    mine: endpoint<{ response: typeof MyProgressResponseSchema }>('GET', '/progress'),
    course: endpoint<{ params: typeof CourseIdParamsSchema; response: typeof CourseProgressResponseSchema }>('GET', '/progress/courses/:id'),
    /** POST, so that the page's last save can go with navigator.sendBeacon. */
    save: endpoint<{ params: typeof LectureProgressParamsSchema; body: typeof SaveProgressSchema; response: typeof SaveProgressResponseSchema }>(
      'POST',
      '/progress/lectures/:lectureId',
    ),
    /** Mark a lecture as completed, or not. */
    complete: endpoint<{ params: typeof LectureProgressParamsSchema; body: typeof CompletionSchema; response: typeof SaveProgressResponseSchema }>(
      'PUT',
      '/progress/lectures/:lectureId/completed',
    ),
    settings: endpoint<{ body: typeof ProgressSettingsSchema; response: typeof ProgressSettingsResponseSchema }>('PUT', '/progress/settings'),
  },
  /** Ours: the signed-in buyer's billing (issue 15). */
  billing: {
    details: endpoint<{ response: typeof BillingDetailsResponseSchema }>('GET', '/billing/details'),
    saveDetails: endpoint<{ body: typeof BillingDetailsSchema; response: typeof BillingDetailsResponseSchema }>('PUT', '/billing/details'),
    history: endpoint<{ response: typeof BillingHistoryResponseSchema }>('GET', '/billing/history'),
    // An invoice's PDF is a download, not JSON: billingDocumentUrl (billing.ts) names it.
  },
  contact: {
    send: endpoint<{ body: typeof ContactSchema; response: typeof MessageSchema }>('POST', '/contact'),
    /** Admin: the inbox, newest first, a page at a time. */
    list: endpoint<{ query: typeof ContactMessagesQuerySchema; response: typeof ContactMessagesResponseSchema }>('GET', '/contact'),
  },
} as const;
