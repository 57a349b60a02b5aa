import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { certificateCodeForDisplay } from '@lms/contract/certificates';
import { messages } from '@lms/contract/messages';
import { certificates, courses, lectures, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { pdfText } from '../../test/pdf.ts';
import { certificatePdfKey } from '../media/storage.ts';
import { insertQuiz, sampleQuiz } from '../quizzes/test-fixtures.ts';
import { siteOf } from '../settings/site-settings.ts';
import { queueStalledCertificatePdfs, renderCertificatePdf } from './certificate-pdf.ts';
import { issueEarnedCertificate, newCertificateCode } from './certificates.service.ts';

const DAY_MS = 24 * 3600 * 1000;

let t: TestApp;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUpAdmin(t.app);
});
afterAll(() => t?.close());

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: cookie ? { cookie } : {}, ...(payload && { payload }) });

async function newCourse({ title = 'Typography in practice', instructor = 'Meera Iyer', publish = true } = {}): Promise<string> {
  const form = await multipart({
    title,
    description: 'Letters, and how to set them.',
    category: 'Design',
    createdBy: instructor,
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin.cookie } });
  expect(response.statusCode, response.body).toBe(201);
  const id: string = response.json().course._id;
  if (publish) await publishCourseDirectly(t.app.ctx, id);
  return id;
}

