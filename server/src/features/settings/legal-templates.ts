import type { LegalPage, Site } from '@lms/contract/settings';
import { pagePaths } from '@lms/contract/pages';
import type { RuntimeConfig } from '../../secrets.ts';
import type { Seller } from './site-settings.ts';

/** What a starting text is written from: the seller as the settings name it, and the rules the server applies. */
export interface TemplateFacts {
  site: Site;
  seller: Seller;
  config: RuntimeConfig;
}

/**
 * A legal page's starting text, in Markdown, until the seller saves their own: written from the
 * settings and the server's own rules (the refund window, the cookies it sets, what it stores),
 * and marked as a template to review. Names typed in the settings are escaped, so a name with a
 * star or a bracket reads as typed rather than as Markdown.
 */
export function legalTemplate(page: LegalPage, facts: TemplateFacts): string {
  const words = factsAsWords(facts);
  const text = page === 'terms' ? terms(words) : page === 'privacy' ? privacy(words) : refundPolicy(words);
  return `${text.join('\n\n')}\n`;
}

/** Markdown's own characters, backslash-escaped: the text reads as typed. */
const plain = (text: string) => text.replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&').replace(/^(\s*)([-=>])/gm, '$1\\$2');

interface Words {
  site: string;
  seller: string;
  address: string;
  /** How to reach the seller: the contact email when the settings have one, and the contact page. */
  reach: string;
  email: string | null;
  registered: boolean;
  gstin: string | null;
  gstRate: number;
  windowDays: number;
  sessionDays: number;
  sandbox: boolean;
}

function factsAsWords({ site, seller, config }: TemplateFacts): Words {
  const email = site.contact.email || null;
  return {
    site: plain(site.name),
    seller: plain(seller.name),
    address: plain(
      seller.address
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join(', '),
    ),
    reach: `${email ? `by mail to ${plain(email)} or ` : ''}through the [contact page](${pagePaths.contact})`,
    email: email && plain(email),
    registered: Boolean(seller.gstin),
    gstin: seller.gstin,
    gstRate: seller.gstRate,
    windowDays: config.payments.refundWindowDays,
    sessionDays: config.sessionDays,
    sandbox: config.payments.mode === 'sandbox',
  };
}

const REVIEW_NOTE =
  '> **Template — review before going live.** This starting text was written from your site’s settings. It is not legal advice: ' +
  'read it, change what does not fit your business, and have it checked before you sell. Saving it from the dashboard replaces this text, and this note with it.';

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** The refund rule exactly as refundDecision applies it (features/payments/refund-rule.service.ts). */
function refundRule(w: Words): string[] {
  if (w.windowDays === 0) {
    return [
      'Payments are **not refunded**. When you cancel, nothing more is charged and you keep access to every course until the end of the period you have already paid for.',
    ];
  }
  return [
    `If you cancel within **${days(w.windowDays)} of your last payment**, that payment is **refunded in full** and your access to the courses ends at once. ` +
      'This refund is given **once in any 12 months**: if you already had a refund in the 12 months before, a cancellation within the window is not refunded.',
    `If you cancel later than ${days(w.windowDays)} after your last payment, or a second time within 12 months, that payment is not refunded: nothing more is charged, and you keep access to every course until the end of the period you have already paid for.`,
    'When you open the cancellation dialog in your profile, it tells you which of these applies to you before you confirm.',
  ];
}

function gstPosition(w: Words): string {
  return w.registered
    ? `${w.seller} is registered for GST (GSTIN ${w.gstin}). GST at ${w.gstRate}% is included in every amount charged, and every payment comes with a tax invoice; a refund comes with a credit note.`
    : `${w.seller} is not registered for GST, so no GST is charged; every payment comes with a receipt, and a refund with a credit note.`;
}

/** Who takes the payments, named so that a comma may follow. */
const provider = (w: Words) => (w.sandbox ? 'the site’s test checkout (it takes no real payments: nothing is charged)' : 'Razorpay, our payment provider');

