import { CANCEL_REASONS, type CancelReason } from '@lms/contract/payments';

/**
 * The words of the administrator's learners pages (the list and one learner's page). Not in the
 * message catalogue (contract/src/messages.ts), which ships in every page's first chunk: these load
 * with the pages. The server's answers are the catalogue's; the states' names are the contract's
 * (LEARNER_STATE_LABELS), as the CSV says them.
 */

const count = new Intl.NumberFormat('en-IN');
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** A past moment in words: "5 minutes ago", "yesterday", "3 weeks ago"; "just now" within a minute. */
export function ago(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'just now';
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ['minute', 60],
    ['hour', 3600],
    ['day', 86_400],
    ['week', 7 * 86_400],
    ['month', 30 * 86_400],
    ['year', 365 * 86_400],
  ];
  let unit: [Intl.RelativeTimeFormatUnit, number] = steps[0]!;
  for (const step of steps) if (seconds >= step[1]) unit = step;
  return relative.format(-Math.floor(seconds / unit[1]), unit[0]);
}

export const learnersTexts = {
  // The list
  title: 'Learners',
  intro: 'Everyone with an account: find a learner by name or email, see where they stand, and open their page to help them.',
  search: 'Search by name or email',
  searchPlaceholder: 'Name or email',
  state: 'State',
  allStates: 'All',
  sort: 'Sort',
  sorts: { signed_up: 'Newest sign-ups', last_active: 'Recently active' },
  exportCsv: 'Export CSV',
  exportHint: 'The CSV holds the learners this search and state find.',
  listLabel: 'Learners found',
  loading: 'Loading learners…',
  failed: 'The learners could not be loaded.',
  tryAgain: 'Try again',
  empty: 'No learners yet',
  emptyHint: 'Learners appear here as soon as they sign up. Share your courses to get the first ones.',
  noMatch: 'No learners match',
  noMatchHint: 'Try part of the name or email, or another state.',
  clearFilters: 'Clear search and filters',
  shown: (n: number) => `${count.format(n)} ${n === 1 ? 'learner' : 'learners'} shown`,
  loadMore: 'Load more',
  loadingMore: 'Loading…',
  learner: 'Learner',
  plan: 'Plan',
  noPlan: '—',
  signedUp: 'Signed up',
  lastActive: 'Last active',
  never: 'Never',
  lifetimePaid: 'Lifetime paid',
  suspended: 'Suspended',
  admin: 'Admin',
  open: (name: string) => `Open ${name}’s page`,
  // One learner
  learnersLink: 'Learners',
  notFound: 'No such learner',
  notFoundLead: 'This link points to no account: it may have been mistyped, or the account was deleted.',
  backToLearners: 'Back to the learners',
  loadLearnerFailed: 'This learner could not be loaded.',
  loadingLearner: 'Loading the learner…',
  pendingEmail: (email: string) => `Changing to ${email}: waiting for its owner to confirm it`,
  suspendedSince: (date: string) => `Suspended since ${date}`,
  suspensionReason: (reason: string) => `Why: ${reason}`,
  signedUpOn: (date: string) => `Signed up ${date}`,
  lastActiveAgo: (when: string) => `Last active ${when}`,
  neverActive: 'Not seen since signing up',
  accessSubscribed: (date: string) => `Subscribed until ${date}`,
  accessComplimentary: (date: string) => `Complimentary until ${date}`,
  noAccess: 'No access',
  accessNow: 'Access',
  certificateName: (name: string) => `Name on certificates: ${name}`,
  sections: 'Sections',
  // Access
  access: 'Complimentary access',
  noGrants: 'No complimentary access granted yet.',
  grantPeriod: (from: string, to: string) => `${from} – ${to}`,
  grantedBy: (name: string) => `Granted by ${name}`,
  grantedByGone: 'Granted by a former administrator',
  revokedBy: (date: string, name: string | null) => `Revoked ${date}${name ? ` by ${name}` : ''}`,
  grantStates: { active: 'Active', expired: 'Ended', revoked: 'Revoked' },
  // Payments
  payments: 'Payments',
  noPayments: 'No payments.',
  date: 'Date',
  description: 'Description',
  amount: 'Amount',
  refunded: 'Refunded',
  status: 'Status',
  documents: 'Documents',
  paymentStatuses: { paid: 'Paid', partly_refunded: 'Partly refunded', refunded: 'Refunded' },
  invoice: 'Invoice',
  creditNote: 'Credit note',
  preparing: 'being made',
  download: (what: string, number: string) => `Download ${what.toLowerCase()} ${number}`,
  noDocuments: 'No documents',
  refunds: 'Refunds by administrators',
  refundLine: (amount: string, date: string, by: string | null) => `${amount} on ${date}${by ? ` by ${by}` : ''}`,
  refundAccess: { now: 'access ended at once', period_end: 'access to the period’s end' },
  refundStates: { pending: 'Waiting for the provider', processed: 'Refunded', failed: 'Refused' },
  refundFailure: (reason: string) => `Provider said: ${reason}`,
  // Subscriptions
  subscriptions: 'Subscriptions',
  noSubscriptions: 'Never subscribed.',
  started: 'Started',
  periodEnd: 'Period ends',
  cancelled: 'Cancelled',
  paymentCount: (n: number) => `${count.format(n)} ${n === 1 ? 'payment' : 'payments'}`,
  trialDays: (n: number) => `${n}-day trial`,
  coupon: (code: string) => `Coupon ${code}`,
  // Progress
  progress: 'Course progress',
  noProgress: 'Has not started a course.',
  lectures: (done: number, all: number) => `${count.format(done)} of ${count.format(all)} lectures`,
  completed: 'Completed',
  startedOn: (date: string) => `Started ${date}`,
  lastWatched: 'last watched',
  progressOf: (title: string) => `Progress in ${title}`,
  // Quizzes
  quizzes: 'Quizzes',
  noQuizzes: 'No quiz attempts.',
  quiz: 'Quiz',
  course: 'Course',
  attempts: 'Attempts',
  bestScore: 'Best score',
  passed: 'Passed',
  notPassed: 'Not passed',
  notGraded: '—',
  // Certificates
  certificates: 'Certificates',
  noCertificates: 'No certificates.',
  issued: 'Issued',
  revokedOn: (date: string) => `Revoked ${date}`,
  valid: 'Valid',
  // Sessions
  sessions: 'Signed-in sessions',
  noSessions: 'Not signed in anywhere.',
  device: (browser: string, os: string) => `${browser} on ${os}`,
  lastSeen: 'last seen',
  // Cancellations
  cancellations: 'Cancellations',
  noCancellations: 'Never cancelled.',
  reason: (reason: string | null) => (reason && reason in CANCEL_REASONS ? CANCEL_REASONS[reason as CancelReason] : 'No reason given'),
  withRefund: 'Refunded',
  withoutRefund: 'No refund',
  accessUntil: (date: string) => `access until ${date}`,
  // Activity
  activity: 'Activity',
  noActivity: 'No administrator has acted on this learner yet.',
  allActivity: 'All activity',
  byQueue: 'Automatically',
};
