import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { Config } from './config.ts';

export interface Mail {
  to: string | string[];
  subject: string;
  text: string;
  replyTo?: string;
}

export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

/**
 * Sends through SMTP_URL when set; otherwise writes each message as an .eml file
 * into DATA_DIR/mail, where a developer (or a test) can open it.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  // nodemailer is loaded with the first mail, not at start-up.
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      config.smtpUrl
        ? nodemailer.createTransport(config.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    ));
  const close = () => void transport?.then((t) => t.close());
  if (config.smtpUrl) {
    return {
      send: async (mail) => void (await (await connect()).sendMail({ from: config.mailFrom, ...mail })),
      close,
    };
  }
  const outbox = mailOutbox(config.dataDir);
  return {
    async send(mail) {
      const { message } = await (await connect()).sendMail({ from: config.mailFrom, ...mail });
      await fs.mkdir(outbox, { recursive: true });
      // Time first, so the files sort in the order they were sent.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await fs.writeFile(path.join(outbox, name), message as Buffer);
    },
    close,
  };
}

export const mailOutbox = (dataDir: string) => path.join(dataDir, 'mail');
