import fs from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/client.ts';
import { simpleParser, type ParsedMail } from 'mailparser';
import { mailOutbox } from '../mail.ts';

/** Every mail in DATA_DIR/mail (where mail goes without SMTP_URL), oldest first. */
export async function outbox(dataDir: string): Promise<string[]> {
  const dir = mailOutbox(dataDir);
  const files = (await fs.readdir(dir).catch(() => [])).sort();
  return Promise.all(files.map((file) => fs.readFile(path.join(dir, file), 'utf8')));
}

/**
 * Waits for the outbox to hold `count` mails that `matches` (mail is sent by a job, after
 * the request that asked for it has answered) and answers them.
 */
export async function waitForMails(dataDir: string, matches: (mail: string) => boolean, { count = 1, timeoutMs = 10_000 } = {}): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await outbox(dataDir)).filter(matches);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`expected ${count} matching mail(s) in the outbox, found ${found.length}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether a mail went to `email` (its To header). */
export const mailTo = (email: string) => (mail: string) => mail.includes(`To: ${email}`);

/** The token of the newest reset link mailed to `email`, waiting for the mail to arrive. */
export async function mailedResetToken(dataDir: string, email: string, { count = 1 } = {}): Promise<string> {
  const mails = await waitForMails(dataDir, (mail) => mailTo(email)(mail) && mail.includes('/reset-password/'), { count });
  const link = mails
    .at(-1)!
    .replace(/=\r?\n/g, '')
    .match(/\/reset-password\/([A-Za-z0-9_-]+)/);
  if (!link) throw new Error(`no reset link in the mail to ${email}`);
  return link[1]!;
}

/** Waits until the job queue has nothing left to do (no job waiting, running or due for a retry). */
export async function waitForJobs(database: Database, { timeoutMs = 10_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await database.execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE state IN ('created', 'retry', 'active')`);
    if ((rows[0] as { n: number }).n === 0) return;
    if (Date.now() > deadline) throw new Error('the job queue did not settle');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every mail in the outbox, parsed (subject decoded, text, HTML and attachments apart), oldest first. */
export async function parsedOutbox(dataDir: string): Promise<ParsedMail[]> {
  return Promise.all((await outbox(dataDir)).map((raw) => simpleParser(raw)));
}

/** Waits for `count` parsed mails to `email` whose subject `subject` matches, and answers them. */
export async function waitForParsedMails(dataDir: string, email: string, subject: RegExp, { count = 1, timeoutMs = 10_000 } = {}): Promise<ParsedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await parsedOutbox(dataDir)).filter(
      (mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === email && subject.test(mail.subject ?? ''),
    );
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) to ${email} matching ${subject}, found ${found.length}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