async function newLecture(courseId: string, title = 'Lecture'): Promise<string> {
  const form = await multipart({ title, description: 'Part of it.', lectures: { bytes: mp4Video(2000), filename: 'l.mp4', type: 'video/mp4' } });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/courses/${courseId}`,
    payload: form.payload,
    headers: { ...form.headers, cookie: admin.cookie },
  });
  expect(response.statusCode, response.body).toBe(201);
  const id: string = response.json().course.lectures.at(-1)._id;
  await t.app.ctx.db.update(lectures).set({ durationSeconds: 100 }).where(eq(lectures.id, id));
  return id;
}

async function learner(fullName = 'Asha Verma') {
  const account = await signUp(t.app, { fullName });
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * DAY_MS) })
    .where(eq(users.id, account.user._id));
  return account;
}

const mark = async (lectureId: string, cookie: string, completed = true) => {
  const response = await call('PUT', `/progress/lectures/${lectureId}/completed`, cookie, { completed });
  expect(response.statusCode, response.body).toBe(200);
};

/** A save at the end of the video, as the player sends it when it ends. */
const watchToEnd = async (lectureId: string, cookie: string) => {
  const response = await call('POST', `/progress/lectures/${lectureId}`, cookie, { at: Date.now(), position: 100, watched: 100, ended: true });
  expect(response.statusCode, response.body).toBe(200);
};

const rowsOf = (userId: string) => t.app.ctx.db.select().from(certificates).where(eq(certificates.userId, userId));

/** Waits until `check` answers something truthy (jobs run on the app's own queue); fails after a while. */
async function eventually<T>(check: () => Promise<T>, what: string): Promise<NonNullable<T>> {
  for (let i = 0; i < 200; i++) {
    const value = await check();
    if (value) return value;
    await sleep(50);
  }
  throw new Error(`never happened: ${what}`);
}

/** The learner's certificates once every one has its PDF. */
const readyCertificates = (cookie: string) =>
  eventually(async () => {
    const body = (await call('GET', '/certificates', cookie)).json();
    return body.certificates.length > 0 && body.certificates.every((c: { state: string }) => c.state === 'ready') ? body : undefined;
  }, 'certificates ready');

/** A learner who completed every lecture of a new course, with their certificate made. */
async function certified(fullName = 'Asha Verma', course = {}) {
  const account = await learner(fullName);
  const courseId = await newCourse(course);
  const lectureId = await newLecture(courseId);
  await mark(lectureId, account.cookie);
  const {
    certificates: [certificate],
  } = await readyCertificates(account.cookie);
  return { ...account, courseId, certificate };
}

describe('earning a certificate', () => {
  it('is issued once every lecture is completed, by marking or by watching to the end, and never twice', async () => {
    const asha = await learner('Asha Verma');
    const courseId = await newCourse({ title: 'Kerning for everyone', instructor: 'Meera Iyer' });
    const first = await newLecture(courseId, 'One');
    const second = await newLecture(courseId, 'Two');

    await mark(first, asha.cookie);
    await sleep(400);
    expect(await rowsOf(asha.user._id)).toEqual([]);
    const partway = (await call('GET', `/courses/${courseId}/certificate`, asha.cookie)).json();
    expect(partway).toMatchObject({ certificate: null, requirements: { lecturesCompleted: 1, lectures: 2, quizzesPassed: 0, quizzes: 0 } });

    // The last lecture completed by the player reaching its end.
    await watchToEnd(second, asha.cookie);
    const { certificates: mine, name } = await readyCertificates(asha.cookie);
    expect(name).toEqual({ chosen: null, default: 'Asha Verma' });
    expect(mine).toHaveLength(1);
    const site = await siteOf(t.app.ctx);
    expect(mine[0]).toMatchObject({
      courseId,
      name: 'Asha Verma',
      courseTitle: 'Kerning for everyone',
      instructor: 'Meera Iyer',
      issuer: site.name,
      revokedAt: null,
      state: 'ready',
      pdfUrl: `/api/v1/certificates/${mine[0].code}/pdf`,
      verifyUrl: `${t.config.publicUrl}/certificates/${mine[0].code}`,
    });
    expect(mine[0].code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);

    // Completed again (unmarked and marked), and two checks at once: still one.
    await mark(first, asha.cookie, false);
    await mark(first, asha.cookie);
    await Promise.all([
      issueEarnedCertificate(t.app.ctx, { userId: asha.user._id, courseId }),
      issueEarnedCertificate(t.app.ctx, { userId: asha.user._id, courseId }),
    ]);
    await sleep(300);
    const rows = await rowsOf(asha.user._id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code).toBe(mine[0].code);
    const now = (await call('GET', `/courses/${courseId}/certificate`, asha.cookie)).json();
    expect(now.certificate.code).toBe(mine[0].code);
    expect(now.requirements).toEqual({ lecturesCompleted: 2, lectures: 2, quizzesPassed: 0, quizzes: 0 });
  });

  it('is not issued while a lecture is left, nor for a course without lectures', async () => {
    const ravi = await learner('Ravi Kumar');
    const courseId = await newCourse();
    const done = await newLecture(courseId);
    await newLecture(courseId);
    await mark(done, ravi.cookie);
    expect(await issueEarnedCertificate(t.app.ctx, { userId: ravi.user._id, courseId })).toBeNull();
    const empty = await newCourse();
    expect(await issueEarnedCertificate(t.app.ctx, { userId: ravi.user._id, courseId: empty })).toBeNull();
    await sleep(300);
    expect(await rowsOf(ravi.user._id)).toEqual([]);
  });

  it('waits for every quiz to be passed too: a failed attempt earns nothing, the first pass issues it', async () => {
    const asha = await learner('Asha Verma');
    const courseId = await newCourse({ title: 'Grids, tested' });
    const lectureId = await newLecture(courseId);
    const { quizId, version } = await insertQuiz(t, courseId, sampleQuiz(), { afterLectureId: lectureId });
    await mark(lectureId, asha.cookie);
    await sleep(400);
    expect(await rowsOf(asha.user._id)).toEqual([]);
    expect((await call('GET', `/courses/${courseId}/certificate`, asha.cookie)).json()).toMatchObject({
      certificate: null,
      requirements: { lecturesCompleted: 1, lectures: 1, quizzesPassed: 0, quizzes: 1 },
    });

    const take = async (passing: boolean) => {
      const attempt = (await call('POST', `/quizzes/${quizId}/attempts`, asha.cookie)).json().attempt;
      const submitted = passing
        ? version.questions.map((q) =>
            q.type === 'text' ? { questionId: q.id, text: q.answers[0] } : { questionId: q.id, optionIds: q.options.filter((o) => o.correct).map((o) => o.id) },
          )
        : [];
      const graded = await call('POST', `/quizzes/${quizId}/attempts/${attempt._id}/submission`, asha.cookie, { answers: submitted });
      expect(graded.json().attempt.passed, graded.body).toBe(passing);
    };
    await take(false);
    await sleep(400);
    expect(await rowsOf(asha.user._id)).toEqual([]);

    await take(true);
    const { certificates: mine } = await readyCertificates(asha.cookie);
    expect(mine).toMatchObject([{ courseId, courseTitle: 'Grids, tested' }]);
    expect((await call('GET', `/courses/${courseId}/certificate`, asha.cookie)).json().requirements).toEqual({
      lecturesCompleted: 1,
      lectures: 1,
      quizzesPassed: 1,
      quizzes: 1,
    });
  });

  it('is still issued when the course was unpublished after the learner completed it', async () => {
    const asha = await learner();
    const courseId = await newCourse();
    const lectureId = await newLecture(courseId);
    await mark(lectureId, asha.cookie);
    // The job issued it when the course was published; taken away to be issued again now it is not.
    await readyCertificates(asha.cookie);
    await t.app.ctx.db.update(courses).set({ status: 'draft' }).where(eq(courses.id, courseId));
    await t.app.ctx.db.delete(certificates).where(eq(certificates.userId, asha.user._id));
    expect(await issueEarnedCertificate(t.app.ctx, { userId: asha.user._id, courseId })).toMatchObject({ courseId });
  });

  it('answers 404 for the certificate of an unknown course, or a draft to a learner', async () => {
    const asha = await learner();
    const draft = await newCourse({ publish: false });
    expect((await call('GET', `/courses/${draft}/certificate`, asha.cookie)).json()).toMatchObject({ success: false, message: messages.courseNotFound });
    expect((await call('GET', `/courses/${draft}/certificate`, asha.cookie)).statusCode).toBe(404);
    expect((await call('GET', `/courses/00000000-0000-4000-8000-000000000000/certificate`, asha.cookie)).statusCode).toBe(404);
    expect((await call('GET', `/courses/${draft}/certificate`, admin.cookie)).statusCode).toBe(200);
  });

  it('makes codes of 16 characters of Crockford base 32, all different', () => {
    const codes = new Set(Array.from({ length: 2000 }, newCertificateCode));
    expect(codes.size).toBe(2000);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
  });
});

describe('the PDF', () => {
  it('carries the name, the course, its instructor, the issuer, the date, the code and the verify URL, for its learner and administrators', async () => {
    const { cookie, certificate } = await certified('Zoë Fernandes', { title: 'Colour & contrast', instructor: 'Meera Iyer' });
    const download = await call('GET', `/certificates/${certificate.code}/pdf`, cookie);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain(`attachment; filename="certificate-${certificate.code}.pdf"`);
    expect(download.headers['cache-control']).toBe('private, no-store');
    const text = await pdfText(download.rawPayload);
    // The title is letter-spaced: the reader sees a space between its letters.
    expect(text.replace(/\s+/g, '')).toContain('CERTIFICATEOFCOMPLETION');
    for (const words of [
      'Zoë Fernandes',
      'Colour & contrast',
      'Meera Iyer',
      certificate.issuer,
      certificateCodeForDisplay(certificate.code),
      certificate.verifyUrl,
    ])
      expect(text).toContain(words);

    // An administrator may download it; another learner may not; a code nobody has is not found.
    expect((await call('GET', `/certificates/${certificate.code}/pdf`, admin.cookie)).statusCode).toBe(200);
    const other = await learner('Other Learner');
    expect((await call('GET', `/certificates/${certificate.code}/pdf`, other.cookie)).statusCode).toBe(403);
    expect((await call('GET', `/certificates/${newCertificateCode()}/pdf`, cookie)).statusCode).toBe(404);
    expect((await call('GET', `/certificates/${certificate.code}/pdf`)).statusCode).toBe(401);
  });

  it('answers 409 while the PDF is being made', async () => {
    const asha = await learner();
    const courseId = await newCourse();
    const code = newCertificateCode();
    await t.app.ctx.db
      .insert(certificates)
      .values({ code, userId: asha.user._id, courseId, name: 'Asha Verma', courseTitle: 'C', instructor: 'I', issuer: 'S' });
    const response = await call('GET', `/certificates/${code}/pdf`, asha.cookie);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(answers.certificateBeingMade);
    expect((await call('GET', '/certificates', asha.cookie)).json().certificates[0].state).toBe('issuing');
  });

  it('draws the seller’s logo from the settings', async () => {
    const form = await multipart({ logo: { bytes: await pngImage(200, 60), filename: 'logo.png', type: 'image/png' } });
    const put = await t.app.inject({ method: 'PUT', url: '/api/v1/settings/logo', payload: form.payload, headers: { ...form.headers, cookie: admin.cookie } });
    expect(put.statusCode, put.body).toBe(200);
    try {
      const { cookie, certificate } = await certified();
      const bytes = (await call('GET', `/certificates/${certificate.code}/pdf`, cookie)).rawPayload;
      // An image's dictionary is written as text even when its stream is compressed.
      expect(bytes.toString('latin1')).toMatch(/\/Subtype \/Image/);
    } finally {
      await t.app.inject({ method: 'DELETE', url: '/api/v1/settings/logo', headers: { cookie: admin.cookie } });
    }
    const { cookie, certificate } = await certified();
    expect((await call('GET', `/certificates/${certificate.code}/pdf`, cookie)).rawPayload.toString('latin1')).not.toMatch(/\/Subtype \/Image/);
  });

  it('is queued again by the minute’s sweep when its job was lost', async () => {
    const asha = await learner();
    const courseId = await newCourse();
    const code = newCertificateCode();
    // Issued two minutes ago, its job never queued (the process died after the commit).
    await t.app.ctx.db.insert(certificates).values({
      code,
      userId: asha.user._id,
      courseId,
      name: 'Asha Verma',
      courseTitle: 'C',
      instructor: 'I',
      issuer: 'S',
      issuedAt: new Date(Date.now() - 120_000),
    });
    expect(await queueStalledCertificatePdfs(t.app.ctx)).toBeGreaterThanOrEqual(1);
    const { certificates: mine } = await readyCertificates(asha.cookie);
    expect(mine[0].code).toBe(code);
  });

  it('renders a long name smaller, wrapped rather than cut, and the code in groups of four', async () => {
    const name = 'Anantharamakrishnan Venkatasubramanian Ramachandran Iyer';
    const bytes = await renderCertificatePdf({
      certificate: { code: 'ABCD0123EFGH4567', name, courseTitle: 'A course', instructor: 'I', issuer: 'S', issuedAt: new Date('2026-11-27T06:00:00Z') },
      verifyUrl: 'https://learn.example/certificates/ABCD0123EFGH4567',
      compress: false,
    });
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    expect(text).toContain(name);
    expect(text).toContain('ABCD-0123-EFGH-4567');
    expect(text).toContain('27 November 2026');
  });
});

describe('the name on certificates', () => {
  it('is chosen once; the certificates carry it and their PDF is made again, the old file removed', async () => {
    const { cookie, certificate, user } = await certified('Asha Verma');
    const [before] = await rowsOf(user._id);
    expect(before!.pdfKey).toBe(certificatePdfKey(before!.id, 'Asha Verma'));

    const chosen = await call('PUT', '/certificates/name', cookie, { name: '  Asha K. Verma ' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ message: answers.certificateNameChosen, name: { chosen: 'Asha K. Verma', default: 'Asha Verma' } });
    expect(chosen.json().certificates[0]).toMatchObject({ code: certificate.code, name: 'Asha K. Verma' });

    const again = await call('PUT', '/certificates/name', cookie, { name: 'Someone Else' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(answers.certificateNameAlreadyChosen);
    expect((await call('PUT', '/certificates/name', cookie, { name: 'x' })).statusCode).toBe(400);

    const after = await eventually(async () => {
      const [row] = await rowsOf(user._id);
      return row!.pdfKey === certificatePdfKey(row!.id, 'Asha K. Verma') ? row : undefined;
    }, 'the PDF made again');
    await eventually(async () => (await t.app.ctx.media.stat(before!.pdfKey!)) === undefined, 'the old PDF removed');
    expect(await t.app.ctx.media.stat(after.pdfKey!)).toBeDefined();
    const text = await pdfText((await call('GET', `/certificates/${certificate.code}/pdf`, cookie)).rawPayload);
    expect(text).toContain('Asha K. Verma');
    // The verify page shows it too.
    expect((await call('GET', `/certificates/${certificate.code}`)).json().certificate.name).toBe('Asha K. Verma');
  });

  it('is printed on certificates earned after it was chosen', async () => {
    const asha = await learner('Asha Verma');
    expect((await call('PUT', '/certificates/name', asha.cookie, { name: 'Dr. Asha Verma' })).statusCode).toBe(200);
    const courseId = await newCourse();
    await mark(await newLecture(courseId), asha.cookie);
    const { certificates: mine } = await readyCertificates(asha.cookie);
    expect(mine[0].name).toBe('Dr. Asha Verma');
  });
});

describe('verifying a certificate', () => {
  it('shows a valid one, typed in any case with dashes, without the learner’s email or ids', async () => {
    const { certificate, email } = await certified('Kiran Rao');
    const typed = certificateCodeForDisplay(certificate.code).toLowerCase();
    const response = await call('GET', `/certificates/${typed}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: answers.certificateVerified,
      certificate: {
        code: certificate.code,
        name: 'Kiran Rao',
        courseTitle: certificate.courseTitle,
        instructor: certificate.instructor,
        issuer: certificate.issuer,
        issuedAt: certificate.issuedAt,
        revokedAt: null,
      },
    });
    expect(response.body).not.toContain(email);
    expect(response.body).not.toContain(certificate._id);
  });

  it('answers 404 for an unknown code, an altered one and one that cannot be a code', async () => {
    const { certificate } = await certified();
    const code: string = certificate.code;
    const altered = code.slice(0, 5) + (code[5] === 'A' ? 'B' : 'A') + code.slice(6);
    for (const text of [newCertificateCode(), altered, code.slice(1), 'not-a-code', 'U'.repeat(16)]) {
      const response = await call('GET', `/certificates/${text}`);
      expect(response.statusCode, text).toBe(404);
      expect(response.json()).toEqual({ success: false, message: answers.certificateNotFound });
    }
  });

  it('shows a revoked one as revoked with the date; restored, valid again', async () => {
    const { certificate } = await certified();
    const revoked = await call('PUT', `/admin/certificates/${certificate.code}/revocation`, admin.cookie, { revoked: true });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().message).toBe(answers.certificateRevocation(true));
    const revokedAt = revoked.json().certificate.revokedAt;
    expect(Date.parse(revokedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await call('GET', `/certificates/${certificate.code}`)).json().certificate.revokedAt).toBe(revokedAt);
    // Revoking again keeps the first date.
    expect((await call('PUT', `/admin/certificates/${certificate.code}/revocation`, admin.cookie, { revoked: true })).json().certificate.revokedAt).toBe(
      revokedAt,
    );

    const restored = await call('PUT', `/admin/certificates/${certificate.code}/revocation`, admin.cookie, { revoked: false });
    expect(restored.json()).toMatchObject({ message: answers.certificateRevocation(false), certificate: { revokedAt: null } });
    expect((await call('GET', `/certificates/${certificate.code}`)).json().certificate.revokedAt).toBeNull();
    expect((await call('PUT', `/admin/certificates/${newCertificateCode()}/revocation`, admin.cookie, { revoked: true })).statusCode).toBe(404);
  });
});

