import { z } from 'zod';
import { answers } from './answers.ts';
import { ReplySchema as Reply } from './envelope.ts';
import { normaliseCode, WATERMARK_ALPHABET } from './protection.ts';

// Certificates of completion: issued when a learner has completed every lecture of a course (and,
// once quizzes exist, passed every quiz), or by an administrator by hand; a PDF made on the job
// queue; a public page anyone can verify one on by its code, which an administrator may revoke
// (docs/decisions/0033).

/** 16 characters of Crockford's base 32: 80 random bits, typed as four groups of four. */
export const CERTIFICATE_CODE_LENGTH = 16;
export const CERTIFICATE_ALPHABET = WATERMARK_ALPHABET;
/** The name printed on certificates: the learner's choice, made once. */
export const CERTIFICATE_NAME_MIN = 2;
export const CERTIFICATE_NAME_MAX = 80;

/** A code as a person types or a link carries it: any case, dashes and spaces ignored, O read as 0 and I/L as 1; undefined when it cannot be one. */
export function readCertificateCode(text: string): string | undefined {
  if (text.length > 64) return undefined;
  const code = normaliseCode(text);
  if (code.length !== CERTIFICATE_CODE_LENGTH) return undefined;
  for (const char of code) if (!CERTIFICATE_ALPHABET.includes(char)) return undefined;
  return code;
}

/** How a code is printed and shown: XXXX-XXXX-XXXX-XXXX. */
export const certificateCodeForDisplay = (code: string) => [0, 4, 8, 12].map((at) => code.slice(at, at + 4)).join('-');

/** A certificate's code in a path: anything up to 64 characters; one that reads as no code is simply not found (404). */
export const CertificateCodeParamsSchema = z.object({ code: z.string().max(64, answers.certificateNotFound) });

/** `issuing` while its PDF is being made (on the job queue), then `ready`. */
export const CERTIFICATE_STATES = ['issuing', 'ready'] as const;

/** What anyone verifying a certificate sees: no email, no account id. */
export const VerifiedCertificateSchema = z.object({
  code: z.string(),
  /** The name printed on it. */
  name: z.string(),
  courseTitle: z.string(),
  /** The course's instructor (its `createdBy`), and the seller who issued it (the site's name when it was issued). */
  instructor: z.string(),
  issuer: z.string(),
  issuedAt: z.string(),
  /** Set once an administrator revoked it: the page then says so, with the date. */
  revokedAt: z.string().nullable(),
});
export type VerifiedCertificate = z.infer<typeof VerifiedCertificateSchema>;
export const VerifyCertificateResponseSchema = Reply.extend({ certificate: VerifiedCertificateSchema });

/** A learner's own certificate: the public facts, and where to get and share it. */
export const CertificateSchema = VerifiedCertificateSchema.extend({
  _id: z.uuid(),
  /** Null once the course was deleted; the certificate stays valid. */
  courseId: z.uuid().nullable(),
  state: z.enum(CERTIFICATE_STATES),
  /** The PDF's API path (GET, for its owner and administrators; 409 while it is being made). */
  pdfUrl: z.string(),
  /** The public page that verifies it, as an absolute URL (the site's PUBLIC_URL): what is shared. */
  verifyUrl: z.string(),
  /** LinkedIn's documented "add to profile" link, filled in with the certificate. */
  linkedInUrl: z.string(),
});
export type Certificate = z.infer<typeof CertificateSchema>;

export const MyCertificatesResponseSchema = Reply.extend({
  /** Newest first. */
  certificates: z.array(CertificateSchema),
  /** The name printed on certificates: `chosen` once the learner has chosen it (then it is fixed), `default` (their full name) until then. */
  name: z.object({ chosen: z.string().nullable(), default: z.string() }),
});

/** The learner's choice of the name printed on their certificates, made once (409 after); their certificates are made again with it. */
export const CertificateNameSchema = z.object({
  name: z
    .string({ error: answers.certificateNameInvalid })
    .trim()
    .min(CERTIFICATE_NAME_MIN, answers.certificateNameInvalid)
    .max(CERTIFICATE_NAME_MAX, answers.certificateNameInvalid),
});
export type CertificateName = z.infer<typeof CertificateNameSchema>;

/** Where a learner stands on a course's certificate: theirs if issued, else what is left to earn it. */
export const CourseCertificateResponseSchema = Reply.extend({
  certificate: CertificateSchema.nullable(),
  requirements: z.object({ lecturesCompleted: z.number().int(), lectures: z.number().int(), quizzesPassed: z.number().int(), quizzes: z.number().int() }),
});

// ---- Administration --------------------------------------------------------------------------

export const AdminCertificateSchema = CertificateSchema.extend({
  learner: z.object({ _id: z.uuid(), fullName: z.string(), email: z.string() }),
  /** Issued by an administrator by hand (their name), or null when earned. */
  issuedBy: z.string().nullable(),
});
export type AdminCertificate = z.infer<typeof AdminCertificateSchema>;

export const AdminCertificatesQuerySchema = z.object({
  courseId: z.uuid(answers.invalidId).optional(),
  page: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(1_000_000, answers.invalidPage).default(1),
  limit: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(100, answers.invalidPage).default(50),
});
export type AdminCertificatesQuery = z.input<typeof AdminCertificatesQuerySchema>;
export const AdminCertificatesResponseSchema = Reply.extend({ certificates: z.array(AdminCertificateSchema), total: z.number().int() });
export const AdminCertificateResponseSchema = Reply.extend({ certificate: AdminCertificateSchema });

/** Issue a certificate by hand: to the account with this email, for this course (409 when they have one). */
export const IssueCertificateSchema = z.object({
  email: z
    .string({ error: answers.certificateEmailInvalid })
    .trim()
    .toLowerCase()
    .email(answers.certificateEmailInvalid)
    .max(254, answers.certificateEmailInvalid),
  courseId: z.uuid(answers.invalidId),
});
export type IssueCertificate = z.infer<typeof IssueCertificateSchema>;

/** Revoke a certificate, or restore one revoked by mistake. */
export const CertificateRevocationSchema = z.object({ revoked: z.boolean({ error: answers.certificateRevokedInvalid }) });

/** The CSV export: every certificate, or one course's. */
export const CertificatesExportQuerySchema = z.object({ courseId: z.uuid(answers.invalidId).optional() });
