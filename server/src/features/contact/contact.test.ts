import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGE_MAX } from '@lms/contract/contact';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { contactMessages } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { rowCount } from '../../test/db.ts';
import { recordLogs } from '../../test/logs.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { outbox, waitForJobs, waitForMails } from '../../test/mail.ts';

let t: TestApp;
let adminEmail: string;
beforeAll(async () => {
  t = await createTestApp();
  adminEmail = (await signUpAdmin(t.app)).email;
});
afterAll(() => t?.close());

// Each test sends from its own address, so the per-address limit is reached only where a test means to.
let addresses = 0;
const newAddress = () => `10.0.0.${++addresses}`;

const validMessage = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ravi Kumar',
  email: 'ravi.kumar@example.com',
  message: 'Do the courses come with certificates?',
  ...overrides,
});
const post = (app: TestApp['app'], payload: unknown, remoteAddress = newAddress()) =>
  app.inject({ method: 'POST', url: '/api/v1/contact', payload: payload as object, remoteAddress });

/** A header of a mailed message, unfolded; only the header block is searched, never the body. */
function header(mail: string, name: string): string | undefined {
  const head = mail.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return head.match(new RegExp(`^${name}: (.*)$`, 'm'))?.[1];
}

/** What a refused message could have left behind, once the mails of earlier messages are out. */
const snapshot = async () => {
  await waitForJobs(t.database);
  return { rows: await rowCount(t.database, contactMessages), mails: (await outbox(t.dataDir)).length };
};
async function expectRefused(request: () => Promise<LightMyRequestResponse>, status: number, message: string) {
  const before = await snapshot();
  const response = await request();
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toEqual({ success: false, message });
  expect(await snapshot()).toEqual(before);
}

describe('POST /api/v1/contact', () => {
  it('stores the message and mails it to the administrators, replying to the sender', async () => {
    const before = await outbox(t.dataDir);
    const payload = validMessage({ name: 'Meera Iyer', email: 'meera.iyer@example.com', message: 'Is there a\nstudent discount?' });
    const response = await post(t.app, payload);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ success: true, message: messages.contactSent });

    const rows = await t.database.db.select().from(contactMessages);
    expect(rows.filter((row) => row.email === 'meera.iyer@example.com')).toEqual([
      expect.objectContaining({ name: 'Meera Iyer', message: 'Is there a\nstudent discount?' }),
    ]);
    const [mail] = await waitForMails(t.dataDir, (text) => header(text, 'Reply-To') === 'meera.iyer@example.com');
    expect(await outbox(t.dataDir)).toHaveLength(before.length + 1);
    expect(header(mail!, 'To')).toBe(adminEmail);
    expect(header(mail!, 'Subject')).toBe('Contact form: Meera Iyer');
    expect(mail).toContain('Is there a\nstudent discount?');
  });

  it('mails every administrator, and no ordinary user', async () => {
    const second = await signUpAdmin(t.app);
    const user = await signUp(t.app);
    const response = await post(t.app, validMessage({ message: 'Which admins read this?' }));
    expect(response.statusCode).toBe(200);
    const [mail] = await waitForMails(t.dataDir, (text) => text.includes('Which admins read this?'));
    const to = header(mail!, 'To')!.split(/,\s*/);
    expect(to.sort()).toEqual([adminEmail, second.email].sort());
    expect(to).not.toContain(user.email);
  });

  it('mails CONTACT_EMAIL instead of the administrators when it is set', async () => {
    const other = await createTestApp({ env: { CONTACT_EMAIL: 'team@lms.example' } });
    try {
      await signUpAdmin(other.app);
      const response = await post(other.app, validMessage({ email: 'asker@example.com' }));
      expect(response.statusCode).toBe(200);
      const mails = await waitForMails(other.dataDir, () => true);
      expect(mails).toHaveLength(1);
      expect(header(mails[0]!, 'To')).toBe('team@lms.example');
      expect(header(mails[0]!, 'Reply-To')).toBe('asker@example.com');
      expect(await rowCount(other.database, contactMessages)).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('stores the message without a mail when there is nobody to mail', async () => {
    const other = await createTestApp();
    try {
      const response = await post(other.app, validMessage());
      expect(response.statusCode).toBe(200);
      expect(await rowCount(other.database, contactMessages)).toBe(1);
      expect(await outbox(other.dataDir)).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('keeps the message and answers success when the mail cannot be sent, logging the failure and retrying', async () => {
    const logs = recordLogs();
    const other = await createTestApp({ env: { LOG_LEVEL: 'warn' }, logStream: logs.stream });
    try {
      await signUpAdmin(other.app);
      other.app.ctx.mailer.send = async () => {
        throw new Error('SMTP server unreachable');
      };
      const response = await post(other.app, validMessage({ email: 'unmailed@example.com' }));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true, message: messages.contactSent });
      const [row] = await other.database.db.select().from(contactMessages);
      expect(row).toMatchObject({ email: 'unmailed@example.com' });
      const retried = async () => logs.entries().filter((entry) => entry.msg === 'job failed; it will be retried');
      await expect.poll(retried, { timeout: 10_000 }).toHaveLength(2);
      expect((await retried())[0]).toMatchObject({ level: 40, job: 'mail', attempt: 1, err: { message: 'SMTP server unreachable' } });
    } finally {
      await other.close();
    }
  });

  it('refuses a name that would not keep the mail subject on one line, storing nothing', async () => {
    for (const name of ['Ravi\r\nBcc: victim@example.com', 'Ravi\nBcc: victim@example.com', 'Ravi\u2028Kumar', 'Ravi \u202eramuK']) {
      await expectRefused(() => post(t.app, validMessage({ name })), 400, answers.nameNotPlain);
    }
  });

  it('answers "All fields are mandatory" for each missing or blank field and for no body, storing nothing', async () => {
    for (const field of ['name', 'email', 'message']) {
      await expectRefused(() => post(t.app, validMessage({ [field]: undefined })), 400, messages.allFieldsMandatory);
      await expectRefused(() => post(t.app, validMessage({ [field]: '   ' })), 400, messages.allFieldsMandatory);
    }
    await expectRefused(() => post(t.app, undefined), 400, messages.allFieldsMandatory);
    await expectRefused(() => post(t.app, {}), 400, messages.allFieldsMandatory);
  });

  it('answers "Invalid email" for a malformed address', async () => {
    for (const email of ['ravi', 'ravi@', 'ravi@example', 'ravi kumar@example.com', 'a@b.co\nBcc: x@y.co']) {
      await expectRefused(() => post(t.app, validMessage({ email })), 400, messages.invalidEmail);
    }
  });

  it('refuses fields that are too long (400)', async () => {
    await expectRefused(() => post(t.app, validMessage({ name: 'N'.repeat(51) })), 400, answers.nameTooLong);
    await expectRefused(() => post(t.app, validMessage({ email: `${'e'.repeat(250)}@example.com` })), 400, answers.emailTooLong);
    await expectRefused(() => post(t.app, validMessage({ message: 'm'.repeat(CONTACT_MESSAGE_MAX + 1) })), 400, answers.messageTooLong);
    expect((await post(t.app, validMessage({ message: 'm'.repeat(CONTACT_MESSAGE_MAX) }))).statusCode).toBe(200);
  });

  it('refuses a body that is not JSON (415), storing nothing', async () => {
    await expectRefused(
      () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/contact',
          payload: 'name=Ravi&email=ravi@example.com&message=hi',
          headers: { 'content-type': 'text/plain' },
          remoteAddress: newAddress(),
        }),
      415,
      answers.unsupportedContentType,
    );
  });

  it('accepts 5 messages from one address in 15 minutes, then answers 429 and stores nothing', async () => {
    const address = newAddress();
    for (let i = 0; i < 5; i++) expect((await post(t.app, validMessage(), address)).statusCode).toBe(200);
    await expectRefused(() => post(t.app, validMessage(), address), 429, answers.tooManyRequests);
    expect((await post(t.app, validMessage())).statusCode).toBe(200);
  });
});