describe('sharing', () => {
  it('links to LinkedIn’s add-to-profile form with the certificate’s fields, every value encoded', async () => {
    const { certificate } = await certified('Asha Verma', { title: 'Grids & layout: 101?' });
    const url = new URL(certificate.linkedInUrl);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.linkedin.com/profile/add');
    const issued = new Date(certificate.issuedAt);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'Grids & layout: 101?',
      organizationName: certificate.issuer,
      issueYear: String(issued.getUTCFullYear()),
      issueMonth: String(issued.getUTCMonth() + 1),
      certUrl: certificate.verifyUrl,
      certId: certificate.code,
    });
    expect(certificate.linkedInUrl).toContain('name=Grids%20%26%20layout%3A%20101%3F');
  });
});

describe('administration', () => {
  it('issues by hand to an account by email: 404 for an unknown email or course, 409 for a second', async () => {
    const ravi = await learner('Ravi Kumar');
    const courseId = await newCourse({ title: 'Hand-issued' });
    const unknownEmail = await call('POST', '/admin/certificates', admin.cookie, { email: 'nobody@example.com', courseId });
    expect(unknownEmail.statusCode).toBe(404);
    expect(unknownEmail.json().message).toBe(answers.certificateLearnerNotFound);
    const unknownCourse = await call('POST', '/admin/certificates', admin.cookie, { email: ravi.email, courseId: '00000000-0000-4000-8000-000000000000' });
    expect(unknownCourse.statusCode).toBe(404);

    const issued = await call('POST', '/admin/certificates', admin.cookie, { email: ravi.email.toUpperCase(), courseId });
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json()).toMatchObject({
      message: answers.certificateIssued,
      certificate: { courseId, name: 'Ravi Kumar', courseTitle: 'Hand-issued', issuedBy: admin.fullName, learner: { _id: ravi.user._id, email: ravi.email } },
    });
    const again = await call('POST', '/admin/certificates', admin.cookie, { email: ravi.email, courseId });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(answers.certificateExists);
    const { certificates: mine } = await readyCertificates(ravi.cookie);
    expect(mine).toHaveLength(1);
  });

  it('lists certificates newest first, a page at a time, one course’s on asking', async () => {
    const courseId = await newCourse({ title: 'Listed' });
    const lectureId = await newLecture(courseId);
    const learners = [await learner('First Learner'), await learner('Second Learner')];
    for (const account of learners) {
      await mark(lectureId, account.cookie);
      await readyCertificates(account.cookie);
    }
    const forCourse = (await call('GET', `/admin/certificates?courseId=${courseId}`, admin.cookie)).json();
    expect(forCourse.total).toBe(2);
    expect(forCourse.certificates.map((c: { learner: { fullName: string } }) => c.learner.fullName)).toEqual(['Second Learner', 'First Learner']);
    expect(forCourse.certificates[0]).toMatchObject({ issuedBy: null, state: 'ready', learner: { email: learners[1]!.email } });

    const all = (await call('GET', '/admin/certificates?limit=1&page=2', admin.cookie)).json();
    expect(all.certificates).toHaveLength(1);
    expect(all.total).toBeGreaterThan(2);
    expect(all.certificates[0].code).toBe(forCourse.certificates[1].code);
  });

  it('exports a CSV, quoted as RFC 4180 and with no cell a spreadsheet would run', async () => {
    const { certificate, email } = await certified('Plain Name', { title: 'Exported, "quoted"', instructor: '=HYPERLINK("http://evil")' });
    await t.app.ctx.db.update(certificates).set({ name: '+SUM(1,2)' }).where(eq(certificates.code, certificate.code));
    const response = await call('GET', `/admin/certificates/export?courseId=${certificate.courseId}`, admin.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="certificates-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('Code,Name,Email,Course,Instructor,Issued at,Issued by,Revoked at');
    expect(lines[1]).toBe(
      `${certificateCodeForDisplay(certificate.code)},"'+SUM(1,2)",${email},"Exported, ""quoted""","'=HYPERLINK(""http://evil"")",${certificate.issuedAt},,`,
    );
    expect(lines).toHaveLength(3);
  });

  it('is for administrators only', async () => {
    const asha = await learner();
    for (const [method, url, payload] of [
      ['GET', '/admin/certificates'],
      ['POST', '/admin/certificates', { email: asha.email, courseId: '00000000-0000-4000-8000-000000000000' }],
      ['PUT', `/admin/certificates/${newCertificateCode()}/revocation`, { revoked: true }],
      ['GET', '/admin/certificates/export'],
    ] as [Method, string, object?][]) {
      expect((await call(method, url, asha.cookie, payload)).statusCode, url).toBe(403);
      expect((await call(method, url, undefined, payload)).statusCode, url).toBe(401);
    }
    expect((await call('GET', '/certificates')).statusCode).toBe(401);
  });
});
