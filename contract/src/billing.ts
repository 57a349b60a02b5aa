import { z } from 'zod';
import { ReplySchema } from './envelope.ts';
import { answers } from './answers.ts';
import { ADDRESS_MAX_LINES, addressLines, imitatesInvoiceLabel, isPlainLine } from './plain-text.ts';

/**
 * Billing: the buyer's tax details, invoices and credit notes, billing history.
 * Decision 0016 says what each document holds and how it is numbered, and the GST rules it follows
 * (Rule 46 of the CGST Rules for invoices, Rule 53 for credit notes).
 */

/**
 * GST state codes (the first two characters of a GSTIN), as the GST portal lists them today.
 * 25 (Daman and Diu) and 28 (Andhra Pradesh before 2014) are no longer issued and are left out.
 */
export const INDIAN_STATES = {
  '01': 'Jammu and Kashmir',
  '02': 'Himachal Pradesh',
  '03': 'Punjab',
  '04': 'Chandigarh',
  '05': 'Uttarakhand',
  '06': 'Haryana',
  '07': 'Delhi',
  '08': 'Rajasthan',
  '09': 'Uttar Pradesh',
  '10': 'Bihar',
  '11': 'Sikkim',
  '12': 'Arunachal Pradesh',
  '13': 'Nagaland',
  '14': 'Manipur',
  '15': 'Mizoram',
  '16': 'Tripura',
  '17': 'Meghalaya',
  '18': 'Assam',
  '19': 'West Bengal',
  '20': 'Jharkhand',
  '21': 'Odisha',
  '22': 'Chhattisgarh',
  '23': 'Madhya Pradesh',
  '24': 'Gujarat',
  '26': 'Dadra and Nagar Haveli and Daman and Diu',
  '27': 'Maharashtra',
  '29': 'Karnataka',
  '30': 'Goa',
  '31': 'Lakshadweep',
  '32': 'Kerala',
  '33': 'Tamil Nadu',
  '34': 'Puducherry',
  '35': 'Andaman and Nicobar Islands',
  '36': 'Telangana',
  '37': 'Andhra Pradesh',
  '38': 'Ladakh',
  '97': 'Other Territory',
} as const satisfies Record<string, string>;
export type StateCode = keyof typeof INDIAN_STATES;
export const isStateCode = (value: string): value is StateCode => Object.hasOwn(INDIAN_STATES, value);

const GSTIN_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** State code, PAN (5 letters, 4 digits, a letter), entity number, Z by default, check character. */
const GSTIN_SHAPE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z][A-Z0-9][0-9A-Z]$/;

/**
 * The check character of a GSTIN's first 14 characters: each character's value (0–9, A–Z as
 * 10–35) times 1 or 2 in turn, each product folded as ⌊p/36⌋ + p mod 36, summed; the check value
 * is (36 − sum mod 36) mod 36, the GSTIN's own checksum.
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let index = 0; index < 14; index++) {
    const product = GSTIN_ALPHABET.indexOf(first14[index]!) * (index % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_ALPHABET[(36 - (sum % 36)) % 36]!;
}

/** A GSTIN of the right shape, a state that exists and a check character that matches. */
export const isValidGstin = (value: string) =>
  value.length === 15 && GSTIN_SHAPE.test(value) && isStateCode(value.slice(0, 2)) && gstinCheckCharacter(value.slice(0, 14)) === value[14];

const optionalText = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .transform((value) => value || null)
    .nullable()
    .optional()
    .transform((value) => value ?? null);

/**
 * PUT /billing/details: what the buyer wants on their invoices. Everything is optional; a GSTIN
 * makes the invoice a business's (its name is then required), and its state must be the state chosen.
 * The name and the address print on a tax invoice as they are: plain text only, the name on one
 * line, the address on at most ADDRESS_MAX_LINES, and neither may carry an invoice label of its own.
 */
