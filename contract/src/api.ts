// The table and its runtime schemas, one entry an endpoint: long by nature, and read an entry at a time.
import type { z } from 'zod';
import { BillingDetailsResponseSchema, BillingDetailsSchema, BillingDocumentParamsSchema, BillingHistoryResponseSchema } from './billing.ts';
import {
  CaptionCuesSchema,
  CaptionParamsSchema,
  CaptionResponseSchema,
  CaptionSearchQuerySchema,
  CaptionSearchResponseSchema,
  CaptionsResponseSchema,
  CaptionUpdateSchema,
} from './captions.ts';
import {
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
import { ActivityExportQuerySchema, ActivityQuerySchema, ActivityResponseSchema } from './audit.ts';
import { ContactMessagesQuerySchema, ContactMessagesResponseSchema, ContactSchema } from './contact.ts';
import { CourseIdParamsSchema, CourseListResponseSchema, CourseResponseSchema, ListCoursesQuerySchema, PublishCourseSchema } from './courses.ts';
import { endpoints } from './endpoints.ts';
import type { Endpoint, Method, Schemas, SchemasOf } from './http.ts';
import {
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
import {
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
import {
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
import {
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
import {
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
import {
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
  StreamLimitSchema,
  StreamsResponseSchema,
  SuspensionSchema,
  TraceQuerySchema,
  TraceResponseSchema,
} from './protection.ts';
import {
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
import { ResourceParamsSchema, ResourceResponseSchema, ResourcesResponseSchema } from './resources.ts';
import {
  LegalPageParamsSchema,
  LegalPageResponseSchema,
  LegalPageUpdateSchema,
  SettingsResponseSchema,
  SettingsUpdateSchema,
  SiteResponseSchema,
} from './settings.ts';
import { PaymentRecordsQuerySchema, PaymentRecordsResponseSchema, RevenueExportQuerySchema, RevenueResponseSchema, UserStatsResponseSchema } from './stats.ts';
import {
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
import { VideoStatusResponseSchema } from './video.ts';

/**
 * The server's half of the table: each endpoint of endpoints.ts with the zod schemas it
 * validates with, its OpenAPI summary and its success status. The web app never imports this
 * file (its first chunk would carry zod); the server registers every API route from `api`.
 */

/** What the server adds to an entry of the table. */
interface Binding<S extends Schemas> {
  /** The schemas the table names by type, here as values. */
  schemas: S;
  /** One line for the OpenAPI page. */
  summary: string;
  /** The status of the answer, when it is not 200 (201 for something created). */
  status?: 201;
  /** Other successful answers, by status, with their schemas (202: accepted, written a moment later). */
  alsoAnswers?: Record<number, z.ZodType>;
  /** Other methods the same path answers the same way (kept out of the browser's table, which never uses them). */
  alsoMethods?: Method[];
}

type Table = typeof endpoints;
export type Bindings = { [G in keyof Table]: { [K in keyof Table[G]]: Binding<SchemasOf<Table[G][K]>> } };

const bindings = {
  users: {
    register: {
      schemas: { body: 'multipart', response: UserResponseSchema },
      summary: 'Sign up (multipart: fullName, email, password, avatar); logs the new user in',
      status: 201,
    },
    login: { schemas: { body: LoginSchema, response: UserResponseSchema }, summary: 'Log in' },
    logout: { schemas: { response: MessageSchema }, summary: 'Log out: ends this session', alsoMethods: ['POST'] },
    me: { schemas: { response: UserResponseSchema }, summary: 'The logged-in user' },
    update: {
      schemas: { params: UserIdParamsSchema, body: 'multipart', response: UserResponseSchema },
      summary: 'Edit your own profile (multipart: fullName, optional avatar)',
    },
    changePassword: { schemas: { body: ChangePasswordSchema, response: MessageSchema }, summary: 'Change password: ends every other session' },
    requestReset: {
      schemas: { body: ForgotPasswordSchema, response: MessageSchema },
      summary: 'Forgot password: mails a reset link; the same answer for any email',
    },
    reset: {
      schemas: { params: ResetTokenParamsSchema, body: ResetPasswordSchema, response: MessageSchema },
      summary: 'Set a new password with a reset link (single use, 15 minutes)',
    },
    signInWithLink: {
      schemas: { params: SignInTokenParamsSchema, response: UserResponseSchema },
      summary: 'Sign in with a one-time link, mailed when the right password came past the login limit from an unknown browser',
    },
    confirmEmail: {
      schemas: { params: EmailChangeTokenParamsSchema, response: MessageSchema },
      summary: 'Confirm an email an administrator changed, with the link mailed to the new address (single use, 24 hours); every session ends',
    },
  },
  courses: {
    list: {
      schemas: { query: ListCoursesQuerySchema, response: CourseListResponseSchema },
      summary: 'The catalogue, newest first: search (title, category, instructor), category, id, page, limit; for administrators drafts first, then the rest',
    },
    create: {
      schemas: { body: 'multipart', response: CourseResponseSchema },
      summary: 'Create a course (multipart: title, description, category, createdBy, thumbnail)',
      status: 201,
    },
    update: {
      schemas: { params: CourseIdParamsSchema, body: 'multipart', response: CourseResponseSchema },
      summary: 'Edit a course (multipart: any of title, description, category, createdBy, thumbnail)',
    },
    delete: { schemas: { params: CourseIdParamsSchema, response: MessageSchema }, summary: 'Delete a course with its lectures and all their media' },
    publish: {
      schemas: { params: CourseIdParamsSchema, body: PublishCourseSchema, response: CourseResponseSchema },
      summary: 'Publish a course now, or at publishAt (ISO 8601) when that is in the future; refused while it has no lecture',
    },
    unpublish: {
      schemas: { params: CourseIdParamsSchema, response: CourseResponseSchema },
      summary: 'Make a course a draft again (administrators only see it), dropping any schedule',
    },
    curriculum: {
      schemas: { params: CurriculumParamsSchema, response: CurriculumResponseSchema },
      summary: "A course's public curriculum: every lecture's title, description, duration and preview flag; video URLs of free previews only",
    },
  },
  lectures: {
    list: {
      schemas: { params: CourseIdParamsSchema, response: LecturesResponseSchema },
      summary: "A course's lectures, for active subscribers and administrators",
    },
    add: {
      schemas: { params: CourseIdParamsSchema, body: 'multipart', response: CourseWithLecturesResponseSchema },
      summary: "Add a lecture (multipart: lectures (the video file), title, description, and optionally preview: 'true' or 'false')",
      status: 201,
    },
    delete: { schemas: { query: DeleteLectureQuerySchema, response: CourseWithLecturesResponseSchema }, summary: 'Delete a lecture and its video' },
    update: {
      schemas: { params: LectureParamsSchema, body: UpdateLectureSchema, response: LectureResponseSchema },
      summary: 'Change a lecture: any of title, description and preview (true makes it a free preview anyone may watch, false makes it private again)',
    },
    move: {
      schemas: { params: LectureParamsSchema, body: MoveLectureSchema, response: MessageSchema },
      summary: 'Move a lecture: into the section sectionId (null: no section), after the lecture afterId of that section (null: first)',
    },
    addSection: {
      schemas: { params: CourseIdParamsSchema, body: SectionTitleSchema, response: SectionResponseSchema },
      summary: "Add a section (title) after the course's last",
      status: 201,
    },
    renameSection: { schemas: { params: SectionParamsSchema, body: SectionTitleSchema, response: SectionResponseSchema }, summary: 'Rename a section' },
    deleteSection: {
      schemas: { params: SectionParamsSchema, response: MessageSchema },
      summary: 'Delete a section: its lectures move, in order, to the end of the section before it (or of the lectures of no section)',
    },
    moveSection: {
      schemas: { params: SectionParamsSchema, body: MoveSectionSchema, response: MessageSchema },
      summary: 'Move a section after the section afterId (null: first)',
    },
    retryProcessing: {
      schemas: { params: LectureParamsSchema, response: LectureResponseSchema },
      summary: "Process a lecture's video again after its processing failed (409 in any other state)",
    },
    replaceVideo: {
      schemas: { params: LectureParamsSchema, body: 'multipart', response: LectureResponseSchema },
      summary:
        "Replace a lecture's video (multipart: lectures, the new video file), keeping its id, place and learners' progress; the current video plays until the new one is processed",
    },
  },
  resources: {
    list: {
      schemas: { params: LectureParamsSchema, response: ResourcesResponseSchema },
      summary: "A lecture's files with download links made for you: subscribers and administrators; a free preview's for anyone logged in",
    },
    add: {
      schemas: { params: LectureParamsSchema, body: 'multipart', response: ResourceResponseSchema },
      summary: 'Attach a file to a lecture (multipart: file): PDF, ZIP, PNG, JPEG, GIF, WebP or UTF-8 text, judged by its content',
      status: 201,
    },
    delete: { schemas: { params: ResourceParamsSchema, response: MessageSchema }, summary: 'Remove a file from a lecture, and its stored copy' },
  },
  captions: {
    list: {
      schemas: { params: LectureParamsSchema, response: CaptionsResponseSchema },
      summary: "A lecture's captions with links to their WebVTT files made for you: for those who may watch the lecture; a free preview's for anyone",
    },
    add: {
      schemas: { params: LectureParamsSchema, body: 'multipart', response: CaptionResponseSchema },
      summary: 'Add captions to a lecture (multipart: captions, a WebVTT or SRT file; language, a BCP 47 tag; label; default): SRT is stored as WebVTT',
      status: 201,
    },
    replace: {
      schemas: { params: CaptionParamsSchema, body: 'multipart', response: CaptionResponseSchema },
      summary: 'Replace a caption file (multipart: captions; label), a new version of the same language',
    },
    update: {
      schemas: { params: CaptionParamsSchema, body: CaptionUpdateSchema, response: CaptionResponseSchema },
      summary: "Rename captions, or make them the lecture's default",
    },
    saveCues: {
      schemas: { params: CaptionParamsSchema, body: CaptionCuesSchema, response: CaptionResponseSchema },
      summary: "Save the cue editor's cues (times in seconds, WebVTT cue text) as a new version of the file",
    },
    delete: { schemas: { params: CaptionParamsSchema, response: MessageSchema }, summary: 'Remove captions from a lecture, and their stored file' },
    search: {
      schemas: { query: CaptionSearchQuerySchema, response: CaptionSearchResponseSchema },
      summary:
        'Search what is said in the lectures of published courses: the best cue of each matching lecture, its words marked, and whether you may watch it',
    },
  },
  certificates: {
    mine: { schemas: { response: MyCertificatesResponseSchema }, summary: 'Your certificates, newest first, and the name printed on them' },
    chooseName: {
      schemas: { body: CertificateNameSchema, response: MyCertificatesResponseSchema },
      summary: 'Choose the name printed on your certificates (once: 409 after); your certificates are made again with it',
    },
    forCourse: {
      schemas: { params: CourseIdParamsSchema, response: CourseCertificateResponseSchema },
      summary: 'Your certificate of a course, or what is left to earn it (lectures completed, quizzes passed)',
    },
    verify: {
      schemas: { params: CertificateCodeParamsSchema, response: VerifyCertificateResponseSchema },
      summary: 'Verify a certificate by its code (anyone): the name, course, date and issuer, and whether it was revoked; 404 for an unknown code',
    },
    pdf: {
      schemas: { params: CertificateCodeParamsSchema, response: 'download' },
      summary: "A certificate's PDF, for its learner and administrators (409 while it is being made)",
    },
    list: { schemas: { query: AdminCertificatesQuerySchema, response: AdminCertificatesResponseSchema }, summary: 'Certificates issued, newest first (admin)' },
    issue: {
      schemas: { body: IssueCertificateSchema, response: AdminCertificateResponseSchema },
      summary: 'Issue a certificate by hand to the account with this email, for a course (admin; 409 when they have one)',
      status: 201,
    },
    revoke: {
      schemas: { params: CertificateCodeParamsSchema, body: CertificateRevocationSchema, response: AdminCertificateResponseSchema },
      summary: 'Revoke a certificate, or restore it (admin)',
    },
    export: { schemas: { query: CertificatesExportQuerySchema, response: 'download' }, summary: 'The certificates issued as CSV (admin)' },
  },
  quizzes: {
    authored: { schemas: { params: QuizParamsSchema, response: AuthoredQuizResponseSchema }, summary: 'A quiz as written, with its answers (admin)' },
    create: {
      schemas: { params: CourseQuizzesParamsSchema, body: NewQuizSchema, response: AuthoredQuizResponseSchema },
      summary: 'Add a quiz to a course: its settings, its questions, and its place in the curriculum (admin)',
      status: 201,
    },
    update: {
      schemas: { params: QuizParamsSchema, body: QuizInputSchema, response: AuthoredQuizResponseSchema },
      summary: 'Save a quiz whole (admin): a change makes a new version; attempts stay graded against the version they answered',
    },
    place: {
      schemas: { params: QuizParamsSchema, body: QuizPlacementSchema, response: AuthoredQuizResponseSchema },
      summary: 'Move a quiz: after a lecture, at the end of a section, or at the course’s end (admin)',
    },
    delete: { schemas: { params: QuizParamsSchema, response: MessageSchema }, summary: 'Delete a quiz and its attempts (admin)' },
    get: {
      schemas: { params: LearnerQuizParamsSchema, response: LearnerQuizResponseSchema },
      summary: 'A quiz for its learner: the rules, attempts left, past attempts, and the attempt under way',
    },
    start: {
      schemas: { params: LearnerQuizParamsSchema, response: OpenAttemptResponseSchema },
      summary: 'Start an attempt, or carry on with the one under way: its questions in its order, with nothing of their answers (409 once no attempt is left)',
    },
    submit: {
      schemas: { params: AttemptParamsSchema, body: SubmissionSchema, response: AttemptResultResponseSchema },
      summary: 'Submit answers: graded once by the server (409 for a second submission or after the time limit)',
    },
    attempt: { schemas: { params: AttemptParamsSchema, response: AttemptResultResponseSchema }, summary: 'A graded attempt of yours, question by question' },
    results: {
      schemas: { params: CourseQuizzesParamsSchema, response: CourseQuizResultsResponseSchema },
      summary: 'Each quiz of a course: attempts, learners, pass rate, average score and the hardest questions (admin)',
    },
    attempts: {
      schemas: { params: CourseQuizzesParamsSchema, query: QuizAttemptsQuerySchema, response: QuizAttemptsResponseSchema },
      summary: 'A course’s quiz attempts, or one learner’s, newest first (admin)',
    },
  },
  video: {
    status: {
      schemas: { response: VideoStatusResponseSchema },
      summary: 'Whether this server can process videos (admin): if not, why; if so, with which ffmpeg',
    },
  },
  payments: {
    razorpayKey: { schemas: { response: RazorpayKeyResponseSchema }, summary: "The payment provider's public key, Checkout script and price" },
    plan: { schemas: { response: PlanResponseSchema }, summary: "The bundle's price per month and refund window (public)" },
    plans: { schemas: { response: PlansResponseSchema }, summary: 'The plans on sale (public)' },
    subscribe: {
      schemas: { body: SubscribeSchema, response: SubscribeResponseSchema },
      summary: 'Start a subscription (the default plan without a body; or a plan, a coupon, the trial); Checkout takes the payment',
    },
    verify: { schemas: { body: VerifyPaymentSchema, response: MessageSchema }, summary: 'Verify the payment Checkout reported' },
    unsubscribe: {
      schemas: { body: CancellationSchema, response: UnsubscribeResponseSchema },
      summary: 'Cancel: the first cancellation inside the refund window in 12 months refunds and ends access now; any other keeps access to the period end',
    },
    cancellation: {
      schemas: { response: CancellationTermsResponseSchema },
      summary: 'What cancelling now would do for this subscriber: refunded or not, access until when',
    },
    saveOffer: { schemas: { response: SaveOfferResponseSchema }, summary: 'The save offer this subscriber may take instead of cancelling, if any' },
    acceptSaveOffer: { schemas: { response: SaveOfferResponseSchema }, summary: 'Take the save offer: the next payments are discounted' },
    webhook: {
      schemas: { body: 'raw', response: WebhookResponseSchema },
      summary: 'Razorpay webhook (X-Razorpay-Signature over the raw body; deduplicated on x-razorpay-event-id)',
    },
  },
  stats: {
    users: { schemas: { response: UserStatsResponseSchema }, summary: 'Registered users, and those with an active subscription' },
    paymentRecords: {
      schemas: { query: PaymentRecordsQuerySchema, response: PaymentRecordsResponseSchema },
      summary: 'The latest `count` payments, this year’s sales by month (Asia/Kolkata), subscriptions sold and net revenue',
    },
    engagement: {
      schemas: { response: EngagementResponseSchema },
      summary: 'Active learners this week, active subscribers who stopped watching (14 days), and per course: started, completed, average completion',
    },
    cancellations: {
      schemas: { response: CancellationReasonsResponseSchema },
      summary: 'Why subscribers cancelled in the last 90 days (most given first; null: skipped) and the latest 20 with their notes',
    },
    revenue: {
      schemas: { response: RevenueResponseSchema },
      summary:
        'MRR, subscribers, new and cancelled this month, churn rate, refunds, gross and net revenue; 12 months of new vs cancelled; the latest payments with their documents',
    },
    revenueExport: {
      schemas: { query: RevenueExportQuerySchema, response: 'download' },
      summary: "CSV for an accountant: the payments, or the invoices and credit notes, of a range of days (India's calendar, at most 400)",
    },
  },
  plans: {
    list: { schemas: { response: AdminPlansResponseSchema }, summary: 'Every plan, archived ones too, with its price versions and subscribers' },
    create: { schemas: { body: PlanInputSchema, response: AdminPlanResponseSchema }, summary: 'Create a plan', status: 201 },
    update: {
      schemas: { params: PlanIdParamsSchema, body: PlanUpdateSchema, response: AdminPlanResponseSchema },
      summary: 'Rename, re-price (a new price version: subscribers keep theirs), set the trial, archive or bring back a plan',
    },
  },
  coupons: {
    list: { schemas: { response: CouponsResponseSchema }, summary: 'Every coupon, with its redemptions' },
    create: { schemas: { body: CouponInputSchema, response: CouponResponseSchema }, summary: 'Create a coupon', status: 201 },
    update: {
      schemas: { params: CouponIdParamsSchema, body: CouponUpdateSchema, response: CouponResponseSchema },
      summary: 'Change when, how often and for which plans a coupon may be redeemed, whether it is the save offer, or archive it (its code and discount stay)',
    },
  },
  progress: {
    mine: {
      schemas: { response: MyProgressResponseSchema },
      summary: 'Every course the learner has started, most recent first, with where to pick each up',
    },
    course: {
      schemas: { params: CourseIdParamsSchema, response: CourseProgressResponseSchema },
      summary: "The learner's progress in each lecture of a course (course: null until started)",
    },
    save: {
      schemas: { params: LectureProgressParamsSchema, body: SaveProgressSchema, response: SaveProgressResponseSchema },
      summary:
        'Save the position in a lecture (every ~10 s, on pause, seek and leave; sendBeacon works). 202 when the session is over its rate: the latest save is written a moment later',
      alsoAnswers: { 202: SaveProgressResponseSchema },
    },
    complete: {
      schemas: { params: LectureProgressParamsSchema, body: CompletionSchema, response: SaveProgressResponseSchema },
      summary: 'Mark a lecture as completed ({ completed: true }) or not',
    },
    settings: {
      schemas: { body: ProgressSettingsSchema, response: ProgressSettingsResponseSchema },
      summary: "The learner's player settings: whether the next lecture starts by itself",
    },
  },
  billing: {
    details: {
      schemas: { response: BillingDetailsResponseSchema },
      summary: 'What goes on your invoices: business name, GSTIN, state, address',
    },
    saveDetails: {
      schemas: { body: BillingDetailsSchema, response: BillingDetailsResponseSchema },
      summary: 'Set what goes on your future invoices (a GSTIN needs its business name, and its state)',
    },
    history: {
      schemas: { response: BillingHistoryResponseSchema },
      summary: 'Your payments, newest first, with their invoices and credit notes; when the subscription renews or ends',
    },
    document: {
      schemas: { params: BillingDocumentParamsSchema, response: 'download' },
      summary: "An invoice's or credit note's PDF: your own, or anyone's for an admin. 409 while it is being made",
    },
  },
  contact: {
    send: {
      schemas: { body: ContactSchema, response: MessageSchema },
      summary: 'Send a message to the team (JSON: name, email, message); stored, then mailed',
    },
    list: { schemas: { query: ContactMessagesQuerySchema, response: ContactMessagesResponseSchema }, summary: 'The contact inbox, newest first: page, limit' },
  },
  site: {
    get: {
      schemas: { response: SiteResponseSchema },
      summary: "The seller's name, logo, colours, home page texts and contact details, as every page carries them",
    },
  },
  settings: {
    get: { schemas: { response: SettingsResponseSchema }, summary: "The site's settings, and which of the seller's details the server's environment sets" },
    update: {
      schemas: { body: SettingsUpdateSchema, response: SettingsResponseSchema },
      summary: 'Change any of the settings (each field replaced whole; brand colours are checked for AA contrast in both themes)',
    },
    setLogo: {
      schemas: { body: 'multipart', response: SettingsResponseSchema },
      summary: 'Upload the logo (multipart: logo; SVG, PNG or WebP, judged by its content); the favicon and app icons are made from it',
    },
    removeLogo: { schemas: { response: SettingsResponseSchema }, summary: "Remove the logo: the site's name shows instead, and the product's icons" },
  },
  playback: {
    start: {
      schemas: { body: StartPlaybackSchema, response: PlaybackResponseSchema },
      summary: 'A lease to play a lecture on this device, and its watermark; 409 when the account already plays on as many devices as it may, naming them',
      status: 201,
      alsoAnswers: { 409: StreamLimitSchema },
    },
    heartbeat: {
      schemas: { params: PlaybackParamsSchema, response: HeartbeatResponseSchema },
      summary: 'Renew a playback lease (every 30 s); 410 once it was stopped or lapsed, 403 for a lease not yours',
    },
    stop: { schemas: { params: PlaybackParamsSchema, response: MessageSchema }, summary: "Stop one of your account's playbacks, here or on another device" },
    streams: { schemas: { response: StreamsResponseSchema }, summary: "Your account's devices playing now, and how many may play at once" },
  },
  sessions: {
    list: { schemas: { response: SessionsResponseSchema }, summary: 'Your signed-in sessions: browser, system, address block, first and last seen' },
    signOut: { schemas: { params: SessionParamsSchema, response: MessageSchema }, summary: 'Sign out one of your sessions' },
    signOutOthers: { schemas: { response: SessionsEndedResponseSchema }, summary: 'Sign out every session but this one' },
  },
  protection: {
    trace: {
      schemas: { query: TraceQuerySchema, response: TraceResponseSchema },
      summary: 'The playbacks whose watermark code contains the one given: account, lecture, time, address block (admin)',
    },
    sharingRisk: {
      schemas: { response: SharingRiskResponseSchema },
      summary: 'Accounts seen from many address blocks, or refused many streams, in the last 24 hours (admin)',
    },
    endSessions: { schemas: { params: AccountParamsSchema, response: SessionsEndedResponseSchema }, summary: 'End every session of an account (admin)' },
    suspend: {
      schemas: { params: AccountParamsSchema, body: SuspensionSchema, response: AccountResponseSchema },
      summary: 'Suspend an account, ending its sessions, or restore it (admin)',
    },
  },
  learners: {
    list: {
      schemas: { query: LearnersQuerySchema, response: LearnersResponseSchema },
      summary: 'Learners: search by name or email (any part, any case), filter by state, sort by sign-up or last active; a page at a time by cursor (admin)',
    },
    export: {
      schemas: { query: LearnersExportQuerySchema, response: 'download' },
      summary: 'The learners the search and state find, as CSV, streamed (admin)',
    },
    get: {
      schemas: { params: LearnerParamsSchema, response: LearnerResponseSchema },
      summary:
        'One learner: profile, access, subscriptions, payments with their documents and refunds, progress, sessions, quizzes, certificates, cancellations, activity (admin)',
    },
    grantAccess: {
      schemas: { params: LearnerParamsSchema, body: GrantAccessSchema, response: MessageSchema },
      summary: 'Grant complimentary access to every course for some days or until a date, with a note; mailed to the learner (admin)',
    },
    revokeAccess: {
      schemas: { params: LearnerParamsSchema, body: RevokeAccessSchema, response: MessageSchema },
      summary: 'End complimentary access now, on every instance; mailed to the learner (admin)',
    },
    changeEmail: {
      schemas: { params: LearnerParamsSchema, body: EmailChangeSchema, response: MessageSchema },
      summary: 'Change a learner’s email: a confirmation link goes to the new address, the old one is told (admin)',
    },
    refund: {
      schemas: { params: PaymentParamsSchema, body: RefundRequestSchema, response: RefundResponseSchema },
      summary: 'Refund a payment in full or in part through the provider, access ending now or at the period’s end; a credit note is issued (admin)',
      status: 201,
    },
    resendDocument: {
      schemas: { params: BillingDocumentParamsSchema, body: ResendDocumentSchema, response: MessageSchema },
      summary: 'Mail an invoice or credit note to its buyer again (admin)',
    },
  },
  activity: {
    list: {
      schemas: { query: ActivityQuerySchema, response: ActivityResponseSchema },
      summary: 'The audit trail, newest first: by area, action, administrator, target, days; a page at a time by cursor (admin)',
    },
    export: { schemas: { query: ActivityExportQuerySchema, response: 'download' }, summary: 'The audit trail as CSV, streamed (admin)' },
  },
  legalPages: {
    get: { schemas: { params: LegalPageParamsSchema, response: LegalPageResponseSchema }, summary: 'A legal page (terms, privacy, refund-policy) as Markdown' },
    update: {
      schemas: { params: LegalPageParamsSchema, body: LegalPageUpdateSchema, response: LegalPageResponseSchema },
      summary: "Replace a legal page's Markdown",
    },
    reset: { schemas: { params: LegalPageParamsSchema, response: LegalPageResponseSchema }, summary: 'Put a legal page back to its starting template' },
  },
} satisfies Bindings;

/**
 * Every entry's schemas must be exactly the ones the table names: assignable is not enough, as a
 * response schema with an extra field is assignable to one without it. This fails to compile,
 * naming the entries that disagree.
 */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Disagreeing = {
  [G in keyof Table]: {
    [K in keyof Table[G]]: G extends keyof typeof bindings
      ? K extends keyof (typeof bindings)[G]
        ? (typeof bindings)[G][K] extends { schemas: infer S }
          ? Same<S, SchemasOf<Table[G][K]>> extends true
            ? never
            : `${G & string}.${K & string}`
          : never
        : never
      : never;
  }[keyof Table[G]];
}[keyof Table];
const agreeing: [Disagreeing] extends [never] ? true : Disagreeing = true;
void agreeing;

/** An endpoint as the server registers it: the table's entry with its schemas, summary and statuses. */
export interface ApiEndpoint<S extends Schemas = Schemas> extends Endpoint<S> {
  readonly schemas: S;
  readonly summary: string;
  readonly status: 200 | 201;
  readonly alsoAnswers: Readonly<Record<number, z.ZodType>>;
  /** `method`, and any other the path answers the same way. */
  readonly methods: readonly Method[];
  /** Where it is in the table, e.g. `courses.list`. */
  readonly name: string;
}

export type Api = { [G in keyof Table]: { [K in keyof Table[G]]: ApiEndpoint<SchemasOf<Table[G][K]>> } };

function merge(): Api {
  const merged: Record<string, Record<string, ApiEndpoint>> = {};
  for (const [group, entries] of Object.entries(endpoints)) {
    merged[group] = {};
    for (const [name, entry] of Object.entries(entries as Record<string, Endpoint>)) {
      const binding = (bindings as Record<string, Record<string, Binding<Schemas>>>)[group]![name]!;
      merged[group][name] = {
        ...entry,
        schemas: binding.schemas,
        summary: binding.summary,
        status: binding.status ?? 200,
        alsoAnswers: binding.alsoAnswers ?? {},
        methods: [entry.method, ...(binding.alsoMethods ?? [])],
        name: `${group}.${name}`,
      };
    }
  }
  return merged as Api;
}

/** The table with every entry's schemas: what the server registers its API routes from. */
export const api: Api = merge();

/** Every endpoint of the table, in its order. */
export const apiEndpoints: readonly ApiEndpoint[] = Object.values(api).flatMap((group) => Object.values(group) as ApiEndpoint[]);
