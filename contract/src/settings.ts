import { z } from 'zod';
import { answers } from './answers.ts';
import { isStateCode, isValidGstin } from './billing.ts';
import { contrastProblems, HEX_COLOUR, ratioText, type ThemeName } from './contrast.ts';
import { ReplySchema as Reply } from './envelope.ts';
import { isPlainLine } from './plain-text.ts';
import { ProtectionSettingsSchema, ProtectionViewSchema } from './protection.ts';
import { emailPattern } from './users.ts';

// The seller's own site: its name, logo, colours, home page texts, contact details and legal pages,
// set by an administrator in the dashboard. Every page carries the public part (`Site`) in its HTML,
// so the name and colours paint with the page, without a request of their own.

export const SITE_NAME_MAX = 60;
/** What a phone's home screen shows under the icon (a web app manifest's short_name). */
export const SHORT_NAME_MAX = 12;
export const HERO_HEADLINE_MAX = 120;
export const HERO_TEXT_MAX = 400;
export const TESTIMONIALS_MAX = 12;
export const FAQ_MAX = 20;
export const LEGAL_PAGE_MAX = 50_000;
export const SOCIAL_NETWORKS = ['facebook', 'instagram', 'twitter', 'linkedin', 'youtube'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
/** The pages whose text the seller writes, by the path they are served at. */
export const LEGAL_PAGES = ['terms', 'privacy', 'refund-policy'] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

/** A single line of at most `max` characters, trimmed; `min` 0 allows it empty. */
const line = (label: string, max: number, min = 0) =>
  z
    .string({ error: answers.settingInvalid(label) })
    .trim()
    .min(min, answers.settingRequired(label))
    .max(max, answers.settingTooLong(label, max))
    .refine(isPlainLine, answers.settingNotPlain(label));

/** Text of several lines (an answer, an address), at most `max` characters. */
const paragraph = (label: string, max: number, min = 0) =>
  z
    .string({ error: answers.settingInvalid(label) })
    .trim()
    .min(min, answers.settingRequired(label))
    .max(max, answers.settingTooLong(label, max));

const colour = z.string().regex(HEX_COLOUR, answers.colourInvalid).toLowerCase();
const pair = z.object({ primary: colour, content: colour });

/** The brand's primary colour and the colour of text on it, per theme; null: the product's own indigo. */
export const BrandSchema = z
  .object({ light: pair, dark: pair })
  .superRefine((brand, check) => {
    for (const theme of ['light', 'dark'] as ThemeName[]) {
      for (const problem of contrastProblems(theme, brand[theme])) {
        check.addIssue({ code: 'custom', path: [theme], message: answers.contrastTooLow(theme, problem.pair, ratioText(problem.ratio)) });
      }
    }
  })
  .nullable();
export type Brand = z.infer<typeof BrandSchema>;

export const TestimonialSchema = z.object({
  quote: paragraph('Quote', 600, 1),
  name: line('Name', 80, 1),
  role: line('Role', 120),
});
export type Testimonial = z.infer<typeof TestimonialSchema>;

export const FaqEntrySchema = z.object({
  question: line('Question', 200, 1),
  answer: paragraph('Answer', 2000, 1),
});
export type FaqEntry = z.infer<typeof FaqEntrySchema>;

/** An http(s) address, or empty for none. */
const link = z
  .string()
  .trim()
  .max(300, answers.settingTooLong('Link', 300))
  .refine((value) => value === '' || isWebAddress(value), answers.linkInvalid);

/** An absolute http(s) URL with a dotted host: what a social profile's address is. */
function isWebAddress(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.') && !/\s/.test(value);
}

export const SocialSchema = z.object(Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, link])) as Record<SocialNetwork, typeof link>);
export type Social = z.infer<typeof SocialSchema>;

export const ContactDetailsSchema = z.object({
  email: z
    .string()
    .trim()
    .max(254, answers.emailTooLong)
    .refine((value) => value === '' || emailPattern.test(value), answers.contactEmailInvalid),
  phone: z
    .string()
    .trim()
    .max(30, answers.settingTooLong('Phone', 30))
    .refine((value) => value === '' || /^\+?[0-9][0-9 ()-]{5,}$/.test(value), answers.phoneInvalid),
  address: paragraph('Address', 300),
});
export type ContactDetails = z.infer<typeof ContactDetailsSchema>;

