import { count, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ContactMessagesPage } from '@lms/contract/contact';
import type { Context } from '../../context.ts';
import { contactMessages, users } from '../../db/schema.ts';
import { queueMail } from '../../mail.ts';

export type ContactMessageRow = typeof contactMessages.$inferSelect;

/**
 * Stores a contact-form message, then queues a mail of it to CONTACT_EMAIL or else to
 * every administrator (the queue retries while the mail server fails). The inbox is the
 * record: a mail that cannot even be queued is logged, and the sender is still told the
 * message arrived.
 */
export async function sendContactMessage(
  ctx: Context,
  input: { name: string; email: string; message: string },
  { log }: { log: Pick<FastifyBaseLogger, 'error'> },
): Promise<ContactMessageRow> {
  const [stored] = await ctx.db.insert(contactMessages).values({ name: input.name, email: input.email, message: input.message }).returning();
  try {
    await mailContactMessage(ctx, stored!);
  } catch (error) {
    log.error({ err: error, contactMessageId: stored!.id }, 'contact message stored but its mail not queued');
  }
  return stored!;
}

async function mailContactMessage(ctx: Context, contact: ContactMessageRow): Promise<void> {
  const recipients = ctx.config.contactEmail
    ? [ctx.config.contactEmail]
    : (await ctx.db.select({ email: users.email }).from(users).where(eq(users.role, 'ADMIN'))).map((admin) => admin.email);
  if (recipients.length === 0) return;
  await queueMail(ctx, {
    to: recipients,
    // The address passed the contract's email pattern, so it is a bare address with nothing to escape.
    replyTo: contact.email,
    subject: `Contact form: ${oneLine(contact.name)}`,
    text: [`From: ${oneLine(contact.name)} <${contact.email}>`, `Sent: ${contact.createdAt.toISOString()}`, '', contact.message].join('\n'),
  });
}

/** The name as one line, whatever the sender typed into the field: it goes into a header. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

/** A page of the inbox, newest first, with the number of messages in it. */
export async function listContactMessages(ctx: Context, query: ContactMessagesPage) {
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(contactMessages)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db.select({ n: count() }).from(contactMessages),
  ]);
  return { messages: rows, total: total!.n };
}

/** A page of the inbox as the API answers it. */
export async function contactInbox(ctx: Context, query: ContactMessagesPage) {
  const inbox = await listContactMessages(ctx, query);
  return { messages: inbox.messages.map(toContactMessageJson), total: inbox.total, page: query.page, limit: query.limit };
}

export function toContactMessageJson(row: ContactMessageRow) {
  return { _id: row.id, name: row.name, email: row.email, message: row.message, createdAt: row.createdAt.toISOString() };
}
