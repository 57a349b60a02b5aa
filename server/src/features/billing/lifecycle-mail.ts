import { and, eq, gt, isNotNull, isNull, lt, lte, or } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { billingDocuments, lifecycleMails, plans, subscriptions, users } from '../../db/schema.ts';
import type { Mail } from '../../mail.ts';
import { siteOf } from '../settings/site-settings.ts';
import { formatIndiaDate, rupees } from './format.ts';

/**
 * The subscription's lifecycle mail: a receipt with the invoice after every payment, a
 * reminder before a renewal, word of a failed payment and of access ended, the cancellation
 * confirmed, a refund with its credit note. Each is written to `lifecycle_mails` in the transaction
 * of its event, under a key naming the event, so repeated webhooks write one row; the
 * `lifecycle-mail` job sends it (retried while the mail server fails) and a sweep queues any row the
 * queue never got. A request never waits on SMTP.
 */

export type LifecycleKind =
  | 'receipt'
  | 'refund'
  | 'cancelled'
  | 'payment_failed'
  | 'access_ended'
  | 'renewal_reminder'
  | 'trial_reminder'
  // An administrator's doing (features/learners): complimentary access, the account suspended or restored, its email being changed.
  | 'access_granted'
  | 'access_revoked'
  | 'access_expired'
  | 'account_suspended'
  | 'account_restored'
  | 'email_change_asked';
type Data = Record<string, string | number | boolean | null>;

/** Writes the mail of an event, once per `key`; answers the new row's id, or null when the event already had its mail. */
export async function recordLifecycleMail(db: Db, mail: { key: string; kind: LifecycleKind; userId: string; data: Data }): Promise<string | null> {
  const [row] = await db.insert(lifecycleMails).values(mail).onConflictDoNothing({ target: lifecycleMails.key }).returning({ id: lifecycleMails.id });
  return row?.id ?? null;
}

/** Queues mails just written (after their transaction committed); the job id is the row's, so queueing twice sends once. */
export async function queueLifecycleMails(ctx: Pick<Context, 'jobs'>, ids: (string | null | undefined)[]): Promise<void> {
  // A mail the queue did not take now is queued by the minute's sweep: the event itself stands.
  for (const id of ids) if (id) await ctx.jobs.send('lifecycle-mail', { id }, { id }).catch(() => undefined);
}

/** Queues the receipt or refund mail waiting for a document's PDF, once the PDF exists. */
export async function queueMailOfDocument(ctx: Context, document: { id: string; kind: string }): Promise<void> {
  const key = `${document.kind === 'credit_note' ? 'refund' : 'receipt'}:${document.id}`;
  const [row] = await ctx.db.select({ id: lifecycleMails.id }).from(lifecycleMails).where(eq(lifecycleMails.key, key));
  await queueLifecycleMails(ctx, [row?.id]);
}

const SWEEP_AFTER_MS = 60_000;

/** Queues mails written over a minute ago and still unsent (the queue was down, or the process died after the commit). */
export async function queueUnsentMails(ctx: Context): Promise<number> {
  const unsent = await ctx.db
    .select({ id: lifecycleMails.id })
    .from(lifecycleMails)
    .where(and(isNull(lifecycleMails.sentAt), lt(lifecycleMails.createdAt, new Date(Date.now() - SWEEP_AFTER_MS))))
    .limit(500);
  await queueLifecycleMails(
    ctx,
    unsent.map((row) => row.id),
  );
  return unsent.length;
}

const REMINDER_DAYS = 3;

/**
 * Writes the reminders of charges due within three days: renewals of subscriptions nobody
 * cancelled, and the first charge after a free trial. Keyed by the charge's date, so each is
 * reminded of once however often this runs.
 */
export async function queueRenewalReminders(ctx: Context, now = new Date()): Promise<number> {
  const soon = new Date(now.getTime() + REMINDER_DAYS * 24 * 3600 * 1000);
  const due = await ctx.db
    .select({ subscription: subscriptions, user: users, interval: plans.interval })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .where(
      and(
        isNull(subscriptions.cancelledAt),
        isNull(users.subscriptionCancelledAt),
        or(
          and(eq(subscriptions.status, 'active'), gt(subscriptions.currentEnd, now), lte(subscriptions.currentEnd, soon)),
          and(
            eq(subscriptions.status, 'authenticated'),
            isNotNull(subscriptions.trialStartedAt),
            gt(subscriptions.startAt, now),
            lte(subscriptions.startAt, soon),
          ),
        ),
      ),
    );
  const ids: (string | null)[] = [];
  for (const { subscription, user, interval } of due) {
    const trial = subscription.status === 'authenticated';
    const chargeOn = (trial ? subscription.startAt : subscription.currentEnd)!;
    ids.push(
      await recordLifecycleMail(ctx.db, {
        key: `${trial ? 'trial_reminder' : 'renewal_reminder'}:${subscription.id}:${chargeOn.toISOString()}`,
        kind: trial ? 'trial_reminder' : 'renewal_reminder',
        userId: user.id,
        data: {
          renewsOn: chargeOn.toISOString(),
          amountPaise: subscription.nextChargePaise ?? ctx.config.payments.pricePaise,
          period: interval === 'yearly' ? 'year' : 'month',
        },
      }),
    );
  }
  await queueLifecycleMails(ctx, ids);
  return ids.filter(Boolean).length;
}

