import { z } from 'zod';
import { FailureSchema, ReplySchema } from './envelope.ts';
import { messages } from './messages.ts';
import { answers } from './answers.ts';
import { imitatesInvoiceLabel, isPlainLine } from './plain-text.ts';

/** The spec's password rule: letters, digits and !@#$%^&*, 6-16 long, at least one digit and one special character. */
export const passwordPattern = /^(?=.*\d)(?=.*[!@#$%^&*])[A-Za-z\d!@#$%^&*]{6,16}$/;
/** The spec's email rule: "a standard email pattern". */
export const emailPattern = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

export const NAME_MIN = 5;
export const NAME_MAX = 50;
export const EMAIL_MAX = 254;
/** Avatars accepted by the server, checked by content (the spec's avatar types: jpg, jpeg, png, svg). */
export const AVATAR_ACCEPT = '.jpg,.jpeg,.png,.svg,image/jpeg,image/png,image/svg+xml';

/**
 * A field the form must fill: present and not blank, else `message`.
 * Presence is checked for all fields before any other rule, as the spec's forms do.
 */
const filled = (message: string) => z.string({ error: message }).trim().min(1, message);
const password = (message: string) => z.string({ error: message }).min(1, message);

/** The name is the buyer's on their invoices and greets them in mail: plain text on one line, no invoice label. */
const fullName = (tooShort: string) =>
  z
    .string()
    .min(NAME_MIN, tooShort)
    .max(NAME_MAX, answers.nameTooLong)
    .refine(isPlainLine, answers.nameNotPlain)
    .refine((name) => !imitatesInvoiceLabel(name), answers.invoiceLabelRefused);
const email = z
  .string()
  .max(EMAIL_MAX, answers.emailTooLong)
  .regex(emailPattern, messages.invalidEmailId)
  .transform((value) => value.toLowerCase());
const newPassword = z.string().regex(passwordPattern, messages.passwordRule);
/** An account's email as signup takes it (trimmed, lower-cased), for an administrator changing one. */
export const AccountEmailSchema = z.string({ error: messages.invalidEmailId }).trim().pipe(email);

/** Signup text fields (the avatar file is checked beside them with the same "fill all" text). */
export const RegisterSchema = z
  .object({
    fullName: filled(messages.fillAllDetails),
    email: filled(messages.fillAllDetails),
    password: password(messages.fillAllDetails),
  })
  .pipe(z.object({ fullName: fullName(messages.nameTooShort), email, password: newPassword }));
export type Register = z.input<typeof RegisterSchema>;

/** `npm run admin`: an administrator made from the command line follows the signup rules. */
export const AdminSchema = z.object({
  fullName: z.string().trim().pipe(fullName(messages.nameTooShort)),
  email: z.string().trim().pipe(email),
  password: newPassword,
});

export const LoginSchema = z
  .object({
    email: filled(messages.fillAllDetails).max(EMAIL_MAX, answers.emailTooLong),
    password: password(messages.fillAllDetails).max(256, answers.wrongCredentials),
  })
  .transform((login) => ({ ...login, email: login.email.toLowerCase() }));
export type Login = z.input<typeof LoginSchema>;

/** Edit profile: the full name is required; a new avatar is optional on the server. */
export const UpdateProfileSchema = z
  .object({ fullName: filled(messages.allFieldsMandatory) })
  .pipe(z.object({ fullName: fullName(messages.editNameTooShort) }));
export type UpdateProfile = z.input<typeof UpdateProfileSchema>;

export const ChangePasswordSchema = z
  .object({
    oldPassword: password(messages.fillAllDetails).max(256, answers.oldPasswordWrong),
    newPassword: password(messages.fillAllDetails),
  })
  .pipe(z.object({ oldPassword: z.string(), newPassword }));
export type ChangePassword = z.input<typeof ChangePasswordSchema>;

export const ForgotPasswordSchema = z.object({ email: filled(messages.fillAllDetails) }).pipe(z.object({ email }));
export type ForgotPassword = z.input<typeof ForgotPasswordSchema>;

export const ResetPasswordSchema = z.object({ password: password(messages.fillAllDetails) }).pipe(z.object({ password: newPassword }));
export type ResetPassword = z.input<typeof ResetPasswordSchema>;

export const ResetTokenParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, messages.resetLinkInvalid),
});

/** A one-time sign-in link's token (the login's ceiling, decision 0021). */
export const SignInTokenParamsSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, messages.signInLinkInvalid),
});

export const UserIdParamsSchema = z.object({ id: z.uuid(answers.notFound) });

export const RoleSchema = z.enum(['USER', 'ADMIN']);
export type Role = z.infer<typeof RoleSchema>;

export const UserSchema = z.object({
  _id: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  avatar: z.object({ secure_url: z.string() }),
  role: RoleSchema,
  subscription: z.object({
    status: z.enum(['active', 'inactive']),
    /** Ours, while active: the end of the paid period (ISO); it renews then unless cancelAtPeriodEnd. */
    currentPeriodEnd: z.string().optional(),
    /** Ours, while active: cancelled without a refund, so it will not renew; access lasts until currentPeriodEnd. */
    cancelAtPeriodEnd: z.boolean().optional(),
    /** Ours, while in a free trial: when it ends and the first payment is taken (ISO). */
    trialEndsAt: z.string().optional(),
    /**
     * Ours: access an administrator granted without a payment (decision 0035). Active without a paid
     * period, `currentPeriodEnd` is its end; it never renews and cannot be cancelled.
     */
    complimentary: z.literal(true).optional(),
  }),
  /** Ours: the initial administrator must choose their own password before anything else works. */
  mustChangePassword: z.boolean().optional(),
});
export type User = z.infer<typeof UserSchema>;

/** The envelope alone (`envelope.ts`), under the name the routes use. */
export const MessageSchema = ReplySchema;
export const UserResponseSchema = MessageSchema.extend({ user: UserSchema });
export const ErrorSchema = FailureSchema;