export const LogoSchema = z.object({
  /** The logo as redrawn from the upload (PNG, or WebP from WebP; an SVG is drawn as a PNG), for the header. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type Logo = z.infer<typeof LogoSchema>;

/** What every visitor's page carries: everything the storefront shows of the seller. */
export const SiteSchema = z.object({
  name: z.string(),
  shortName: z.string(),
  logo: LogoSchema.nullable(),
  brand: BrandSchema,
  /** Null where the seller kept the product's own words. */
  hero: z.object({ headline: z.string().nullable(), text: z.string().nullable() }),
  testimonials: z.array(TestimonialSchema),
  /** Null: the product's own questions about the bundle. */
  faq: z.array(FaqEntrySchema).nullable(),
  social: SocialSchema,
  contact: ContactDetailsSchema,
  /** The seller as invoices name it. */
  legalName: z.string(),
});
export type Site = z.infer<typeof SiteSchema>;

export const SellerSchema = z
  .object({
    legalName: line('Legal name', 100),
    gstin: z
      .string()
      .trim()
      .toUpperCase()
      .refine((value) => value === '' || isValidGstin(value), answers.gstinInvalid),
    stateCode: z.string().refine(isStateCode, answers.stateCodeInvalid),
  })
  .refine((seller) => seller.gstin === '' || seller.gstin.slice(0, 2) === seller.stateCode, { path: ['stateCode'], message: answers.gstinStateMismatch });

/** A change to the settings: any of the fields, each replaced whole; those left out stay as they are. */
export const SettingsUpdateSchema = z
  .object({
    name: line('Site name', SITE_NAME_MAX, 1),
    shortName: line('Short name', SHORT_NAME_MAX, 1),
    brand: BrandSchema,
    hero: z.object({
      headline: line('Headline', HERO_HEADLINE_MAX).transform((value) => value || null),
      text: paragraph('Intro text', HERO_TEXT_MAX).transform((value) => value || null),
    }),
    testimonials: z.array(TestimonialSchema).max(TESTIMONIALS_MAX, answers.tooManyEntries('testimonials', TESTIMONIALS_MAX)),
    faq: z.array(FaqEntrySchema).max(FAQ_MAX, answers.tooManyEntries('questions', FAQ_MAX)).nullable(),
    social: SocialSchema,
    contact: ContactDetailsSchema,
    seller: SellerSchema,
    /** Null: back to the defaults. */
    protection: ProtectionSettingsSchema.nullable(),
  })
  .partial()
  .strict();
export type SettingsUpdate = z.input<typeof SettingsUpdateSchema>;
/** An update as the server has it, checked and trimmed. */
export type CheckedSettingsUpdate = z.output<typeof SettingsUpdateSchema>;

/** What the administrator's settings page shows: the site, and the seller's details with where each comes from. */
export const SettingsSchema = z.object({
  site: SiteSchema,
  seller: z.object({ legalName: z.string(), gstin: z.string(), stateCode: z.string() }),
  /** Those set by the server's environment (SELLER_NAME, SELLER_GSTIN, SELLER_STATE), which win over the dashboard. */
  fromEnvironment: z.object({ legalName: z.boolean(), gstin: z.boolean(), stateCode: z.boolean() }),
  /** Legal pages still showing the starting template, which the seller should review. */
  templates: z.array(z.enum(LEGAL_PAGES)),
  /** Streams at once, signed-in devices, the watermark, the sharing-risk thresholds. */
  protection: ProtectionViewSchema,
});
export type Settings = z.infer<typeof SettingsSchema>;

export const SiteResponseSchema = Reply.extend({ site: SiteSchema });
export const SettingsResponseSchema = Reply.extend({ settings: SettingsSchema });

/** Any name: one that is not a legal page is a page not found (404), not a bad request. */
export const LegalPageParamsSchema = z.object({ page: z.string().max(40) });
export const LegalPageSchema = z.object({
  page: z.enum(LEGAL_PAGES),
  /** Markdown: shown without raw HTML or script links. */
  markdown: z.string(),
  /** Still the starting template, not yet saved by the seller. */
  template: z.boolean(),
});
export type LegalPageText = z.infer<typeof LegalPageSchema>;
export const LegalPageResponseSchema = Reply.extend({ page: LegalPageSchema });
export const LegalPageUpdateSchema = z.object({
  markdown: z
    .string({ error: answers.settingInvalid('Page text') })
    .trim()
    .min(1, answers.settingRequired('Page text'))
    .max(LEGAL_PAGE_MAX, answers.settingTooLong('Page text', LEGAL_PAGE_MAX)),
});
