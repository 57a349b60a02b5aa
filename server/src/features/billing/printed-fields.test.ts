import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { hasLayoutCharacter, imitatesInvoiceLabel } from '@lms/contract/plain-text';
import { contactMessages, courses, lectures, plans, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { rowCount } from '../../test/db.ts';
import { mp4Video, multipart, newSignup, pngImage, signUp, signUpAdmin } from '../../test/http.ts';

/*
 * Every field that is printed on an invoice or goes into a mail header is one line of plain text:
 * the buyer's name (invoices, mail), a plan's name (invoice descriptions), the contact form's name
 * (the subject of the mail to the admin), course and lecture titles. The billing details have
 * their own tests (billing.test.ts).
 */

/** One of each kind of character that would break a line or turn the text around. */
const FORGERIES = ['\n', '\r', '\t', '\u000b', '\u0085', '\u007f', '\u2028', '\u2029', '\u202e', '\u2066', '\u200f'];

describe('plain text', () => {
  it('finds every layout character, and nothing else, Indian scripts with their joiners included', () => {
    for (const forgery of FORGERIES) expect(hasLayoutCharacter(`Asha${forgery}Verma`), JSON.stringify(forgery)).toBe(true);
    for (const name of ['Asha Verma', 'आशा वर्मा', 'ക്ഷ\u200dമ', 'Zoë O’Brien-Smith', 'Asha\u00a0Verma']) expect(hasLayoutCharacter(name), name).toBe(false);
  });

  it('finds an invoice label however it is spelt, and not in the words of an honest address', () => {
    for (const forged of [
      'GSTIN 29AAACL1234C1Z5',
      'gstin: x',
      'G S T I N',
      'g.s.t.i.n.',
      'GST No. 5',
      'Ｔａｘ Ｉｎｖｏｉｃｅ',
      'GS\u0422IN',
      'GST1N',
      'GSTlN',
      'Invoice #42',
      'Invoice no: LMS/26-27/000999',
      'Place of Supply',
      'SAC 999293',
      'IGST',
      'Total paid',
      'Credit note',
      'Date 12 Jan',
    ])
      expect(imitatesInvoiceLabel(forged), forged).toBe(true);
    for (const honest of [
      'No. 12, GST Road',
      'Chromepet, Chennai 600044',
      'Sachin Date & Sons',
      'Flat 4B, Lake View',
      'Date Palm Lane',
      'SAC Campus, Ahmedabad',
      'Total Solutions LLP',
      'Near Pan Bazaar',
      'Invoice Nomads LLP',
      'E2E invoice mwx9bs8tne0',
    ])
      expect(imitatesInvoiceLabel(honest), honest).toBe(false);
  });
});

describe('fields that reach a PDF or a mail header', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signUpAdmin(t.app)).cookie;
  });
  afterAll(() => t?.close());

  const counts = async () => Promise.all([users, contactMessages, plans, courses, lectures].map((table) => rowCount(t.database, table)));

  it('refuses a full name that is not one line of plain text, or carries an invoice label, at sign-up and on the profile', async () => {
    const before = await counts();
    for (const [fullName, message] of [
      ...FORGERIES.map((forgery) => [`Asha${forgery}Verma`, answers.nameNotPlain]),
      ['GSTIN 29AAACL1234C1Z5', answers.invoiceLabelRefused],
    ]) {
      const body = await multipart({ ...newSignup({ fullName: fullName! }), avatar: { bytes: await pngImage(), filename: 'me.png', type: 'image/png' } });
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/user/register', ...body });
      expect(response.statusCode, JSON.stringify(fullName)).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    expect(await counts()).toEqual(before);

    const learner = await signUp(t.app);
    const edit = await multipart({ fullName: 'Asha\nGSTIN 29AAACL1234C1Z5' });
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/update/${learner.user._id}`,
      ...edit,
      headers: { ...edit.headers, cookie: learner.cookie },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, message: answers.nameNotPlain });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, learner.user._id));
    expect(row!.fullName).toBe(learner.fullName);
  });

  it("refuses a contact form whose name would go into the mail's subject with a line break", async () => {
    const before = await counts();
    for (const forgery of FORGERIES) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/contact',
        payload: { name: `Asha${forgery}Bcc: everyone@example.com`, email: 'asha@example.com', message: 'Hello' },
      });
      expect(response.statusCode, JSON.stringify(forgery)).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.nameNotPlain });
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a plan name, a course title or a lecture title that is not one line of plain text', async () => {
    const course = await multipart({
      title: 'Design',
      description: 'About design.',
      category: 'Design',
      createdBy: 'Asha Verma',
      thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
    });
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: course.payload, headers: { ...course.headers, cookie: admin } });
    expect(created.statusCode, created.body).toBe(201);
    const courseId: string = created.json().course._id;
    const before = await counts();
    for (const forgery of FORGERIES) {
      const plan = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/plans',
        payload: { name: `Gold${forgery}GSTIN`, interval: 'monthly', price: 199 },
        headers: { cookie: admin },
      });
      expect(plan.statusCode, JSON.stringify(forgery)).toBe(400);
      expect(plan.json()).toEqual({ success: false, message: answers.planNameNotPlain });

      const retitle = await multipart({ title: `Design${forgery}Pay here` });
      const retitled = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/courses/${courseId}`,
        payload: retitle.payload,
        headers: { ...retitle.headers, cookie: admin },
      });
      expect(retitled.statusCode, JSON.stringify(forgery)).toBe(400);
      expect(retitled.json()).toEqual({ success: false, message: answers.titleNotPlain });

      const lecture = await multipart({
        title: `One${forgery}Two`,
        description: 'Part of it.',
        lectures: { bytes: mp4Video(2000), filename: 'l.mp4', type: 'video/mp4' },
      });
      const added = await t.app.inject({
        method: 'POST',
        url: `/api/v1/courses/${courseId}`,
        payload: lecture.payload,
        headers: { ...lecture.headers, cookie: admin },
      });
      expect(added.statusCode, JSON.stringify(forgery)).toBe(400);
      expect(added.json()).toEqual({ success: false, message: answers.titleNotPlain });
    }
    expect(await counts()).toEqual(before);
    const [row] = await t.database.db.select().from(courses).where(eq(courses.id, courseId));
    expect(row!.title).toBe('Design');
  });
});
