/**
 * Ours (issue 15): the words of the profile's billing section. Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the profile.
 */
export const billingTexts = {
  history: 'Billing history',
  noPayments: 'No payments yet. Your invoices appear here after each payment.',
  paid: 'Paid',
  refunded: 'Refunded',
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
  save: 'Save tax details',
  whyLeaving: 'Why are you leaving? (optional)',
  whyLeavingHint: 'It helps us make the courses better.',
  noteLabel: 'Anything else you want to tell us?',
} as const;
