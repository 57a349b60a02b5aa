import fs from 'node:fs/promises';
import { pdfText } from '../server/src/test/pdf.ts';
import { adminCredentials, expect, logInAs, newPerson, signUp, test } from './fixtures.ts';
import { CARDS, createCourseWithLectures, exclusively, lectureInList, payWithCard, publishCourse, releaseLocks } from './journeys.ts';

test.afterEach(releaseLocks);

const LECTURES = ['Opening the books', 'Closing the books'];

test('certificates: a subscriber completes every lecture and downloads the certificate, whose text has their name, the course and its code; a visitor verifies it, an altered code is not found, and the admin sees it issued and revokes it', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const { email, password } = adminCredentials();
  await logInAs(page, email, password);
  const title = `Bookkeeping ${newPerson('k').fullName}`;
  const { courseId } = await createCourseWithLectures(
    page.request,
    { title, category: 'Finance', createdBy: 'Anita Desai', description: 'A short course that ends with a certificate.' },
    LECTURES.map((lecture) => ({ title: lecture, description: 'Debits and credits.' })),
  );
  await publishCourse(page.request, courseId);

  // A subscriber marks every lecture completed.
  const person = newPerson('certified');
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await signUp(learner, person);
  await learner.goto('/checkout');
  await exclusively('payments', async () => {
    await payWithCard(learner, CARDS.pays);
    await expect(learner).toHaveURL(/\/checkout\/success$/);
  });
  await learner.goto(`/course/lecture?id=${courseId}`);
  for (const lecture of LECTURES) {
    await lectureInList(learner, lecture).click();
    await learner.getByRole('button', { name: 'Mark as completed' }).click();
    await expect(learner.getByRole('button', { name: 'Completed · Undo' })).toBeVisible();
  }

  // The course page says the certificate is earned; the profile lists it, and its PDF downloads.
  await expect(learner.getByText('You earned a certificate')).toBeVisible({ timeout: 30_000 });
  await learner.goto('/user/profile');
  const card = learner.getByRole('region', { name: 'Certificates' });
  await expect(card.getByRole('heading', { name: title })).toBeVisible();
  const downloadButton = card.getByRole('link', { name: /^Download PDF/ });
  await expect(downloadButton).toBeVisible({ timeout: 30_000 });
  const download = learner.waitForEvent('download');
  await downloadButton.click();
  const file = await download;
  const text = await pdfText(await fs.readFile(await file.path()));
  const mine = (await (await learner.request.get('/api/v1/certificates')).json()) as { certificates: { code: string; verifyUrl: string }[] };
  const { code, verifyUrl } = mine.certificates[0]!;
  const printed = `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}-${code.slice(12)}`;
  expect(text).toContain(person.fullName);
  expect(text).toContain(title);
  expect(text).toContain(printed);

  // A visitor, logged out, verifies it from the shared link; one character changed is not found.
  const visitor = await (await browser.newContext()).newPage();
  const shown = await visitor.goto(new URL(verifyUrl).pathname);
  expect(shown?.status()).toBe(200);
  await expect(visitor.getByText('Valid certificate')).toBeVisible();
  await expect(visitor.getByText(person.fullName)).toBeVisible();
  await expect(visitor.getByText(title)).toBeVisible();
  const altered = `${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}`;
  const missing = await visitor.goto(`/certificates/${altered}`);
  expect(missing?.status()).toBe(404);
  await expect(visitor.getByText('Certificate not found')).toBeVisible();

  // The admin sees it issued, and revokes it: the public page then says so.
  await page.goto('/admin/certificates');
  // At this width the certificates are a table (cards on narrower screens).
  const issued = page.getByRole('table', { name: 'Certificates issued' });
  await expect(issued.getByText(person.email)).toBeVisible();
  await issued.getByRole('button', { name: `Revoke the certificate of ${person.fullName} for ${title}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(issued.getByRole('button', { name: `Restore the certificate of ${person.fullName} for ${title}` })).toBeVisible();
  await visitor.goto(new URL(verifyUrl).pathname);
  await expect(visitor.getByText(/Revoked on/)).toBeVisible();

  await learnerContext.close();
  await page.request.delete(`/api/v1/courses/${courseId}`);
});
