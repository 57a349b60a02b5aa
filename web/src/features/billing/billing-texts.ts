import type { Discount, PlanInterval } from '@lms/contract/plans';
import { rupees } from '../../lib/format';

const per: Record<PlanInterval, string> = { monthly: '/month', yearly: '/year' };

/**
 * The words of the profile's billing section. Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the profile.
 */
export const billingTexts = {
  history: 'Billing history',
  noPayments: 'No payments yet. Your invoices appear here after each payment.',
  paid: 'Paid',
  refunded: 'Refunded',
  partlyRefunded: 'Partly refunded',
  refundedAmount: (amount: number) => `${rupees.format(amount)} refunded`,
  invoice: 'Invoice',
  creditNote: 'Credit note',
  download: (what: string, number: string) => `Download ${what.toLowerCase()} ${number} (PDF)`,
  preparing: 'Preparing PDF…',
  detailsTitle: 'Tax details for your invoices',
  detailsIntro: 'Buying for a business? Add its GSTIN and your next invoices will carry it. Your state decides between CGST + SGST and IGST.',
  businessName: 'Business name',
  gstin: 'GSTIN',
  gstinHint: '15 characters, e.g. 27AAPFU0939F1ZV',
  state: 'State',
  noState: 'Not given',
  address: 'Billing address',
  addressHint: 'Up to 4 lines, as they should print on your invoices',
  save: 'Save tax details',
  whyLeaving: 'Why are you leaving? (optional)',
  whyLeavingHint: 'It helps us make the courses better.',
  noteLabel: 'Anything else you want to tell us?',

  // Access an administrator granted: no payment, no renewal, nothing to cancel.
  complimentary: 'Complimentary',
  complimentaryUntil: (date: string) => `Complimentary access until ${date}`,
  subscribe: 'Subscribe',

  // The subscription's next step, free trials and the save offer.
  trialFirstPayment: (date: string) => `Trial, first payment on ${date}`,
  /** The billing section's renewal line, "Yearly plan · next payment ₹799.20 on 25 Nov 2027": the plan (a name that says plan already stays as it is)… */
  planName: (name: string) => (/\b(plan|bundle)$/i.test(name.trim()) ? name.trim() : `${name.trim()} plan`),
  /** …and what comes next. */
  nextPayment: (amount: number | undefined, date: string) => (amount !== undefined ? `next payment ${rupees.format(amount)} on ${date}` : `renews on ${date}`),
  /** In a free trial: the first payment comes when it ends. */
  trialPayment: (amount: number | undefined, date: string) =>
    amount !== undefined ? `free trial, first payment ${rupees.format(amount)} on ${date}` : `free trial until ${date}`,
  noMorePayments: (date: string) => `no more payments, access until ${date}`,
  /** The cancel dialog: the one case of the refund rule that applies to this subscriber now (the server's word). */
  cancelRefund: (amount: string, paidOn: string) => `You paid ${amount} on ${paidOn}. Cancel now and we refund the ${amount} in full; your access ends today.`,
  cancelRefundOnce: 'This is your one refund in any 12 months.',
  cancelWindowPassed: (days: number, paidOn: string, windowEnded: string, until: string) =>
    `You paid last on ${paidOn}, and its ${days}-day refund window ended on ${windowEnded}: cancelling now refunds nothing. The subscription stops renewing and you keep access until ${until}.`,
  cancelRefundUsed: (refundedOn: string, until: string) =>
    `You already had a refund on ${refundedOn}, and there is one in any 12 months: cancelling now refunds nothing. The subscription stops renewing and you keep access until ${until}.`,
  cancelTermsLoading: 'Working out what cancelling would do',
  cancelInTrial: (date: string) =>
    `You are in your free trial and nothing has been charged. Cancel now and no payment is taken; you keep access until ${date}.`,
  offerTitle: 'Before you go',
  /** "Stay for 50 % off your next 2 payments: ₹49.50 instead of ₹99". */
  offer: (discount: Discount, discountedPrice: number, regularPrice: number) =>
    `Stay for ${discount.kind === 'percent' ? `${discount.amount}\u00a0%` : rupees.format(discount.amount)} off ${
      discount.charges === 1 ? 'your next payment' : `your next ${discount.charges} payments`
    }: ${rupees.format(discountedPrice)} instead of\u00a0${rupees.format(regularPrice)}`,
  offerAfter: (regularPrice: number, interval: PlanInterval) => `Then ${rupees.format(regularPrice)}${per[interval]} again. You can still cancel at any time.`,
  takeOffer: 'Take the offer',
} as const;