export const BillingDetailsSchema = z
  .object({
    businessName: optionalText(100, answers.businessNameTooLong),
    gstin: optionalText(15, answers.gstinInvalid).transform((value) => value?.toUpperCase() ?? null),
    stateCode: optionalText(2, answers.stateInvalid),
    // Its lines trimmed and blank ones dropped: the PDF prints each line given, in order.
    address: optionalText(300, answers.billingAddressTooLong).transform((value) => (value === null ? null : addressLines(value).join('\n'))),
  })
  .superRefine((details, context) => {
    const refuse = (path: keyof typeof details, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (details.businessName !== null) {
      if (!isPlainLine(details.businessName)) refuse('businessName', answers.businessNameNotPlain);
      else if (imitatesInvoiceLabel(details.businessName)) refuse('businessName', answers.invoiceLabelRefused);
    }
    if (details.address !== null) {
      const lines = details.address.split('\n');
      if (lines.length > ADDRESS_MAX_LINES) refuse('address', answers.billingAddressTooManyLines);
      else if (!lines.every(isPlainLine)) refuse('address', answers.billingAddressNotPlain);
      else if (lines.some(imitatesInvoiceLabel)) refuse('address', answers.invoiceLabelRefused);
    }
    if (details.stateCode !== null && !isStateCode(details.stateCode)) context.addIssue({ code: 'custom', path: ['stateCode'], message: answers.stateInvalid });
    if (details.gstin === null) return;
    if (!isValidGstin(details.gstin)) return context.addIssue({ code: 'custom', path: ['gstin'], message: answers.gstinInvalid });
    if (details.stateCode !== details.gstin.slice(0, 2)) context.addIssue({ code: 'custom', path: ['stateCode'], message: answers.gstinStateMismatch });
    if (details.businessName === null) context.addIssue({ code: 'custom', path: ['businessName'], message: answers.businessNameRequired });
  });
export type BillingDetailsInput = z.input<typeof BillingDetailsSchema>;

export const BillingDetailsDataSchema = z.object({
  businessName: z.string().nullable(),
  gstin: z.string().nullable(),
  stateCode: z.string().nullable(),
  address: z.string().nullable(),
});
export type BillingDetails = z.infer<typeof BillingDetailsDataSchema>;
export const BillingDetailsResponseSchema = ReplySchema.extend({ details: BillingDetailsDataSchema });

/** An invoice or a credit note, as billing history lists it. */
export const BillingDocumentSchema = z.object({
  id: z.uuid(),
  /** e.g. `LMS/26-27/000123` (an invoice) or `CN/26-27/000004` (a credit note). */
  number: z.string(),
  /** Whether its PDF has been made (a background job makes it a few seconds after the payment). */
  ready: z.boolean(),
});
export type BillingDocument = z.infer<typeof BillingDocumentSchema>;

export const BillingEntrySchema = z.object({
  paymentId: z.uuid(),
  /** When it was paid (ISO). */
  date: z.string(),
  description: z.string(),
  /** Rupees charged. */
  amount: z.number(),
  /** Refunded in part: an administrator refunded less than the whole. */
  status: z.enum(['paid', 'partly_refunded', 'refunded']),
  /** Rupees refunded so far. */
  refunded: z.number(),
  invoice: BillingDocumentSchema.nullable(),
  /** One for each refund, oldest first. */
  creditNotes: z.array(BillingDocumentSchema),
});
export type BillingEntry = z.infer<typeof BillingEntrySchema>;

export const BillingHistoryResponseSchema = ReplySchema.extend({
  entries: z.array(BillingEntrySchema),
  /**
   * The subscription's next step: the date it renews, or the date access ends after a cancellation
   * (ISO); null with no subscription.
   */
  renewal: z
    .object({
      renewsOn: z.string().nullable(),
      cancelled: z.boolean(),
      accessUntil: z.string().nullable(),
      /** Ours: the plan, and what the next charge takes (a coupon's discount while it lasts); null once cancelled. */
      plan: z
        .object({ name: z.string(), interval: z.enum(['monthly', 'yearly']) })
        .nullable()
        .optional(),
      nextAmount: z.number().nullable().optional(),
      /** In a free trial: when it ends, the first payment's day. */
      trialEndsAt: z.string().nullable().optional(),
    })
    .nullable(),
});
export type BillingHistory = z.infer<typeof BillingHistoryResponseSchema>;

export const BillingDocumentParamsSchema = z.object({ id: z.uuid(answers.invalidId) });
