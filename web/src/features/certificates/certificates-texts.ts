/**
 * The words of certificates for learners and for anyone verifying one (the public page, the
 * profile's card, the course's block). Not in the message catalogue, which ships in every page's
 * first chunk: these load with the pages that show certificates.
 */
export const certificatesTexts = {
  // The public page
  valid: 'Valid certificate',
  validLead: (issuer: string) => `This certificate was issued by ${issuer} and is genuine.`,
  revoked: 'Revoked certificate',
  revokedBadge: 'Revoked',
  revokedOn: (date: string) => `Revoked on ${date}`,
  revokedLead: 'This certificate was revoked by its issuer and is no longer valid.',
  notFound: 'Certificate not found',
  notFoundLead: 'No certificate has this code. Check it against the certificate: it is 16 letters and digits, such as 7K2M-9QXD-4T8R-B3HW.',
  youEntered: 'Code checked:',
  checking: 'Checking the certificate…',
  loadFailed: 'The certificate could not be checked just now. Please try again in a moment.',
  tryAgain: 'Try again',
  certifies: 'This certifies that',
  completed: 'completed',
  certificateOf: 'Certificate of completion',
  instructor: 'Instructor',
  issuedOn: 'Issued on',
  issuedBy: 'Issued by',
  code: 'Certificate code',
  pageTitle: (name: string, course: string) => `Certificate: ${name}, ${course}`,
  verifyHeading: 'Verify a certificate',
  verifyAnotherHeading: 'Verify another certificate',
  codeLabel: 'Certificate code',
  codeHint: '16 letters and digits; dashes and spaces are optional.',
  codeInvalid: 'A certificate code is 16 letters and digits, such as 7K2M-9QXD-4T8R-B3HW.',
  verify: 'Verify',

  // The learner's certificates
  heading: 'Certificates',
  none: 'No certificates yet. Complete every lecture of a course to earn its certificate.',
  issued: (date: string) => `Issued ${date}`,
  ready: 'Ready',
  beingMade: 'Being made',
  stillBeingMade: 'Your certificate is still being made: it will be ready in a moment.',
  downloadPdf: 'Download PDF',
  /** Said after each action's visible words to a screen reader, which hears the actions of every certificate on the page. */
  ofCourse: (course: string) => ` — ${course}`,
  downloadPdfOf: (course: string) => `Download PDF — ${course}`,
  downloading: 'Downloading…',
  downloadFailed: 'The certificate could not be downloaded. Please try again.',
  addToLinkedIn: 'Add to LinkedIn',
  addToLinkedInOf: (course: string) => `Add to LinkedIn — ${course} (opens in a new tab)`,
  newTab: ' (opens in a new tab)',
  copyLink: 'Copy link',
  copyLinkOf: (course: string) => `Copy link — ${course}`,
  linkCopied: 'Link copied: anyone with it can verify your certificate',
  copyYourself: 'Copy this link to share your certificate:',
  shareLink: 'Link to share',
  view: 'View',
  viewOf: (course: string) => `View — ${course}`,
  loadMineFailed: 'Your certificates could not be loaded.',

  // The name printed on certificates
  nameLabel: 'Name on your certificates',
  nameNote: 'Printed on every certificate you earn. You can choose it once, so check the spelling.',
  saveName: 'Save name',
  confirmNameTitle: 'Print this name on your certificates?',
  confirmNameText: 'You can choose it only once; after that, only we can change it.',
  confirmName: 'Yes, print this name',
  cancel: 'Go back',
  close: 'Close',
  nameFixed: 'Name on your certificates',
  nameFixedNote: 'Chosen once; contact us to change it.',
  nameFailed: 'The name could not be saved. Please try again.',

  // The course's block
  earnedHeading: 'You earned a certificate',
  earnedLead: (course: string) => `For completing ${course}.`,
  earnHeading: 'Certificate of completion',
  earnLead: 'Complete every lecture of this course to earn its certificate.',
  lecturesCompleted: (done: number, total: number) => `${done} of ${total} ${total === 1 ? 'lecture' : 'lectures'} completed`,
  progressLabel: 'Lectures completed toward the certificate',
};

/** A date as a certificate states it: "27 November 2026", on the calendar of Asia/Kolkata as every date of the site. */
const longDate = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Asia/Kolkata' });
export function formatLongDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : longDate.format(date);
}