/** A PDF a mail needs is not made yet: the job fails and is tried again a little later. */
class DocumentNotReady extends Error {}

/** The `lifecycle-mail` job: composes the mail of a row and sends it, once. */
export async function sendLifecycleMail(ctx: Context, { id }: { id: string }): Promise<void> {
  const [row] = await ctx.db.select().from(lifecycleMails).where(eq(lifecycleMails.id, id));
  if (!row || row.sentAt) return;
  const [user] = await ctx.db.select().from(users).where(eq(users.id, row.userId));
  if (!user) return;
  const mail = await compose(ctx, row.kind as LifecycleKind, row.data, { name: user.fullName, email: user.email });
  await ctx.mailer.send(mail);
  await ctx.db.update(lifecycleMails).set({ sentAt: new Date() }).where(eq(lifecycleMails.id, id));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** One mail in plain text and HTML from the same paragraphs; a link is a paragraph of its own. Signed with the site's name. */
type Paragraph = string | { link: string; label: string };

function signedLetter(to: string, subject: string, name: string, paragraphs: Paragraph[], siteName: string): Mail {
  const text = [`Hello ${name},`, ...paragraphs.map((part) => (typeof part === 'string' ? part : `${part.label}: ${part.link}`)), `— ${siteName}`].join('\n\n');
  const body = paragraphs
    .map((part) =>
      typeof part === 'string'
        ? `<p style="margin:0 0 16px">${escapeHtml(part)}</p>`
        : `<p style="margin:0 0 16px"><a href="${escapeHtml(part.link)}" style="color:#4f46e5">${escapeHtml(part.label)}</a></p>`,
    )
    .join('');
  const html =
    `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,sans-serif;color:#18181b;line-height:1.5">` +
    `<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:12px;padding:24px">` +
    `<p style="margin:0 0 16px">Hello ${escapeHtml(name)},</p>${body}<p style="margin:0;color:#52525b">— ${escapeHtml(siteName)}</p></div></body></html>`;
  return { to, subject, text, html };
}

async function documentFor(ctx: Context, documentId: string) {
  const [document] = await ctx.db.select().from(billingDocuments).where(eq(billingDocuments.id, documentId));
  if (!document) throw new Error(`document ${documentId} is gone`);
  if (!document.pdfKey) throw new DocumentNotReady(`the PDF of ${document.number} is not made yet`);
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.media.read(document.pdfKey)) chunks.push(chunk as Buffer);
  return { document, attachment: { filename: `${document.number.replaceAll('/', '-')}.pdf`, content: Buffer.concat(chunks), contentType: 'application/pdf' } };
}