function terms(w: Words): string[] {
  return [
    '# Terms of use',
    REVIEW_NOTE,
    `These terms apply when you use ${w.site}, the online course site run by **${w.seller}** (${w.address}). By creating an account or subscribing you agree to them.`,
    '## The service',
    `${w.site} sells one subscription that unlocks every published course on the site: video lectures you watch online, in your browser, at your own pace. ` +
      'Some lectures are free previews that anyone can watch. Courses may be added, updated or retired over time.',
    '## Your account',
    'You need an account to subscribe. Keep your password to yourself: you are responsible for what is done with your account. One subscription is for one person; do not share your account or the videos.',
    '## Subscription and payment',
    `The subscription is paid in advance through ${provider(w)}, and renews automatically at the end of each period (a month, or a year for a yearly plan) until you cancel. ` +
      'A plan may start with a free trial: nothing is charged until it ends, and cancelling before then costs nothing. We mail you before a renewal or the end of a trial.',
    'If a renewal payment fails, it is tried again over the next few days while your access continues; if every try fails, the subscription stops and your access ends.',
    gstPosition(w),
    '## Cancellation and refunds',
    'You can cancel at any time from your profile.',
    ...refundRule(w),
    `The [refund policy](${pagePaths.refundPolicy}) says the same in more detail.`,
    '## Acceptable use',
    'Do not copy, download, record, resell or republish the courses, try to get around the subscription, or disrupt the site. We may suspend an account that does.',
    '## Our responsibility',
    `We take care to keep the site running and the courses accurate, but cannot promise the site is never interrupted. Nothing in these terms takes away the rights you have as a consumer under Indian law, including the Consumer Protection Act, 2019.`,
    '## Complaints and contact',
    `For any question or complaint, reach ${w.seller} ${w.reach}. We acknowledge a complaint within 48 hours and aim to resolve it within one month, as the Consumer Protection (E-Commerce) Rules, 2020 ask.`,
    'Name your grievance officer here: _[name, designation and contact details]_.',
    '## Changes',
    'We may change these terms; the version on this page is the one that applies. If a change affects your subscription, we tell you by mail before it applies.',
  ];
}

function privacy(w: Words): string[] {
  return [
    '# Privacy policy',
    REVIEW_NOTE,
    `This policy explains what personal data ${w.site} keeps about you, why, and what you can ask of us. ${w.seller} (${w.address}) decides how it is used and is responsible for it, ` +
      'as the Data Fiduciary under the Digital Personal Data Protection Act, 2023.',
    '## What we keep',
    '- **Your account**: your name, email address and password (stored only as a one-way hash, never in a form we can read), and your role on the site.\n' +
      '- **Your profile picture**, if you upload one.\n' +
      '- **Billing details** you give for invoices: a business name, GSTIN, state and address.\n' +
      `- **Payments**: the amount, date and status of each payment and refund, the invoices and credit notes issued, and the payment provider’s reference numbers. Your card or bank details are entered at ${provider(w)}, and never reach us.\n` +
      '- **Your progress**: which lectures you have watched and where you stopped, so you can continue where you left off.\n' +
      '- **Sessions**: while you are signed in, a record of the session that ends when you sign out or it expires.\n' +
      '- **Messages** you send through the contact page: your name, email address and message.',
    'We keep this data on the server that runs this site, operated by or for the seller. The server’s logs record requests (such as the address they came from) to keep the site running and secure.',
    '## Why we keep it',
    'To give you the courses you subscribed to, take payments and issue the invoices the law requires, mail you about your account and subscription (a receipt, a renewal reminder, a password reset), answer your messages, and protect accounts from misuse. We do not sell your data or use it for advertising.',
    '## Cookies',
    `The site sets only the cookies it needs to work: one that keeps you signed in (for up to ${days(w.sessionDays)}, or until you sign out), and one that remembers that this browser has signed in to your account before, so that you can still sign in while someone else is guessing your password. ` +
      'Your browser also keeps whether you are signed in, so the pages show the right menu. There are no advertising or tracking cookies.',
    '## Who else sees it',
    `The payment provider processes your payments; a mail service may carry our mails to you; and the hosting provider stores the server’s data. We share data with authorities only when the law requires it.`,
    '## Your rights',
    `You can see and correct your name, picture and billing details in your profile at any time. To get a summary of your data, have it erased, withdraw your consent or make a complaint, write to us ${w.reach}. ` +
      'We erase your account and what is kept with it, except what the law makes us keep: invoices and payment records are kept for as long as tax law requires.',
    'If we do not resolve your complaint, you may take it to the Data Protection Board of India.',
    'Name the person who answers questions about your data here: _[name and contact details]_.',
    '## Changes',
    'When this policy changes, the new version appears on this page; if a change matters to how your data is used, we tell you by mail.',
  ];
}

function refundPolicy(w: Words): string[] {
  return [
    '# Refund policy',
    REVIEW_NOTE,
    `This is how cancellations and refunds work for the ${w.site} subscription, sold by **${w.seller}**.`,
    '## Cancelling',
    'You can cancel at any time from your profile; no reason needed. After you cancel, nothing more is charged.',
    '## Refunds',
    ...refundRule(w),
    '**During a free trial** nothing has been charged, so there is nothing to refund: cancel before the trial ends and you are never charged, and you keep watching until the trial ends.',
    'When your card is checked at the start of a subscription, a small authorisation amount may be taken; it is refunded at once.',
    '## How a refund is paid',
    `A refund goes back to the card or account you paid with, through ${provider(w)}. We mail you when it is issued, with a credit note; banks usually take 5 to 7 working days to show it.`,
    gstPosition(w),
    '## Questions',
    `If a refund does not arrive or something looks wrong, reach ${w.seller} ${w.reach}.`,
  ];
}
