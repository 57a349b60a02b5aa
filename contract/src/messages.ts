/**
 * Every visible text of the product, in one catalogue of two files: this one, with every text of
 * the spec (kept verbatim, typos included, as the user's specification writes them) and the words
 * the web app shows itself, and answers.ts, the server's confirmations and refusals that the web
 * app shows only as the server sends them. This file ships in every page's first chunk (which
 * counts against the JavaScript budget of `/`, bench/src/sections/weight.ts); answers.ts does not.
 * Changing a text is a one-line edit. Texts we added are marked as ours.
 */
import { PRODUCT_NAME } from './site.ts';

export const messages = {
  // The spec's validation texts
  fillAllDetails: 'Please fill all the details',
  nameTooShort: 'Name should be atleast of 5 characters',
  invalidEmailId: 'Invalid email id',
  passwordRule: 'Password should be 6 - 16 character long with atleast a number and special character',
  allFieldsMandatory: 'All fields are mandatory',
  invalidEmail: 'Invalid email',
  editNameTooShort: 'Name cannot be of less than 5 characters',
  somethingWentWrong: 'Something went wrong',

  // The spec's error catalogue: fallbacks when the server sends no message
  failedCreateAccount: 'Failed to create account',
  failedLogIn: 'Failed to log in',
  failedLogOut: 'Failed to log out',
  failedUpdateProfile: 'Failed to update profile',
  failedGetCourses: 'Failed to get the courses',
  failedCreateCourse: 'Failed to create course',
  failedDeleteCourses: 'Failed to delete the courses',
  failedLoadLectures: 'failed to load the lectures',
  failedAddLectures: 'failed to Add the lectures',
  failedDeleteLectures: 'failed to delete the lectures',
  failedLoadData: 'Failed to load data',
  failedPaymentRecord: 'Failed to gt payment record',
  failedUnsubscribe: 'Failed to unsubscribe',
  failedLoadStats: 'Failed to load data stats',
  failedSubmitForm: 'failed to submit the form',
  oprationFailed: 'opration failed',
  operationFailed: 'Operation failed',

  // The spec's screens and error catalogue
  footerRights: 'All right reserved LMS',
  /** The spec's footer line for a site the seller named: the spec's own words for a fresh site. */
  footerRightsOf: (name: string) => (name === PRODUCT_NAME ? messages.footerRights : `All right reserved ${name}`),
  /** Ours: the seller's legal pages, linked from the footer and the checkout. */
  termsTitle: 'Terms of service',
  privacyTitle: 'Privacy policy',
  refundPolicyTitle: 'Refund policy',
  exploreCourses: 'Explore Courses',
  paymentFailed: 'Payment failed',
  tryAgainLater: 'Please try again later',
  tryAgain: 'Try again',
  goToDashboard: 'Go to dashboard',
  unexpectedError: 'Unexpected Application Error!',
  pageNotFound: 'Page not Found',
  accessDenied: 'Access denied',
  goHome: 'Go Home',
  bundleIncludes: 'All the Existing and new launched courses',
  bundleRefundable: '100% refundale on cancellation',
  /** Ours: the spec's bundle card's title, and the one name of the default plan wherever it is shown. */
  bundleTitle: 'Subscription Bundle',
  confirmDeleteCourse: 'Are you sure you want to delete the course?',
  adminDashboard: 'Admin Dashboard',
  userDetails: 'User Details',
  registeredUser: 'Registered User',
  enrolledUser: 'Enrolled User',
  registeredUsers: 'Registered Users',
  subscribedUsers: 'Subscribed Users',
  subscriptionCount: 'Subscription Count',
  totalRevenue: 'Total Revenue',
  salesPerMonth: 'Sales / Month',
  coursesOverview: 'Courses Overview',
  createNewCourse: 'Create New Course',
  watchLectures: 'watch lectures',
  subscribe: 'Subscribe',
  addNewLecture: 'Add new lecture',
  deleteLecture: 'Delete lecture',
  cancelSubscription: 'Cancel Subscription',
  courseTableColumns: ['S No', 'Course Title', 'Course Category', 'Instructor', 'Total Lectures', 'Description', 'Actions'],

  // Ours: server answers the web app also reads (to tell them apart, or to say them first); the rest are in answers.ts
  resetLinkInvalid: 'This reset link is invalid or has expired',
  signInLinkInvalid: 'This sign-in link is invalid, used or has expired',
  passwordsDoNotMatch: 'Passwords do not match',
  avatarType: 'Avatar must be a jpg, jpeg, png or svg image',
  choosePasswordFirst: 'Please choose a new password before you continue',
  courseNotFound: 'Course not found',
  thumbnailType: 'Thumbnail must be a jpg, jpeg or png image',
  videoType: 'Lecture must be a video file',
  titleTooLong: 'Title should be at most 120 characters',
  categoryTooLong: 'Category should be at most 60 characters',
  instructorTooLong: 'Instructor name should be at most 60 characters',
  descriptionTooLong: 'Description should be at most 5000 characters',
  adminCannotSubscribe: 'Administrators can watch every course without a subscription',
  alreadySubscribed: 'You already have an active subscription',
  unsubscribedRefundFailed: 'Subscription cancelled, but the refund could not be made just now. Please contact us.',
  contactSent: 'Thank you for contacting us, we will get back to you soon',

  // Ours: web
  signInLinkTitle: 'Sign in with your link',
  signInLinkIntro: 'This link signs you in once, within 15 minutes of the mail. Sign in now?',
  signInLinkSubmit: 'Sign in',
  choosePasswordTitle: 'Choose your own password',
  choosePasswordIntro:
    'The password you signed in with was made for you, so others may have seen it. Choose your own password: until you do, nothing else is open to this account.',
  choosePasswordCurrent: 'Password you signed in with',
  choosePasswordToContinue: 'Choose your own password to continue.',
  choosePasswordSubmit: 'Save and continue',
  signedInAs: 'Signed in as',
  renewsOn: (date: string) => `Renews on ${date}`,
  cancelledAccessUntil: (date: string) => `Cancelled, access until ${date}`,
  resumeSubscription: 'Resume subscription',
  resumeNothingCharged: (date: string) => `Nothing is charged until ${date}.`,
  resumeCardCheck: 'Checkout only checks your card now, with a small amount that is refunded at once; the monthly renewals start on that date.',
  cancelConfirmRefund:
    'The first cancellation in 12 months, within the refund window after a payment: that payment is refunded in full and your access ends now.',
  cancelConfirmKeep: (date: string) => `Any other: nothing is refunded, the subscription stops renewing, and you keep access until ${date}.`,
  paidPeriodEnd: 'the end of the period you paid for',
  keepSubscription: 'Keep it',
  confirmCancel: 'Yes, cancel',
  subscriptionResumed: 'Subscription resumed',
  subscriptionResumedText: (date: string) => `Your access continues. Nothing is charged until ${date}; from then on the bundle renews every month.`,

  // Ours: page titles, the first page loading, edit profile's current avatar
  pageLoading: 'Loading the page',
  profileTitle: 'Your profile',
  editProfileTitle: 'Edit profile',
  changePasswordTitle: 'Change password',
  forgotPasswordTitle: 'Forgot password',
  resetPasswordTitle: 'Reset password',
  currentAvatarAlt: 'Your current profile picture',
  newAvatarAlt: 'Your new profile picture',
  avatarKeepHint: (limit: string) => `jpg, jpeg, png or svg, up to ${limit}. Leave it empty to keep your current picture.`,
  noUsersYet: 'No users yet. People who sign up show here.',
  chartLoading: 'Loading the chart',

  // Ours: storefront navigation, home page and checkout
  accountMenu: 'Account menu',
  skipToContent: 'Skip to content',
  loginToSubscribe: 'Log in, or create an account, to subscribe: you come straight back to the checkout.',
  signupToSubscribe: 'Create your account to subscribe: you come straight back to the checkout.',
  checkoutTitle: 'Checkout',
  youAreSubscribed: 'You\u2019re subscribed',
  subscribedText: 'Your subscription is active: every course is open to you, the existing ones and every new one we launch.',
  manageSubscription: 'Manage your subscription',
  browseCourses: 'Browse the courses',
  noSubscriptionNeeded: 'No subscription needed',
  paymentSuccessful: 'Payment successful',
  paymentSuccessfulText: 'Your subscription is active: you can now watch the lectures of every course.',
  homeTitle: 'Online courses, one monthly bundle',
  perMonth: 'per month',
  priceLoading: 'Loading the price',
  noCoursesYet: 'The first courses are on their way.',
  noCoursesYetHint: 'Tell us what you would like to learn:',
  createFirstCourse: 'Create the first course',

  // Ours: the course page, free previews and the course screens' polish
  courseNotFoundText: 'This link does not lead to a course we offer: it may have been mistyped, or the course was taken down.',
  courseLoadFailed: 'The course could not be loaded just now.',
  courseContent: 'Course content',
  lectureCount: (count: number) => `${count} ${count === 1 ? 'lecture' : 'lectures'}`,
  totalLength: (length: string) => `${length} total length`,
  noLecturesYet: 'The lectures of this course are on their way.',
  previewBadge: 'Preview',
  freePreview: 'Free preview',
  playPreview: 'Play the free preview',
  previewThisCourse: 'Preview this course',
  previewFor: (title: string) => `Free preview of ${title}`,
  closePreview: 'Close',
  morePreviews: 'Free previews of this course',
  forSubscribers: 'for subscribers',
  createdBy: 'Created by',
  instructor: 'Instructor',
  courseDescription: 'Course description',
  priceCardIncludes: 'This course and every other one in the catalogue, with every course launched while you are subscribed.',
  watchAnywhere: 'Watch on your phone, tablet or computer',
  cancelAnyTime: 'Cancel any time from your profile',
  refundPlain: (days: number) =>
    `Cancel within ${days} ${days === 1 ? 'day' : 'days'} of a payment and we refund it in full (once in any 12 months). Cancel later and you keep watching until the end of the month you paid for.`,
  /** Ours: beside the spec's "100% refundale on cancellation" on the bundle and plan cards: the rule as the server applies it. */
  refundRule: (days: number) =>
    `Cancel within ${days} ${days === 1 ? 'day' : 'days'} of a payment and that payment is refunded in full, once in any 12 months.`,
  refundRuleUnknown: 'Cancel soon after a payment and that payment is refunded in full, once in any 12 months.',
  refundPolicy: 'How refunds work',
  refundPlainUnknown:
    'Cancel soon after a payment and we refund it in full (once in any 12 months). Cancel later and you keep watching until the end of the month you paid for.',
  includedInSubscription: 'Included in your subscription',
  includedForAdmin: 'Administrators watch every course',
  previewOn: (title: string) => `Free preview: ${title}`,
  leaveUploadTitle: 'Leave and cancel the upload?',
  leaveUploadText: 'The video is still uploading. If you leave now, the upload stops and the lecture is not added.',
  stayHere: 'Stay',
  leaveAndCancel: 'Leave and cancel the upload',
  uploadCancelled: 'Upload cancelled',
  previewHint: 'Anyone can watch it from the course page, no subscription needed.',
  charactersUsed: (used: number, max: number) => `${used}/${max}`,
  charactersOver: (over: number) => `${over} ${over === 1 ? 'character' : 'characters'} too many`,
  thumbnailHint: (limit: string) => `jpg, jpeg or png, up to ${limit}, shown at 16:9`,
  pickedFileRefused: (name: string, rule: string) => `“${name}” was not used: ${rule}`,

  // Ours: the forms name what is missing beside the spec's text, mark a required picture, and say its limits
  missingFields: (specText: string, labels: readonly string[]) => `${specText} — ${listed(labels)} ${labels.length === 1 ? 'is' : 'are'} missing`,
  required: 'Required',
  avatarHint: (limit: string) => `jpg, jpeg, png or svg, up to ${limit}`,
  imageTooLarge: (limit: string, size: string) => `Pictures may be up to ${limit}, and this one is ${size}`,
  roleNames: { USER: 'Learner', ADMIN: 'Administrator' },

  // Ours: video pipeline: processing states, the admin's retry, the server's ffmpeg
  videoWaiting: 'Waiting to be processed',
  videoProcessing: (percent: number) => `Processing ${percent}%`,
  videoReady: 'Ready for streaming',
  videoFailed: 'Processing failed',
  videoRetry: 'Retry',
  videoRetryFor: (title: string) => `Retry processing “${title}”`,
  videoProcessedWith: (ffmpeg: string) => `Videos are processed with ${ffmpeg}`,
  videoQuality: 'Quality',
  videoQualityAuto: 'Auto',
  videoQualityAutoNow: (height: number) => `Auto (${height}p)`,
  videoShortcuts: 'Keys: Space plays or pauses, ← and → move 5 s, F full screen, M mute',

  // Ours: plans, free trials and coupons, the server's answers the checkout reads
  planNotFound: 'This plan is not on sale',
  planPriceWithTaxTooHigh: 'With GST added this price would charge more than ₹15,000: a renewal above that needs the card holder’s approval every time',
  couponDatesInvalid: 'Enter valid dates, the end after the start',
  couponUnknown: 'This coupon code is not valid',
  couponNotYetValid: 'This coupon cannot be used yet',
  couponExpired: 'This coupon has expired',
  couponExhausted: 'This coupon has been used as many times as it may be',
  couponOtherPlan: 'This coupon is not for the plan you chose',
  couponAlreadyUsed: 'You have already used this coupon',
  couponBelowMinimum: 'This coupon would take the price below ₹1, the smallest amount the payment provider charges',
} as const;

export type MessageKey = keyof typeof messages;

/** "A", "A and B", "A, B and C". */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
