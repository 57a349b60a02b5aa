import { expect, newPerson, signUp, test } from './fixtures.ts';
import { CARDS, DEMO_COURSE, exclusively, expectBundleCard, lectureInList, payWithCard, releaseLocks, subscriptionOnProfile } from './journeys.ts';

test.afterEach(releaseLocks);

test('a visitor subscribes, watches a lecture play, cancels and is refused the lectures again', async ({ page }) => {
  test.setTimeout(120_000);

  // The catalogue, as a visitor.
  await page.goto('/courses');
  const card = page.getByRole('button', { name: DEMO_COURSE.title, exact: true });
  await expect(card).toBeVisible();
  await expect(page.getByRole('button', { name: 'UI Design Fundamentals', exact: true })).toBeVisible();
  await card.click();
  await expect(page).toHaveURL(/\/course\/description\?id=/);
  await expect(page.getByRole('heading', { level: 1, name: DEMO_COURSE.title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'watch lectures' })).toHaveCount(0);
  const descriptionUrl = page.url();

  // A new account is not subscribed either.
  await signUp(page, newPerson('subscriber'));
  await page.goto(descriptionUrl);
  await expect(page.getByRole('heading', { level: 1, name: DEMO_COURSE.title })).toBeVisible();
  await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
  await expectBundleCard(page);

  await exclusively('payments', async () => {
    await payWithCard(page, CARDS.pays);
    await expect(page).toHaveURL(/\/checkout\/success$/);
  });
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  // Back to the course whose Subscribe led to the checkout.
  await page.getByRole('link', { name: 'Go to dashboard' }).click();
  await expect(page).toHaveURL(descriptionUrl);

  // Subscribed: the course now offers its lectures, and selecting one plays it.
  await page.goto(descriptionUrl);
  await page.getByRole('button', { name: 'watch lectures' }).click();
  await expect(page).toHaveURL(/\/course\/lecture\?id=/);
  const lectureUrl = page.url();
  for (const title of DEMO_COURSE.lectures) await expect(lectureInList(page, title)).toBeVisible();
  await expect(page.getByLabel(`Lecture 1: ${DEMO_COURSE.lectures[0]}`)).toBeVisible();

  await lectureInList(page, DEMO_COURSE.lectures[1]!).click();
  const video = page.getByLabel(`Lecture 2: ${DEMO_COURSE.lectures[1]}`);
  await expect(video).toBeVisible();
  await expect
    .poll(
      () => video.evaluate((element: HTMLVideoElement) => ({ error: element.error?.message ?? null, playing: element.currentTime > 1 && !element.paused })),
      {
        message: 'the selected lecture plays',
        timeout: 15_000,
      },
    )
    .toEqual({ error: null, playing: true });
  expect(await video.evaluate((element: HTMLVideoElement) => element.videoWidth)).toBe(640);

  await expect(await subscriptionOnProfile(page)).toHaveText('Active');

  // Cancelling ends access at once.
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel Subscription?' });
  await expect(confirm).toBeVisible();
  await exclusively('payments', async () => {
    await confirm.getByRole('button', { name: 'Yes, cancel' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
  await expect(await subscriptionOnProfile(page)).toHaveText('Inactive');
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);

  await page.goto(lectureUrl);
  const refusal = page.getByRole('alert').filter({ hasText: 'Subscribe to watch the lectures of this course' });
  await expect(refusal).toBeVisible();
  await expect(lectureInList(page, DEMO_COURSE.lectures[0]!)).toHaveCount(0);
  await expect(page.locator('video')).toHaveCount(0);
  await refusal.getByRole('link', { name: 'Subscribe' }).click();
  // The bundle's card with its price (the checkout's summary shows the price too, once it has loaded).
  await expectBundleCard(page);
});