async function compose(ctx: Context, kind: LifecycleKind, data: Data, user: { name: string; email: string }): Promise<Mail> {
  const site = ctx.config.publicUrl;
  // The site's name as the settings have it when the mail is sent, not when its event was recorded.
  const { name: siteName } = await siteOf(ctx);
  const letter = (to: string, subject: string, name: string, paragraphs: Paragraph[]) => signedLetter(to, subject, name, paragraphs, siteName);
  const profile = { link: `${site}/user/profile`, label: 'Your billing history' };
  const date = (iso: unknown) => formatIndiaDate(new Date(String(iso)));
  switch (kind) {
    case 'receipt': {
      const { document, attachment } = await documentFor(ctx, String(data.documentId));
      const title = document.documentType === 'tax_invoice' ? 'tax invoice' : 'receipt';
      return {
        ...letter(user.email, `Payment received: ${rupees(document.totalPaise)} · ${document.number}`, user.name, [
          `Thank you: we received ${rupees(document.totalPaise)} for ${document.description}.`,
          `Your ${title} ${document.number} is attached.`,
          profile,
        ]),
        attachments: [attachment],
      };
    }
    case 'refund': {
      const { document, attachment } = await documentFor(ctx, String(data.documentId));
      return {
        ...letter(user.email, `Refund issued: ${rupees(document.totalPaise)} · ${document.number}`, user.name, [
          // An administrator's partial refund says what part of the payment went back.
          data.paidPaise != null && Number(data.paidPaise) > document.totalPaise
            ? `We refunded ${rupees(document.totalPaise)} of your payment of ${rupees(Number(data.paidPaise))} to the card you paid with. Banks usually take 5 to 7 working days to show it.`
            : `We refunded ${rupees(document.totalPaise)} to the card you paid with. Banks usually take 5 to 7 working days to show it.`,
          ...(data.accessEndedNow === true ? ['Your access to the courses has ended with this refund.'] : []),
          `The credit note ${document.number} is attached.`,
          profile,
        ]),
        attachments: [attachment],
      };
    }
    case 'cancelled':
      return letter(
        user.email,
        'Your subscription is cancelled',
        user.name,
        data.refunded
          ? [
              'Your subscription is cancelled and your last payment is refunded in full; your access to the courses has ended.',
              'A separate mail brings the credit note.',
              { link: `${site}/checkout`, label: 'Subscribe again any time' },
            ]
          : data.endedNow
            ? [
                'Your subscription is cancelled and your access to the courses has ended, but the refund of your last payment could not be made just now.',
                'Please reply to this mail or use the contact page, and we will see to it.',
                { link: `${site}/contact`, label: 'Contact us' },
              ]
            : [
                `Your subscription is cancelled: nothing more will be charged, and you keep access to every course until ${date(data.accessUntil)}.`,
                'Changed your mind? Resume before then and nothing is charged until that date.',
                { link: `${site}/checkout`, label: 'Resume your subscription' },
              ],
      );
    case 'payment_failed':
      return letter(user.email, 'Your payment did not go through', user.name, [
        'We could not charge your card for the renewal of your subscription.',
        `Your access continues while the payment is tried again over the next few days (your paid period ends on ${date(data.accessUntil)}). If every try fails, the subscription stops and your access ends; you can subscribe again at any time.`,
        'Please make sure your card has funds and allows recurring payments.',
        profile,
      ]);
    case 'access_ended':
      return letter(user.email, 'Your access has ended', user.name, [
        'Your subscription stopped after its renewal payment failed, and your access to the courses has ended.',
        { link: `${site}/checkout`, label: 'Subscribe again' },
      ]);
    case 'renewal_reminder':
      return letter(user.email, `Your subscription renews on ${date(data.renewsOn)}`, user.name, [
        `On ${date(data.renewsOn)} we will charge ${rupees(Number(data.amountPaise))} for another ${String(data.period ?? 'month')} of every course.`,
        'Nothing to do if you want to keep learning. To stop the renewal, cancel from your profile before then.',
        profile,
      ]);
    case 'trial_reminder':
      return letter(user.email, `Your free trial ends on ${date(data.renewsOn)}`, user.name, [
        `Your free trial ends on ${date(data.renewsOn)}. That day we will charge ${rupees(Number(data.amountPaise))} for a ${String(data.period ?? 'month')} of every course, and the subscription renews from then on.`,
        'Nothing to do if you want to keep learning. To stop before the first payment, cancel from your profile: nothing is charged, and you keep watching until the trial ends.',
        profile,
      ]);
    case 'access_granted':
      return letter(user.email, `Complimentary access until ${date(data.until)}`, user.name, [
        `You have been given complimentary access to every course until ${date(data.until)}. Nothing is charged, and nothing renews by itself.`,
        { link: `${site}/courses`, label: 'Start learning' },
      ]);
    case 'access_revoked':
      return letter(user.email, 'Your complimentary access has ended', user.name, [
        'Your complimentary access to the courses has been ended. A subscription of your own, if you have one, is not affected.',
        'Questions? Reply to this mail or use the contact page.',
        { link: `${site}/checkout`, label: 'Subscribe' },
      ]);
    case 'access_expired':
      return letter(user.email, 'Your complimentary access has ended', user.name, [
        `Your complimentary access to the courses ended on ${date(data.until)}. We hope you enjoyed it.`,
        { link: `${site}/checkout`, label: 'Subscribe to keep learning' },
      ]);
    case 'account_suspended':
      return letter(user.email, 'Your account is suspended', user.name, [
        'Your account has been suspended: you cannot sign in, and every signed-in device has been signed out.',
        `The reason: ${String(data.reason)}`,
        'If you think this is a mistake, reply to this mail or use the contact page.',
        { link: `${site}/contact`, label: 'Contact us' },
      ]);
    case 'account_restored':
      return letter(user.email, 'Your account is restored', user.name, [
        'Your account is no longer suspended: you can sign in again.',
        { link: `${site}/login`, label: 'Sign in' },
      ]);
    case 'email_change_asked':
      // To the address it had when asked, even if the change was confirmed before this was sent.
      return letter(String(data.oldEmail ?? user.email), 'A change of your account’s email was asked', user.name, [
        `An administrator asked to change the email of your account from this address to ${String(data.newEmail)}. A confirmation link was mailed there; the email changes once it is opened.`,
        'If you did not expect this, reply to this mail or use the contact page before the link is opened.',
        { link: `${site}/contact`, label: 'Contact us' },
      ]);
  }
}
