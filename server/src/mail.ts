import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from './config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type Mailer = { send(mail: Mail): Promise<void>; close(): void };

/**
 * Sends through SMTP_URL when set; otherwise writes each message as an .eml file
 * into DATA_DIR/mail, where a developer (or a test) can open it.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      send: async (mail) => void (await transport.sendMail({ from: config.mailFrom, ...mail })),
      close: () => transport.close(),
    };
  }
  const outbox = mailOutbox(config.dataDir);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const { message } = await transport.sendMail({ from: config.mailFrom, ...mail });
      await fs.mkdir(outbox, { recursive: true });
      // Time first, so the files sort in the order they were sent.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await fs.writeFile(path.join(outbox, name), message as Buffer);
    },
    close: () => transport.close(),
  };
}

export const mailOutbox = (dataDir: string) => path.join(dataDir, 'mail');
