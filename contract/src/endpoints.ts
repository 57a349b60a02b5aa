import type { BillingDetailsResponseSchema, BillingDetailsSchema, BillingDocumentParamsSchema, BillingHistoryResponseSchema } from './billing.ts';
import type {
  CaptionCuesSchema,
  CaptionParamsSchema,
  CaptionResponseSchema,
  CaptionSearchQuerySchema,
  CaptionSearchResponseSchema,
  CaptionsResponseSchema,
  CaptionUpdateSchema,
} from './captions.ts';
import type {
  AdminCertificateResponseSchema,
  AdminCertificatesQuerySchema,
  AdminCertificatesResponseSchema,
  CertificateCodeParamsSchema,
  CertificateNameSchema,
  CertificateRevocationSchema,
  CertificatesExportQuerySchema,
  CourseCertificateResponseSchema,
  IssueCertificateSchema,
  MyCertificatesResponseSchema,
  VerifyCertificateResponseSchema,
} from './certificates.ts';
import type { ActivityExportQuerySchema, ActivityQuerySchema, ActivityResponseSchema } from './audit.ts';
import type { ContactMessagesQuerySchema, ContactMessagesResponseSchema, ContactSchema } from './contact.ts';
import type { CourseIdParamsSchema, CourseListResponseSchema, CourseResponseSchema, ListCoursesQuerySchema, PublishCourseSchema } from './courses.ts';
import { declarer, type Download, type Multipart, type RawBody } from './http.ts';
import type {
  CourseWithLecturesResponseSchema,
  CurriculumParamsSchema,
  CurriculumResponseSchema,
  DeleteLectureQuerySchema,
  LectureParamsSchema,
  LectureResponseSchema,
  LecturesResponseSchema,
  MoveLectureSchema,
  MoveSectionSchema,
  SectionParamsSchema,
  SectionResponseSchema,
  SectionTitleSchema,
  UpdateLectureSchema,
} from './lectures.ts';
import type {
  EmailChangeSchema,
  EmailChangeTokenParamsSchema,
  GrantAccessSchema,
  LearnerParamsSchema,
  LearnerResponseSchema,
  LearnersExportQuerySchema,
  LearnersQuerySchema,
  LearnersResponseSchema,
  PaymentParamsSchema,
  RefundRequestSchema,
  RefundResponseSchema,
  ResendDocumentSchema,
  RevokeAccessSchema,
} from './learners.ts';
import type {
  CancellationReasonsResponseSchema,
  CancellationSchema,
  CancellationTermsResponseSchema,
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
import type {
  AccountParamsSchema,
  AccountResponseSchema,
  HeartbeatResponseSchema,
  PlaybackParamsSchema,
  PlaybackResponseSchema,
  SessionParamsSchema,
  SessionsEndedResponseSchema,
  SessionsResponseSchema,
  SharingRiskResponseSchema,
  StartPlaybackSchema,
  StreamsResponseSchema,
  SuspensionSchema,
  TraceQuerySchema,
  TraceResponseSchema,
} from './protection.ts';
import type {
  AttemptParamsSchema,
  AttemptResultResponseSchema,
  AuthoredQuizResponseSchema,
  CourseQuizResultsResponseSchema,
  CourseQuizzesParamsSchema,
  LearnerQuizParamsSchema,
  LearnerQuizResponseSchema,
  NewQuizSchema,
  OpenAttemptResponseSchema,
  QuizAttemptsQuerySchema,
  QuizAttemptsResponseSchema,
  QuizInputSchema,
  QuizParamsSchema,
  QuizPlacementSchema,
  SubmissionSchema,
} from './quizzes.ts';
import type { ResourceParamsSchema, ResourceResponseSchema, ResourcesResponseSchema } from './resources.ts';
import type {
  LegalPageParamsSchema,
  LegalPageResponseSchema,
  LegalPageUpdateSchema,
  SettingsResponseSchema,
  SettingsUpdateSchema,
  SiteResponseSchema,
} from './settings.ts';
import type {
  PaymentRecordsQuerySchema,
  PaymentRecordsResponseSchema,
  RevenueExportQuerySchema,
  RevenueResponseSchema,
  UserStatsResponseSchema,
} from './stats.ts';
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

// One declarer for each access: an entry reads `admin<{ ... }>('GET', '/admin/plans')`, and the browser gets each word once.
/** Anyone may call it ('public'). */
const anyone = declarer('public');
/** Anyone logged in, even before choosing their own password ('session'). */
const session = declarer('session');
/** A logged-in user with their own password ('user'). */
const user = declarer('user');
/** An administrator ('admin'). */
const admin = declarer('admin');

/**
 * The HTTP surface, once: every endpoint's method, path under `API_PREFIX` and who may call it (its declarer),
 * with the schemas of what it takes and answers. The web app calls through this table;
 * `ParamsOf`, `QueryOf`, `BodyOf` and `ResponseOf` (http.ts) give the types. The server
 * registers every API route from it, through api.ts, which binds each entry to its schemas.
 * Schemas are imported as types only: this file costs the browser a few paths, not zod.
 */
export const endpoints = {
  users: {
    register: anyone<{ body: Multipart; response: typeof UserResponseSchema }>('POST', '/user/register'),
    login: anyone<{ body: typeof LoginSchema; response: typeof UserResponseSchema }>('POST', '/user/login'),
    /** The spec's client logs out with GET; POST is the proper verb and works too (api.ts). */
    logout: anyone<{ response: typeof MessageSchema }>('GET', '/user/logout'),
    /** Answers even while the user must first choose a password: the web app learns it here. */
    me: session<{ response: typeof UserResponseSchema }>('GET', '/user/me'),
    update: user<{ params: typeof UserIdParamsSchema; body: Multipart; response: typeof UserResponseSchema }>('PUT', '/user/update/:id'),
    /** With `me`, the one thing a user who must first choose a password may do. */
    changePassword: session<{ body: typeof ChangePasswordSchema; response: typeof MessageSchema }>('POST', '/user/change-password'),
    requestReset: anyone<{ body: typeof ForgotPasswordSchema; response: typeof MessageSchema }>('POST', '/user/reset'),
    reset: anyone<{ params: typeof ResetTokenParamsSchema; body: typeof ResetPasswordSchema; response: typeof MessageSchema }>('POST', '/user/reset/:token'),
    /** Signs in with a one-time link mailed past the login's ceiling (decision 0021). */
    signInWithLink: anyone<{ params: typeof SignInTokenParamsSchema; response: typeof UserResponseSchema }>('POST', '/user/sign-in/:token'),
    /** Confirms an email an administrator changed, with the link mailed to the new address (decision 0035). */
    confirmEmail: anyone<{ params: typeof EmailChangeTokenParamsSchema; response: typeof MessageSchema }>('POST', '/user/email/:token'),
  },
  courses: {
    /** The catalogue a page at a time (`search`, `category`), or one course by `id`; administrators get the drafts too. */
    list: anyone<{ query: typeof ListCoursesQuerySchema; response: typeof CourseListResponseSchema }>('GET', '/courses'),
    create: admin<{ body: Multipart; response: typeof CourseResponseSchema }>('POST', '/courses'),
    update: admin<{ params: typeof CourseIdParamsSchema; body: Multipart; response: typeof CourseResponseSchema }>('PUT', '/courses/:id'),
    delete: admin<{ params: typeof CourseIdParamsSchema; response: typeof MessageSchema }>('DELETE', '/courses/:id'),
    /** Publishes a draft now, or schedules it (`publishAt`). */
    publish: admin<{ params: typeof CourseIdParamsSchema; body: typeof PublishCourseSchema; response: typeof CourseResponseSchema }>(
      'POST',
      '/courses/:id/publish',
    ),
    /** Makes a course a draft again, and drops its schedule. */
    unpublish: admin<{ params: typeof CourseIdParamsSchema; response: typeof CourseResponseSchema }>('POST', '/courses/:id/unpublish'),
    /** Public: the course with every lecture's title and duration; a free preview's video URL. */
    curriculum: anyone<{ params: typeof CurriculumParamsSchema; response: typeof CurriculumResponseSchema }>('GET', '/courses/:id/curriculum'),
  },
  lectures: {
    /** A course's lectures with their video URLs: active subscribers and admins only. */
    list: user<{ params: typeof CourseIdParamsSchema; response: typeof LecturesResponseSchema }>('GET', '/courses/:id'),
    /** Multipart: title, description and the video as `lectures`. */
    add: admin<{ params: typeof CourseIdParamsSchema; body: Multipart; response: typeof CourseWithLecturesResponseSchema }>('POST', '/courses/:id'),
    delete: admin<{ query: typeof DeleteLectureQuerySchema; response: typeof CourseWithLecturesResponseSchema }>('DELETE', '/courses'),
    /** A lecture's title, description, and whether it is a free preview. */
    update: admin<{ params: typeof LectureParamsSchema; body: typeof UpdateLectureSchema; response: typeof LectureResponseSchema }>(
      'PATCH',
      '/courses/:courseId/lectures/:lectureId',
    ),
    /** Into a section (or none), after a lecture of it (or first). */
    move: admin<{ params: typeof LectureParamsSchema; body: typeof MoveLectureSchema; response: typeof MessageSchema }>(
      'PUT',
      '/courses/:courseId/lectures/:lectureId/position',
    ),
    /** A course's sections: appended last; renamed; deleted (its lectures join the part before it); moved. */
    addSection: admin<{ params: typeof CourseIdParamsSchema; body: typeof SectionTitleSchema; response: typeof SectionResponseSchema }>(
      'POST',
      '/courses/:id/sections',
    ),
    renameSection: admin<{ params: typeof SectionParamsSchema; body: typeof SectionTitleSchema; response: typeof SectionResponseSchema }>(
      'PATCH',
      '/courses/:courseId/sections/:sectionId',
    ),
    deleteSection: admin<{ params: typeof SectionParamsSchema; response: typeof MessageSchema }>('DELETE', '/courses/:courseId/sections/:sectionId'),
    moveSection: admin<{ params: typeof SectionParamsSchema; body: typeof MoveSectionSchema; response: typeof MessageSchema }>(
      'PUT',
      '/courses/:courseId/sections/:sectionId/position',
    ),
    /** Process a lecture's video again after its processing failed. */
    retryProcessing: admin<{ params: typeof LectureParamsSchema; response: typeof LectureResponseSchema }>(
      'POST',
      '/courses/:courseId/lectures/:lectureId/processing',
    ),
    /** Multipart: the new video as `lectures`; the lecture keeps its id, place and learners' progress. */
    replaceVideo: admin<{ params: typeof LectureParamsSchema; body: Multipart; response: typeof LectureResponseSchema }>(
      'PUT',
      '/courses/:courseId/lectures/:lectureId/video',
    ),
  },
  resources: {
    /** A lecture's files with download links: for those who may watch it; a free preview's for anyone logged in. */
    list: user<{ params: typeof LectureParamsSchema; response: typeof ResourcesResponseSchema }>('GET', '/courses/:courseId/lectures/:lectureId/resources'),
    /** Multipart: the file as `file`. */
    add: admin<{ params: typeof LectureParamsSchema; body: Multipart; response: typeof ResourceResponseSchema }>(
      'POST',
      '/courses/:courseId/lectures/:lectureId/resources',
    ),
    delete: admin<{ params: typeof ResourceParamsSchema; response: typeof MessageSchema }>(
      'DELETE',
      '/courses/:courseId/lectures/:lectureId/resources/:resourceId',
    ),
  },
  /** A lecture's captions, one file per language (decision 0032). */
  captions: {
    /** With links to each WebVTT file made for this viewer: those who may watch the lecture (a free preview's, anyone). */
    list: anyone<{ params: typeof LectureParamsSchema; response: typeof CaptionsResponseSchema }>('GET', '/courses/:courseId/lectures/:lectureId/captions'),
    /** Multipart: the WebVTT or SRT file as `captions`, with `language`, `label` and optionally `default`. */
    add: admin<{ params: typeof LectureParamsSchema; body: Multipart; response: typeof CaptionResponseSchema }>(
      'POST',
      '/courses/:courseId/lectures/:lectureId/captions',
    ),
    /** Multipart: a new file as `captions` (and optionally `label`), a new version of the same language. */
    replace: admin<{ params: typeof CaptionParamsSchema; body: Multipart; response: typeof CaptionResponseSchema }>(
      'PUT',
      '/courses/:courseId/lectures/:lectureId/captions/:captionId',
    ),
    /** A new label, or made the lecture's default. */
    update: admin<{ params: typeof CaptionParamsSchema; body: typeof CaptionUpdateSchema; response: typeof CaptionResponseSchema }>(
      'PATCH',
      '/courses/:courseId/lectures/:lectureId/captions/:captionId',
    ),
    /** The cue editor's save: every cue; stored as a new WebVTT version. */
    saveCues: admin<{ params: typeof CaptionParamsSchema; body: typeof CaptionCuesSchema; response: typeof CaptionResponseSchema }>(
      'PUT',
      '/courses/:courseId/lectures/:lectureId/captions/:captionId/cues',
    ),
    delete: admin<{ params: typeof CaptionParamsSchema; response: typeof MessageSchema }>(
      'DELETE',
      '/courses/:courseId/lectures/:lectureId/captions/:captionId',
    ),
    /** Words said in the lectures of published courses, best first, each with where to open it. */
    search: anyone<{ query: typeof CaptionSearchQuerySchema; response: typeof CaptionSearchResponseSchema }>('GET', '/captions/search'),
  },
  /** Certificates of completion (decision 0033). */
  certificates: {
    /** The learner's certificates, and the name printed on them. */
    mine: user<{ response: typeof MyCertificatesResponseSchema }>('GET', '/certificates'),
    /** The name printed on the learner's certificates: chosen once. */
    chooseName: user<{ body: typeof CertificateNameSchema; response: typeof MyCertificatesResponseSchema }>('PUT', '/certificates/name'),
    /** The learner's certificate of a course, or what is left to earn it. */
    forCourse: user<{ params: typeof CourseIdParamsSchema; response: typeof CourseCertificateResponseSchema }>('GET', '/courses/:id/certificate'),
    /** Anyone: a certificate by its code, valid or revoked; 404 for a code no certificate has. */
    verify: anyone<{ params: typeof CertificateCodeParamsSchema; response: typeof VerifyCertificateResponseSchema }>('GET', '/certificates/:code'),
    /** The PDF, for its learner and administrators (409 while it is being made): a download the pages link to. */
    pdf: user<{ params: typeof CertificateCodeParamsSchema; response: Download }>('GET', '/certificates/:code/pdf'),
    /** Admin: every certificate issued (or one course's), newest first, a page at a time. */
    list: admin<{ query: typeof AdminCertificatesQuerySchema; response: typeof AdminCertificatesResponseSchema }>('GET', '/admin/certificates'),
    /** Admin: issue one by hand, to an account by its email. */
    issue: admin<{ body: typeof IssueCertificateSchema; response: typeof AdminCertificateResponseSchema }>('POST', '/admin/certificates'),
    /** Admin: revoke a certificate (its page says so, with the date), or restore it. */
    revoke: admin<{ params: typeof CertificateCodeParamsSchema; body: typeof CertificateRevocationSchema; response: typeof AdminCertificateResponseSchema }>(
      'PUT',
      '/admin/certificates/:code/revocation',
    ),
    /** Admin: a CSV download of the certificates issued. */
    export: admin<{ query: typeof CertificatesExportQuerySchema; response: Download }>('GET', '/admin/certificates/export'),
  },
  /** Quizzes: written by administrators in versions, taken by learners, graded by the server alone (decision 0034). */
  quizzes: {
    /** Admin: a quiz as written, answers and all (its current version). */
    authored: admin<{ params: typeof QuizParamsSchema; response: typeof AuthoredQuizResponseSchema }>('GET', '/courses/:courseId/quizzes/:quizId'),
    /** Admin: add a quiz to a course, at its place in the curriculum. */
    create: admin<{ params: typeof CourseQuizzesParamsSchema; body: typeof NewQuizSchema; response: typeof AuthoredQuizResponseSchema }>(
      'POST',
      '/courses/:courseId/quizzes',
    ),
    /** Admin: save the quiz whole; a change makes a new version, and attempts stay graded against the one they answered. */
    update: admin<{ params: typeof QuizParamsSchema; body: typeof QuizInputSchema; response: typeof AuthoredQuizResponseSchema }>(
      'PUT',
      '/courses/:courseId/quizzes/:quizId',
    ),
    /** Admin: move the quiz to another place in the curriculum. */
    place: admin<{ params: typeof QuizParamsSchema; body: typeof QuizPlacementSchema; response: typeof AuthoredQuizResponseSchema }>(
      'PUT',
      '/courses/:courseId/quizzes/:quizId/place',
    ),
    /** Admin: delete the quiz and its attempts. */
    delete: admin<{ params: typeof QuizParamsSchema; response: typeof MessageSchema }>('DELETE', '/courses/:courseId/quizzes/:quizId'),
    /** A learner's view of a quiz: the rules, their attempts, an attempt under way. */
    get: user<{ params: typeof LearnerQuizParamsSchema; response: typeof LearnerQuizResponseSchema }>('GET', '/quizzes/:quizId'),
    /** Start an attempt (or carry on with the one under way): its questions, without their answers. */
    start: user<{ params: typeof LearnerQuizParamsSchema; response: typeof OpenAttemptResponseSchema }>('POST', '/quizzes/:quizId/attempts'),
    /** Submit an attempt's answers: graded once, by the server, within the time limit. */
    submit: user<{ params: typeof AttemptParamsSchema; body: typeof SubmissionSchema; response: typeof AttemptResultResponseSchema }>(
      'POST',
      '/quizzes/:quizId/attempts/:attemptId/submission',
    ),
    /** A graded attempt of the learner's, question by question. */
    attempt: user<{ params: typeof AttemptParamsSchema; response: typeof AttemptResultResponseSchema }>('GET', '/quizzes/:quizId/attempts/:attemptId'),
    /** Admin: each quiz of a course: attempts, learners, pass rate, average score, hardest questions. */
    results: admin<{ params: typeof CourseQuizzesParamsSchema; response: typeof CourseQuizResultsResponseSchema }>(
      'GET',
      '/admin/courses/:courseId/quiz-results',
    ),
    /** Admin: a course's attempts (or one learner's), newest first, a page at a time. */
    attempts: admin<{ params: typeof CourseQuizzesParamsSchema; query: typeof QuizAttemptsQuerySchema; response: typeof QuizAttemptsResponseSchema }>(
      'GET',
      '/admin/courses/:courseId/quiz-attempts',
    ),
  },
  video: {
    /** Whether this server can process videos, and if not, why. */
    status: admin<{ response: typeof VideoStatusResponseSchema }>('GET', '/video/status'),
  },
  payments: {
    /** The provider's public key, the Checkout script to load and the bundle's price. */
    razorpayKey: user<{ response: typeof RazorpayKeyResponseSchema }>('GET', '/payments/razorpay-key'),
    /** The bundle's price per month and refund window, for the storefront. */
    plan: anyone<{ response: typeof PlanResponseSchema }>('GET', '/payments/plan'),
    /** The plans on sale; signed in, whether a free trial would be the learner's. */
    plans: anyone<{ response: typeof PlansResponseSchema }>('GET', '/payments/plans'),
    /** The spec's client sends no body (the default plan); it may name a plan, a coupon, whether to take the trial. */
    subscribe: user<{ body: typeof SubscribeSchema; response: typeof SubscribeResponseSchema }>('POST', '/payments/subscribe'),
    verify: user<{ body: typeof VerifyPaymentSchema; response: typeof MessageSchema }>('POST', '/payments/verify'),
    /** The body (a reason and a note, both optional) may be left out, as the spec's client does. */
    unsubscribe: user<{ body: typeof CancellationSchema; response: typeof UnsubscribeResponseSchema }>('POST', '/payments/unsubscribe'),
    /** What cancelling now would do for this subscriber (refund or not, access until when), by the rule unsubscribe applies. */
    cancellation: user<{ response: typeof CancellationTermsResponseSchema }>('GET', '/payments/cancellation'),
    /** The discount the cancellation dialog may offer instead of cancelling, and taking it. */
    saveOffer: user<{ response: typeof SaveOfferResponseSchema }>('GET', '/payments/save-offer'),
    acceptSaveOffer: user<{ response: typeof SaveOfferResponseSchema }>('POST', '/payments/save-offer'),
    /** The provider's events: anyone may post, the signature over the raw body says who sent it. */
    webhook: anyone<{ body: RawBody; response: typeof WebhookResponseSchema }>('POST', '/payments/webhook'),
  },
  stats: {
    users: admin<{ response: typeof UserStatsResponseSchema }>('GET', '/admin/status/users'),
    /** The latest `count` payments and this year's sales by month: the spec serves them under /payments. */
    paymentRecords: admin<{ query: typeof PaymentRecordsQuerySchema; response: typeof PaymentRecordsResponseSchema }>('GET', '/payments'),
    /** Active learners this week, subscribers who stopped watching, each course's starters and completions. */
    engagement: admin<{ response: typeof EngagementResponseSchema }>('GET', '/admin/engagement'),
    /** Why subscribers cancelled lately, counted, and the latest in their own words. */
    cancellations: admin<{ response: typeof CancellationReasonsResponseSchema }>('GET', '/admin/cancellations'),
    /** MRR, subscribers, churn, refunds and net revenue this month, 12 months of new vs cancelled, the latest payments. */
    revenue: admin<{ response: typeof RevenueResponseSchema }>('GET', '/admin/revenue'),
    /** A CSV download, which the page links to. */
    revenueExport: admin<{ query: typeof RevenueExportQuerySchema; response: Download }>('GET', '/admin/revenue/export'),
  },
  /** The plans sold. */
  plans: {
    list: admin<{ response: typeof AdminPlansResponseSchema }>('GET', '/admin/plans'),
    create: admin<{ body: typeof PlanInputSchema; response: typeof AdminPlanResponseSchema }>('POST', '/admin/plans'),
    /** A new price makes a new price version: subscribers keep paying what they bought. */
    update: admin<{ params: typeof PlanIdParamsSchema; body: typeof PlanUpdateSchema; response: typeof AdminPlanResponseSchema }>('PATCH', '/admin/plans/:id'),
  },
  /** The coupons given. */
  coupons: {
    list: admin<{ response: typeof CouponsResponseSchema }>('GET', '/admin/coupons'),
    create: admin<{ body: typeof CouponInputSchema; response: typeof CouponResponseSchema }>('POST', '/admin/coupons'),
    update: admin<{ params: typeof CouponIdParamsSchema; body: typeof CouponUpdateSchema; response: typeof CouponResponseSchema }>(
      'PATCH',
      '/admin/coupons/:id',
    ),
  },
  /** The signed-in learner's progress. Writes are throttled per session. */
  progress: {
    /** Every course the learner has started, most recent first, and their settings. */
    mine: user<{ response: typeof MyProgressResponseSchema }>('GET', '/progress'),
    course: user<{ params: typeof CourseIdParamsSchema; response: typeof CourseProgressResponseSchema }>('GET', '/progress/courses/:id'),
    /** POST, so that the page's last save can go with navigator.sendBeacon. */
    save: user<{ params: typeof LectureProgressParamsSchema; body: typeof SaveProgressSchema; response: typeof SaveProgressResponseSchema }>(
      'POST',
      '/progress/lectures/:lectureId',
    ),
    /** Mark a lecture as completed, or not. */
    complete: user<{ params: typeof LectureProgressParamsSchema; body: typeof CompletionSchema; response: typeof SaveProgressResponseSchema }>(
      'PUT',
      '/progress/lectures/:lectureId/completed',
    ),
    settings: user<{ body: typeof ProgressSettingsSchema; response: typeof ProgressSettingsResponseSchema }>('PUT', '/progress/settings'),
  },
  /** The signed-in buyer's billing. */
  billing: {
    details: user<{ response: typeof BillingDetailsResponseSchema }>('GET', '/billing/details'),
    saveDetails: user<{ body: typeof BillingDetailsSchema; response: typeof BillingDetailsResponseSchema }>('PUT', '/billing/details'),
    history: user<{ response: typeof BillingHistoryResponseSchema }>('GET', '/billing/history'),
    /** An invoice's or credit note's PDF, for its buyer or an admin (409 while it is being made): a download the page links to. */
    document: user<{ params: typeof BillingDocumentParamsSchema; response: Download }>('GET', '/billing/documents/:id/pdf'),
  },
  contact: {
    send: anyone<{ body: typeof ContactSchema; response: typeof MessageSchema }>('POST', '/contact'),
    /** Admin: the inbox, newest first, a page at a time. */
    list: admin<{ query: typeof ContactMessagesQuerySchema; response: typeof ContactMessagesResponseSchema }>('GET', '/contact'),
  },
  site: {
    /** What the storefront shows of the seller; every page already carries it in its HTML. */
    get: anyone<{ response: typeof SiteResponseSchema }>('GET', '/site'),
  },
  settings: {
    get: admin<{ response: typeof SettingsResponseSchema }>('GET', '/settings'),
    /** Any of the fields, each replaced whole; the others stay as they are. */
    update: admin<{ body: typeof SettingsUpdateSchema; response: typeof SettingsResponseSchema }>('PATCH', '/settings'),
    /** Multipart: the logo as `logo`. */
    setLogo: admin<{ body: Multipart; response: typeof SettingsResponseSchema }>('PUT', '/settings/logo'),
    removeLogo: admin<{ response: typeof SettingsResponseSchema }>('DELETE', '/settings/logo'),
  },
  /** Streams at once: a lease a playing device renews, and the watermark's code (decision 0031). */
  playback: {
    /** A lease to play the lecture on this device, with the watermark it carries; 409 names the devices already playing. */
    start: user<{ body: typeof StartPlaybackSchema; response: typeof PlaybackResponseSchema }>('POST', '/playback'),
    /** Renews the lease; 410 once it was stopped or lapsed. POST, so a closing page's can go with navigator.sendBeacon. */
    heartbeat: user<{ params: typeof PlaybackParamsSchema; response: typeof HeartbeatResponseSchema }>('POST', '/playback/:id/heartbeat'),
    /** Ends a lease of the account's: this device's, or another's ("Stop playback there"). */
    stop: user<{ params: typeof PlaybackParamsSchema; response: typeof MessageSchema }>('DELETE', '/playback/:id'),
    /** The account's devices playing now, and how many it may. */
    streams: user<{ response: typeof StreamsResponseSchema }>('GET', '/playback'),
  },
  /** The signed-in user's sessions: every browser signed in to the account. */
  sessions: {
    list: user<{ response: typeof SessionsResponseSchema }>('GET', '/user/sessions'),
    signOut: user<{ params: typeof SessionParamsSchema; response: typeof MessageSchema }>('DELETE', '/user/sessions/:id'),
    /** Every session but this one. */
    signOutOthers: user<{ response: typeof SessionsEndedResponseSchema }>('POST', '/user/sessions/sign-out-others'),
  },
  /** What an administrator does about shared accounts and leaked clips. */
  protection: {
    /** The playbacks whose watermark code contains `code`: account, lecture, time and address block. */
    trace: admin<{ query: typeof TraceQuerySchema; response: typeof TraceResponseSchema }>('GET', '/admin/trace'),
    /** Accounts seen from many address blocks, or refused many streams, in the last 24 hours. */
    sharingRisk: admin<{ response: typeof SharingRiskResponseSchema }>('GET', '/admin/sharing-risk'),
    endSessions: admin<{ params: typeof AccountParamsSchema; response: typeof SessionsEndedResponseSchema }>('DELETE', '/admin/users/:id/sessions'),
    /** Suspends an account (its sessions end, it cannot log in) or restores it. */
    suspend: admin<{ params: typeof AccountParamsSchema; body: typeof SuspensionSchema; response: typeof AccountResponseSchema }>(
      'PUT',
      '/admin/users/:id/suspension',
    ),
  },
  /** The administrator's learners: find, read, grant, refund, export (decision 0035). Suspension and sessions are under `protection`. */
  learners: {
    /** Search (name or email, any part), state, order; a page at a time by cursor. */
    list: admin<{ query: typeof LearnersQuerySchema; response: typeof LearnersResponseSchema }>('GET', '/admin/learners'),
    /** A CSV download of the learners the list's search and state find, streamed. */
    export: admin<{ query: typeof LearnersExportQuerySchema; response: Download }>('GET', '/admin/learners/export'),
    /** One learner: profile, access, subscriptions, payments, progress, sessions, quizzes, certificates, cancellations, activity. */
    get: admin<{ params: typeof LearnerParamsSchema; response: typeof LearnerResponseSchema }>('GET', '/admin/learners/:id'),
    /** Complimentary access for some days or until a date: every course, no payment. */
    grantAccess: admin<{ params: typeof LearnerParamsSchema; body: typeof GrantAccessSchema; response: typeof MessageSchema }>(
      'POST',
      '/admin/learners/:id/access',
    ),
    /** Ends complimentary access now. */
    revokeAccess: admin<{ params: typeof LearnerParamsSchema; body: typeof RevokeAccessSchema; response: typeof MessageSchema }>(
      'POST',
      '/admin/learners/:id/access/revocation',
    ),
    /** A new email, mailed a confirmation link; the account's email changes once it is opened. */
    changeEmail: admin<{ params: typeof LearnerParamsSchema; body: typeof EmailChangeSchema; response: typeof MessageSchema }>(
      'PUT',
      '/admin/learners/:id/email',
    ),
    /** Refund a payment in full or in part through the provider; `key` makes a repeat the same refund. */
    refund: admin<{ params: typeof PaymentParamsSchema; body: typeof RefundRequestSchema; response: typeof RefundResponseSchema }>(
      'POST',
      '/admin/payments/:id/refunds',
    ),
    /** Mail an invoice or credit note to its buyer again. */
    resendDocument: admin<{ params: typeof BillingDocumentParamsSchema; body: typeof ResendDocumentSchema; response: typeof MessageSchema }>(
      'POST',
      '/admin/billing/documents/:id/resend',
    ),
  },
  /** The audit trail: what administrators did, newest first (decision 0035). */
  activity: {
    list: admin<{ query: typeof ActivityQuerySchema; response: typeof ActivityResponseSchema }>('GET', '/admin/activity'),
    export: admin<{ query: typeof ActivityExportQuerySchema; response: Download }>('GET', '/admin/activity/export'),
  },
  legalPages: {
    get: anyone<{ params: typeof LegalPageParamsSchema; response: typeof LegalPageResponseSchema }>('GET', '/pages/:page'),
    update: admin<{ params: typeof LegalPageParamsSchema; body: typeof LegalPageUpdateSchema; response: typeof LegalPageResponseSchema }>(
      'PUT',
      '/pages/:page',
    ),
    /** Back to the starting template. */
    reset: admin<{ params: typeof LegalPageParamsSchema; response: typeof LegalPageResponseSchema }>('DELETE', '/pages/:page'),
  },
} as const;
