import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Config } from './config.ts';

export interface Mail {
  to: string | string[];
  subject: string;
  text: string;
  /** The same words as `text`, for mail clients that show HTML (lifecycle mail). */
  html?: string;
  replyTo?: string;
  /** Files sent along (an invoice's PDF); only mails sent directly by a job carry them, never queued as `mail`. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

/**
 * Puts a mail on the job queue: the `mail` job sends it with the Mailer, retrying while
 * the mail server fails. A request never waits on SMTP, and a mail is never lost with it.
 * It takes the Context's job queue by its shape: the job table (jobs.ts) names Mail.
 */
export async function queueMail(ctx: { jobs: { send(name: 'mail', mail: Mail): Promise<void> } }, mail: Mail): Promise<void> {
  await ctx.jobs.send('mail', mail);
}

/** The bare address of MAIL_FROM, which may be written `Name <address>` or be the address alone. */
export function mailAddressOf(mailFrom: string): string {
  const open = mailFrom.lastIndexOf('<');
  const close = mailFrom.lastIndexOf('>');
  return open !== -1 && close > open ? mailFrom.slice(open + 1, close).trim() : mailFrom.trim();
}

/**
 * Sends through SMTP_URL when set; otherwise writes each message as an .eml file
 * into DATA_DIR/mail, where a developer (or a test) can open it. Jobs use it: the `mail`
 * job, and those that mail a link opening an account (never queued, features/auth/mailed-links.ts);
 * everything else calls queueMail.
 *
 * The From name is the site's, read as each mail is sent (`senderName`), so a renamed site mails
 * under its new name at once; the address stays MAIL_FROM's, which the mail server vouches for.
 * When the name cannot be read the mail goes out with MAIL_FROM as it is rather than not at all.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>, senderName?: () => Promise<string>): Mailer {
  const address = mailAddressOf(config.mailFrom);
  const from = async () => {
    const name = senderName && (await senderName().catch(() => undefined));
    // nodemailer quotes and encodes the name itself: a name with commas or non-ASCII letters stays one name.
    return name ? { name, address } : config.mailFrom;
  };
  // nodemailer is loaded with the first mail, not at start-up.
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  const close = () => void transport?.then((t) => t.close());
  if (config.smtpUrl) {
    return {
      send: async (mail) => void (await (await connect()).sendMail({ from: await from(), ...mail })),
      close,
    };
  }
  const outbox = mailOutbox(config.dataDir);
  return {
    async send(mail) {
      const { message } = await (await connect()).sendMail({ from: await from(), ...mail });
      await fs.mkdir(outbox, { recursive: true });
      // Time first, so the files sort in the order they were sent.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      // Private whatever the umask: a mail may hold a reset link.
      await fs.writeFile(path.join(outbox, name), message as Buffer, { mode: 0o600 });
    },
    close,
  };
}

export const mailOutbox = (dataDir: string) => path.join(dataDir, 'mail');
