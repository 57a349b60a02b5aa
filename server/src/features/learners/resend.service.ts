import { count, eq, gt, like } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import { billingDocuments, lifecycleMails, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../audit/audit.ts';
import type { UserRow } from '../auth/sessions.ts';
import { queueLifecycleMails, recordLifecycleMail } from '../billing/lifecycle-mail.ts';

/** How often one document may be sent again within an hour: enough for a lost mail, not enough to flood a buyer's inbox. */
export const RESENDS_PER_HOUR = 5;
const HOUR_MS = 3600_000;

/**
 * Mails an invoice or a credit note to its buyer again, as its first mail did (the receipt or the
 * refund mail, with the PDF attached), through the queue. Each sending is a mail of its own, keyed
 * `resend:<document>:<n>`, since the first mail's key is spent. Counting and writing happen under the
 * document's row lock, so two clicks at once make two numbered mails and the hourly limit holds.
 */
export async function resendDocument(ctx: Context, admin: UserRow, documentId: string, { note }: { note?: string }): Promise<{ message: string }> {
  const { mail, email } = await ctx.db.transaction(async (tx) => {
    const [document] = await tx.select().from(billingDocuments).where(eq(billingDocuments.id, documentId)).for('update');
    if (!document) throw new AppError(404, answers.documentNotFound);
    if (!document.pdfKey) throw new AppError(409, answers.documentNotReady);
    const prefix = `resend:${document.id}:`;
    const [sent] = await tx
      .select({ all: count(), lastHour: count(gt(lifecycleMails.createdAt, new Date(Date.now() - HOUR_MS))) })
      .from(lifecycleMails)
      .where(like(lifecycleMails.key, `${prefix}%`));
    if (sent!.lastHour >= RESENDS_PER_HOUR) throw new AppError(429, answers.documentResendsExceeded);
    const [buyer] = await tx.select().from(users).where(eq(users.id, document.userId));
    const isCreditNote = document.kind === 'credit_note';
    const mail = await recordLifecycleMail(tx, {
      key: `${prefix}${sent!.all + 1}`,
      kind: isCreditNote ? 'refund' : 'receipt',
      userId: document.userId,
      data: { documentId: document.id },
    });
    await recordAudit(tx, {
      actor: admin,
      action: 'learners.resendDocument',
      // An action on the learner (their page lists it); the document is named in the summary.
      target: { type: 'user', id: buyer!.id, label: `${buyer!.fullName} <${buyer!.email}>` },
      reason: note || null,
      summary: `${isCreditNote ? 'Credit note' : 'Invoice'} ${document.number} sent again to ${buyer!.email}`,
      details: { documentId: document.id },
    });
    return { mail, email: buyer!.email };
  });
  await queueLifecycleMails(ctx, [mail]);
  return { message: answers.documentResent(email) };
}
