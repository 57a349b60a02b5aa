import { expect, newPerson, pngFile, registerByApi, signUp, test, type Page } from './fixtures.ts';
import {
  CARDS,
  DEMO_COURSE,
  courseIdByTitle,
  exclusively,
  expectBundleCard,
  horizontalOverflow,
  payWithCard,
  releaseLocks,
  seriousViolations,
} from './journeys.ts';

test.afterEach(releaseLocks);
// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

/** The course page's Subscribe, a button or a link. */
const subscribeOn = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('button', { name: 'Subscribe', exact: true })
    .or(page.getByRole('main').getByRole('link', { name: 'Subscribe', exact: true }))
    .first();

/** The address's `next` (where the login or signup comes back to), decoded. */
const nextOf = (page: Page) => new URL(page.url()).searchParams.get('next');

test('a visitor opens a shared course link, clicks Subscribe, signs up, and lands on the checkout', async ({ page, baseURL }) => {
  const id = await courseIdByTitle(baseURL!, DEMO_COURSE.title);
  await page.goto(`/course/description?id=${id}`);
  await expect(page.getByRole('heading', { level: 1, name: DEMO_COURSE.title })).toBeVisible();

  // The checkout carries the course it was reached from, through the login and the signup.
  const checkout = `/checkout?from=${encodeURIComponent(`/course/description?id=${id}`)}`;
  await subscribeOn(page).click();
  await expect(page).toHaveURL(/\/login\?next=/);
  expect(nextOf(page)).toBe(checkout);
  await expect(page.getByRole('main').getByRole('note')).toContainText('you come straight back to the checkout');
  await page.getByRole('link', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/Signup\?next=/);
  expect(nextOf(page)).toBe(checkout);

  const person = newPerson('return');
  await page.getByLabel('Profile picture').setInputFiles(pngFile('avatar.png', [30, 120, 200]));
  await page.getByLabel('Full name').fill(person.fullName);
  await page.getByLabel(/^email/i).fill(person.email);
  await page.getByLabel(/^password/i).fill(person.password);
  await page.getByRole('button', { name: 'Create account' }).click();

  await expectBundleCard(page);
  await expect(page.getByRole('button', { name: 'Buy now' })).toBeEnabled();
  // The login and signup forms took each other's place: Back returns to the course.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/course/description\\?id=${id}$`));
});

test('"Go to dashboard" after paying returns to the course whose Subscribe led to the checkout', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const id = await courseIdByTitle(baseURL!, DEMO_COURSE.title);
  await signUp(page, newPerson('dashboard'));
  await page.goto(`/course/description?id=${id}`);
  await subscribeOn(page).click();
  await expectBundleCard(page);
  await exclusively('payments', async () => {
    await payWithCard(page, CARDS.pays);
    await expect(page).toHaveURL(/\/checkout\/success$/);
  });
  await expect(page.getByRole('heading', { level: 1, name: 'Payment successful' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to dashboard' }).click();
  await expect(page).toHaveURL(new RegExp(`/course/description\\?id=${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: DEMO_COURSE.title })).toBeVisible();
  // Now a subscriber, the course offers its lectures.
  await expect(page.getByRole('button', { name: 'watch lectures' })).toBeVisible();
});

test('a checkout address naming a page off the site returns home after paying', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newPerson('offsite'));
  await page.goto(`/checkout?from=${encodeURIComponent('//evil.example/course')}`);
  await expect(page.getByRole('article', { name: 'Subscription Bundle' })).toBeVisible();
  await exclusively('payments', async () => {
    await payWithCard(page, CARDS.pays);
    await expect(page).toHaveURL(/\/checkout\/success$/);
  });
  await page.getByRole('link', { name: 'Go to dashboard' }).click();
  await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('logging in instead also comes back to the checkout', async ({ page, request }) => {
  const person = newPerson('returnlogin');
  await registerByApi(request, person);
  await page.goto('/checkout');
  await expect(page).toHaveURL(/\/login\?next=%2Fcheckout$/);
  await page.getByLabel(/^email/i).fill(person.email);
  await page.getByLabel(/^password/i).fill(person.password);
  await page.getByRole('button', { name: /^log ?in$/i }).click();
  await expectBundleCard(page);
});

test('a login link carrying an address off the site goes home instead', async ({ page, request }) => {
  const person = newPerson('openredirect');
  await registerByApi(request, person);
  for (const next of ['https://evil.example/checkout', '//evil.example/checkout', '/\\evil.example']) {
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear()).catch(() => undefined);
    await page.goto(`/login?next=${encodeURIComponent(next)}`);
    await page.getByLabel(/^email/i).fill(person.email);
    await page.getByLabel(/^password/i).fill(person.password);
    await page.getByRole('button', { name: /^log ?in$/i }).click();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  }
});

test('/checkout/success opened directly shows no success: a visitor goes home, a signed-in user to the checkout', async ({ page }) => {
  await page.goto('/checkout/success');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toHaveCount(0);

  await signUp(page, newPerson('directsuccess'));
  await page.goto('/checkout/success');
  await expectBundleCard(page);
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toHaveCount(0);
});

test('after a failed and then a good payment, Back never shows "Payment failed"; a subscriber then sees "You’re subscribed"', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newPerson('back'));
  await page.goto('/courses');
  await page.goto('/checkout');
  await expectBundleCard(page);

  await exclusively('payments', async () => {
    await payWithCard(page, CARDS.declined);
    await expect(page).toHaveURL(/\/checkout\/fail$/);
    await page.getByRole('link', { name: 'Try again' }).click();
    await expectBundleCard(page);
    await payWithCard(page, CARDS.pays);
    await expect(page).toHaveURL(/\/checkout\/success$/);
  });
  await expect(page.getByRole('heading', { level: 1, name: 'Payment successful' })).toBeVisible();
  expect.soft(await seriousViolations(page), 'axe on /checkout/success (light, desktop)').toEqual([]);
  // A reload of the result still shows it (the entry remembers the payment).
  await page.setViewportSize({ width: 360, height: 740 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Payment successful' })).toBeVisible();
  expect.soft(await horizontalOverflow(page), 'sideways scrolling on /checkout/success at 360 px').toEqual([]);
  expect.soft(await seriousViolations(page), 'axe on /checkout/success (dark, 360 px)').toEqual([]);

  // Back: the page before the checkout, neither the failure nor a checkout asking to pay again.
  await page.goBack();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.getByText('Payment failed')).toHaveCount(0);

  // The subscriber opens the checkout again: told so, with the renewal date and the way to the courses.
  await page.goto('/checkout');
  await expect(page.getByRole('heading', { level: 1, name: 'You’re subscribed' })).toBeVisible();
  await expect(page.getByText(/^Renews on \d{1,2}\s[A-Z][a-z]{2}\s\d{4}$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Buy now' })).toHaveCount(0);
  await expect(page.getByText('You already have an active subscription')).toHaveCount(0);
  expect.soft(await seriousViolations(page), 'axe on the subscribed checkout (dark, 360 px)').toEqual([]);
  expect.soft(await horizontalOverflow(page), 'sideways scrolling on the subscribed checkout at 360 px').toEqual([]);
  await page.getByRole('link', { name: 'Browse the courses' }).click();
  await expect(page).toHaveURL(/\/courses$/);
});
