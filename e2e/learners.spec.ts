import { adminCredentials, expect, logInAs, newPerson, signUp, test } from './fixtures.ts';
import { CARDS, createCourseWithLectures, exclusively, lectureInList, payWithCard, publishCourse, releaseLocks, seriousViolations } from './journeys.ts';

test.afterEach(releaseLocks);

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

const LECTURE = 'Reading a balance sheet';

test('learners: the admin finds a learner, grants 30 days and the learner watches; revokes and the learner is refused; refunds their payment and their billing shows the credit note', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const { email, password } = adminCredentials();
  await logInAs(page, email, password);
  const { courseId } = await createCourseWithLectures(
    page.request,
    { title: `Accounts ${newPerson('c').fullName}`, category: 'Finance', createdBy: 'Anita Desai', description: 'Assets, liabilities and equity.' },
    [{ title: LECTURE, description: 'Both sides of the sheet.' }],
  );
  await publishCourse(page.request, courseId);

  const person = newPerson('scholar');
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await signUp(learner, person);
  const lectures = `/course/lecture?id=${courseId}`;
  await learner.goto(lectures);
  await expect(learner.getByRole('alert')).toContainText('Subscribe to watch the lectures of this course');

  // The admin finds them by a part of their email, in any case, and opens their page.
  await page.goto('/admin/dashboard');
  await page.getByRole('link', { name: 'Learners', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/learners/);
  await page.getByRole('searchbox', { name: 'Search by name or email' }).fill(person.email.split('@')[0]!.slice(2).toUpperCase());
  // The search reaches the address once typing pauses: the learner is opened from its results.
  await expect(page).toHaveURL(/[?&]q=/);
  await page
    .getByRole('link', { name: `Open ${person.fullName}’s page` })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: person.fullName })).toBeVisible();
  await expect(page.getByText('No access', { exact: true })).toBeVisible();

  // 30 days of complimentary access, with a note.
  await page.getByRole('button', { name: 'Grant access' }).click();
  const grant = page.getByRole('dialog', { name: `Grant ${person.fullName} complimentary access` });
  await expect(grant.getByRole('spinbutton', { name: 'Days' })).toHaveValue('30');
  await grant.getByLabel('Note').fill('Scholarship');
  await grant.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(grant).toBeHidden();
  await expect(page.getByText(/^Complimentary until /)).toBeVisible();

  // The learner watches, and their profile says why.
  await learner.goto(lectures);
  await expect(lectureInList(learner, LECTURE)).toBeVisible();
  await learner.goto('/user/profile');
  await expect(learner.getByText(/Complimentary access until /)).toBeVisible();

  // Revoked: refused at once.
  await page.getByRole('button', { name: 'Revoke access' }).click();
  const revoke = page.getByRole('dialog', { name: `Revoke ${person.fullName}’s complimentary access?` });
  await revoke.getByLabel('Note').fill('Scholarship withdrawn');
  await revoke.getByRole('button', { name: 'Revoke access' }).click();
  await expect(revoke).toBeHidden();
  await expect(page.getByText('No access', { exact: true })).toBeVisible();
  await learner.goto(lectures);
  await expect(learner.getByRole('alert')).toContainText('Subscribe to watch the lectures of this course');

  // The learner subscribes; the admin refunds the payment in full, access ending now.
  await learner.goto('/checkout');
  await exclusively('payments', async () => {
    await payWithCard(learner, CARDS.pays);
    await expect(learner).toHaveURL(/\/checkout\/success$/);
  });
  await page.reload();
  await expect(page.getByText(/^Subscribed until /)).toBeVisible();
  const payments = page.getByRole('region', { name: 'Payments' });
  // With a payment, its documents and its actions: checked as the empty page is (e2e/a11y-courses.spec.ts).
  await expect(payments.getByRole('button', { name: /^Resend invoice / })).toBeVisible({ timeout: 30_000 });
  expect(await seriousViolations(page), 'axe on a learner page with a payment').toEqual([]);
  await payments.getByRole('button', { name: /^Refund / }).click();
  const refund = page.getByRole('dialog', { name: 'Refund a payment' });
  await expect(refund.getByLabel('Amount (₹)')).toHaveValue('99');
  expect(await seriousViolations(page), 'axe on the refund dialog').toEqual([]);
  await refund.getByRole('radio', { name: 'Now' }).check();
  await refund.getByLabel('Note').fill('Charged twice by mistake');
  await exclusively('payments', async () => {
    await refund.getByRole('button', { name: 'Refund', exact: true }).click();
    await expect(refund).toBeHidden();
  });
  await expect(payments.getByText('Refunded', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('No access', { exact: true })).toBeVisible();

  // The learner's billing shows the credit note, and the lectures are closed again.
  await learner.goto('/user/profile');
  await expect(learner.getByRole('link', { name: /^Download credit note CN\/\d{2}-\d{2}\/\d{6} \(PDF\)$/ })).toBeVisible({ timeout: 30_000 });
  await learner.goto(lectures);
  await expect(learner.getByRole('alert')).toContainText('Subscribe to watch the lectures of this course');

  // The learner's activity shows each action with the administrator's note.
  await page.getByRole('link', { name: 'All activity' }).click();
  await expect(page).toHaveURL(/\/admin\/activity\?.*targetId=/);
  for (const [action, note] of [
    ['Granted complimentary access', 'Scholarship'],
    ['Revoked complimentary access', 'Scholarship withdrawn'],
  ])
    await expect(page.getByRole('row').filter({ hasText: action }).filter({ hasText: note })).toHaveCount(1);
  // The refund's entry is about the payment, so the whole trail shows it.
  await page.goto('/admin/activity');
  await expect(page.getByRole('row').filter({ hasText: 'Refunded payment' }).filter({ hasText: 'Charged twice by mistake' }).first()).toBeVisible();
  await learnerContext.close();
});
