import { z } from 'zod';
import { emailPattern, NAME_MAX } from './users.ts';
import { PagedShape, pagingQuery, ReplySchema } from './envelope.ts';
import { messages } from './messages.ts';
import { answers } from './answers.ts';
import { isPlainLine } from './plain-text.ts';

export const CONTACT_MESSAGE_MAX = 5000;
export const CONTACT_PAGE_MAX = 100;

const mandatory = () => z.string({ error: messages.allFieldsMandatory }).trim().min(1, messages.allFieldsMandatory);

/** The spec's contact rules: name, email and message required ('All fields are mandatory'); email pattern ('Invalid email'). */
export const ContactSchema = z.object({ name: mandatory(), email: mandatory(), message: mandatory() }).pipe(
  z.object({
    // The name goes into the subject of the mail to the admin.
    name: z.string().max(NAME_MAX, answers.nameTooLong).refine(isPlainLine, answers.nameNotPlain),
    email: z.string().max(254, answers.emailTooLong).regex(emailPattern, messages.invalidEmail),
    message: z.string().max(CONTACT_MESSAGE_MAX, answers.messageTooLong),
  }),
);
export type Contact = z.input<typeof ContactSchema>;

/** The inbox a page at a time, newest first; the same rules and text as the catalogue's paging. */
export const ContactMessagesQuerySchema = pagingQuery(CONTACT_PAGE_MAX);
export type ContactMessagesPage = z.output<typeof ContactMessagesQuerySchema>;

export const ContactMessageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  createdAt: z.string(),
});

/** A page of the inbox; `total` counts the messages over all pages. */
export const ContactMessagesResponseSchema = ReplySchema.extend({ messages: z.array(ContactMessageSchema), ...PagedShape });
