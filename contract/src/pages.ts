/**
 * Every page of the web app (the spec's screens and routes, and ours), in one place: the web app's
 * router is made from this list, and the server reads it to answer the app's page with 200 at these
 * paths and with 404 anywhere else (search engines and uptime checks read the status, not the
 * page's words).
 */
export const pagePaths = {
  home: '/',
  about: '/about',
  login: '/login',
  signup: '/Signup',
  courses: '/courses',
  courseDescription: '/course/description',
  courseLecture: '/course/lecture',
  addLecture: '/course/addlecture',
  createCourse: '/course/create',
  /** Ours: editing a course, reached from the dashboard. */
  editCourse: '/course/edit',
  /** Ours: a quiz of a course (`?id=` the course, `&quiz=` the quiz): taken by learners. */
  quiz: '/course/quiz',
  /** Ours: writing a quiz (`?id=` the course, `&quiz=` the quiz, none for a new one), reached from the course editor. */
  editQuiz: '/course/quiz/edit',
  /** Ours: a course's quiz results (`?id=` the course): attempts, pass rates, hardest questions, each learner's attempts. */
  quizResults: '/admin/quiz-results',
  dashboard: '/admin/dashboard',
  /** Ours: the plans sold and the coupons given, reached from the dashboard. */
  plans: '/admin/plans',
  coupons: '/admin/coupons',
  /** Ours: a watermark code seen in a leaked clip, traced to the account that played it. */
  trace: '/admin/trace',
  /** Ours: a certificate's public page, verified by its code (a link learners share). */
  certificate: '/certificates/:code',
  /** Ours: the learners, found by name or email and state; one learner's page (`?id=`); what administrators did. */
  learners: '/admin/learners',
  learner: '/admin/learner',
  activity: '/admin/activity',
  /** Ours: the link mailed to a new address an administrator set, which confirms it. */
  confirmEmail: '/confirm-email/:token',
  /** Ours: the certificates issued, for the administrator. */
  certificates: '/admin/certificates',
  contact: '/contact',
  /** Ours: the seller's legal pages, written in the dashboard (LEGAL_PAGES in settings.ts). */
  terms: '/terms',
  privacy: '/privacy',
  refundPolicy: '/refund-policy',
  /** Ours: the site's settings, and the short setup the first administrator is led through. */
  settings: '/admin/settings',
  setup: '/admin/setup',
  profile: '/user/profile',
  editProfile: '/user/editprofile',
  changePassword: '/changepassword',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password/:token',
  /** Ours: a one-time sign-in link, mailed when sign-ins to an account are paused (decision 0021). */
  signInLink: '/sign-in/:token',
  checkout: '/checkout',
  checkoutSuccess: '/checkout/success',
  checkoutFail: '/checkout/fail',
  denied: '/denied',
} as const;

/** A path's segments as the router compares them: percent-escapes decoded, in lower case. */
function segmentsOf(path: string): string[] {
  return path
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment).toLowerCase();
      } catch {
        return segment.toLowerCase();
      }
    });
}

/** The pages' paths as segments, made on first use: the web app imports this file for the paths alone. */
let patterns: string[][] | undefined;

/**
 * Whether `pathname` (no query) opens one of the pages above, matched as React Router matches
 * them: letters in any case, trailing slashes ignored, percent-escapes decoded, and a `:name`
 * segment standing for any one non-empty segment. Any other path is the app's 404 page.
 */
export function isPagePath(pathname: string): boolean {
  const segments = segmentsOf(pathname);
  patterns ??= Object.values(pagePaths).map(segmentsOf);
  return patterns.some(
    (pattern) => pattern.length === segments.length && pattern.every((part, i) => (part.startsWith(':') ? segments[i] !== '' : part === segments[i])),
  );
}

/** Whether `pathname` (no query) opens the page at `pagePath` (one without a `:name` segment), matched as isPagePath matches. */
export function isPathOf(pathname: string, pagePath: string): boolean {
  return segmentsOf(pathname).join('/') === segmentsOf(pagePath).join('/');
}

/**
 * The id of the `<script type="application/json">` in which the server sends, with a signed-in
 * viewer's page, the API's answers that page reads first (`{ [url below the API root]: body }`).
 */
export const PAGE_ANSWERS_ID = 'lms-page-answers';