describe('GET /api/v1/contact', () => {
  let inbox: TestApp;
  let admin: string;
  let user: string;
  const list = (query = '', cookie = admin) => inbox.app.inject({ url: `/api/v1/contact${query}`, headers: { cookie } });

  beforeAll(async () => {
    inbox = await createTestApp();
    admin = (await signUpAdmin(inbox.app)).cookie;
    user = (await signUp(inbox.app)).cookie;
    const start = Date.parse('2026-03-01T09:00:00Z');
    await inbox.database.db.insert(contactMessages).values(
      Array.from({ length: 7 }, (_, i) => ({
        name: `Sender ${i}`,
        email: `sender${i}@example.com`,
        message: `Question ${i}`,
        createdAt: new Date(start + i * 60_000),
      })),
    );
  });
  afterAll(() => inbox?.close());

  it('lists the messages newest first, with the total', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: answers.contactMessages, total: 7, page: 1, limit: 50 });
    expect(body.messages.map((m: { name: string }) => m.name)).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `Sender ${i}`));
    expect(body.messages[0]).toEqual({
      _id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Sender 6',
      email: 'sender6@example.com',
      message: 'Question 6',
      createdAt: '2026-03-01T09:06:00.000Z',
    });
  });

  it('pages through the inbox', async () => {
    const names = async (query: string) => (await list(query)).json().messages.map((m: { name: string }) => m.name);
    expect(await names('?page=1&limit=3')).toEqual(['Sender 6', 'Sender 5', 'Sender 4']);
    expect(await names('?page=3&limit=3')).toEqual(['Sender 0']);
    expect(await names('?page=4&limit=3')).toEqual([]);
    const page = (await list('?page=2&limit=3')).json();
    expect(page).toMatchObject({ total: 7, page: 2, limit: 3 });
  });

  it('refuses a bad page or limit (400)', async () => {
    for (const query of ['?limit=0', '?limit=101', '?page=0', '?page=abc', '?limit=2.5']) {
      const response = await list(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.invalidPage });
    }
    expect((await list('?limit=100')).statusCode).toBe(200);
  });

  it('is for admins only: 401 logged out, 403 for a user', async () => {
    const loggedOut = await inbox.app.inject({ url: '/api/v1/contact' });
    expect(loggedOut.statusCode).toBe(401);
    expect(loggedOut.json()).toEqual({ success: false, message: answers.notLoggedIn });
    const forbidden = await list('', user);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ success: false, message: answers.notAllowed });
  });

  // Last: it adds to the inbox the other tests count.
  it('shows a message sent through the form at the top', async () => {
    expect((await inbox.app.inject({ method: 'POST', url: '/api/v1/contact', payload: validMessage({ name: 'Newest Sender' }) })).statusCode).toBe(200);
    const body = (await list()).json();
    expect(body.total).toBe(8);
    expect(body.messages[0]).toMatchObject({ name: 'Newest Sender', email: 'ravi.kumar@example.com' });
  });
});
