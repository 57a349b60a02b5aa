import { rupees } from '../../../lib/format';

/**
 * The words of what an administrator does on a learner's page. Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the page.
 * The server's answers (granted, refunded, refusals) are the catalogue's.
 */
export const actionsTexts = {
  actionsFor: (name: string) => `Actions for ${name}`,
  cancel: 'Cancel',
  close: 'Close',
  note: 'Note',
  noteHint: 'Why, for the activity log: 2 to 200 characters.',

  // Complimentary access
  grant: 'Grant access',
  extend: 'Extend access',
  grantTitle: (name: string) => `Grant ${name} complimentary access`,
  extendTitle: (name: string) => `Extend ${name}’s complimentary access`,
  grantIntro: 'Every course opens, as with a subscription, without a payment or an invoice. The learner is mailed.',
  extendIntro: 'The new access replaces the access in force. The learner is mailed.',
  grantFor: 'For',
  byDays: 'A number of days',
  byDate: 'Until a date',
  days: 'Days',
  until: 'Until',
  grantNoteHint: 'Why, for the activity log, e.g. “Scholarship” or “Refund goodwill”.',
  grantEnds: (date: string) => `Access ends on ${date}.`,
  grantSubmit: 'Grant',
  revoke: 'Revoke access',
  revokeTitle: (name: string) => `Revoke ${name}’s complimentary access?`,
  revokeIntro: (until: string) => `The access granted until ${until} ends now, on every device. The learner is mailed.`,

  // Email
  changeEmail: 'Change email',
  changeEmailTitle: (name: string) => `Change ${name}’s email`,
  changeEmailIntro: (current: string) =>
    `Now ${current}. A confirmation link goes to the new address; the email changes once it is opened, and the old address is told.`,
  pendingEmail: (email: string) => `Waiting for ${email} to confirm.`,
  newEmail: 'New email',
  changeEmailSubmit: 'Send the link',

  // Account
  suspend: 'Suspend',
  restore: 'Restore',
  endSessions: 'End sessions',
  endSessionsTitle: (name: string) => `End every session of ${name}?`,
  endSessionsIntro: (count: number) =>
    `${count === 1 ? 'The device' : `All ${count} devices`} signed in to the account ${count === 1 ? 'is' : 'are'} signed out, and playback stops there.`,

  // A payment
  refund: 'Refund',
  refundNamed: (description: string) => `Refund ${description}`,
  refundTitle: 'Refund a payment',
  refundIntro: (paid: number, refunded: number, date: string) =>
    refunded > 0 ? `${rupees.format(paid)} paid on ${date}, ${rupees.format(refunded)} refunded already.` : `${rupees.format(paid)} paid on ${date}.`,
  amount: 'Amount (₹)',
  amountHint: (remaining: number) => `Up to ${rupees.format(remaining)}.`,
  full: 'Full',
  half: 'Half',
  accessEnds: 'Access ends',
  accessNow: 'Now',
  accessPeriodEnd: (date: string | undefined) => (date ? `At the end of the paid period (${date})` : 'At the end of the paid period'),
  refundConfirm: (amount: number, name: string) => `Refund ${rupees.format(amount)} to ${name} through the payment provider.`,
  refundSubmit: 'Refund',
  resend: 'Resend',
  // Begins with the button's word, so that what a voice-control user says is its name.
  resendNamed: (what: string, number: string) => `Resend ${what} ${number} to the learner`,
  invoice: 'invoice',
  creditNote: 'credit note',
} as const;
