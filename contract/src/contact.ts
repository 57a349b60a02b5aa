import { z } from 'zod';
import { emailPattern, NAME_MAX } from './users.ts';
import { messages } from './messages.ts';

export const CONTACT_MESSAGE_MAX = 5000;
export const CONTACT_PAGE_MAX = 100;

const mandatory = () => z.string({ error: messages.allFieldsMandatory }).trim().min(1, messages.allFieldsMandatory);

/** Spec §5: name, email and message required ('All fields are mandatory'); email pattern ('Invalid email'). */
export const ContactSchema = z
  .object({ name: mandatory(), email: mandatory(), message: mandatory() })
  .pipe(
    z.object({
      name: z.string().max(NAME_MAX, messages.nameTooLong),
      email: z.string().max(254, messages.emailTooLong).regex(emailPattern, messages.invalidEmail),
      message: z.string().max(CONTACT_MESSAGE_MAX, messages.messageTooLong),
    }),
  );
export type Contact = z.input<typeof ContactSchema>;

/** The inbox a page at a time, newest first; the same rules and text as the catalogue's paging. */
export const ContactMessagesQuerySchema = z.object({
  page: z.coerce.number({ error: messages.invalidPage }).int(messages.invalidPage).min(1, messages.invalidPage).max(1_000_000, messages.invalidPage).default(1),
  limit: z.coerce.number({ error: messages.invalidPage }).int(messages.invalidPage).min(1, messages.invalidPage).max(CONTACT_PAGE_MAX, messages.invalidPage).default(50),
});
export type ContactMessagesPage = z.output<typeof ContactMessagesQuerySchema>;

export const ContactMessageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  createdAt: z.string(),
});

export const ContactMessagesResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  messages: z.array(ContactMessageSchema),
  /** Messages in the inbox, over all pages. */
  total: z.number(),
  page: z.number().int(),
  limit: z.number().int(),
});
