import { expect, newPerson, signUp, test, type Page } from './fixtures.ts';
import { CARDS, DEMO_COURSE, exclusively, expectBundleCard, lectureInList, payWithCard, releaseLocks, seriousViolations, subscriptionOnProfile } from './journeys.ts';

test.afterEach(releaseLocks);
// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

test('a declined card lands on the failure page; trying again leads back to checkout; still not subscribed', async ({ page }) => {
  await signUp(page, newPerson('declined'));
  await page.goto('/checkout');
  await expectBundleCard(page);

  await payWithCard(page, CARDS.declined);
  await expect(page).toHaveURL(/\/checkout\/fail$/);
  await expect(page.getByRole('heading', { name: 'Payment failed' })).toBeVisible();
  await expect(page.getByText('Please try again later')).toBeVisible();
  // Leaving the page closed the sandbox's modal.
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('link', { name: 'Try again' }).click();
  await expectBundleCard(page);
  await expect(page.getByRole('button', { name: 'Buy now' })).toBeEnabled();

  await expect(await subscriptionOnProfile(page)).toHaveText('Inactive');
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);

  // The course still offers the subscription, not the lectures.
  await page.goto('/courses');
  await page.getByRole('button', { name: DEMO_COURSE.title, exact: true }).click();
  await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'watch lectures' })).toHaveCount(0);
});

/** A month after `date` as the server counts it (same day of the month, or the month's last), shown as in India. */
function monthLaterShown(date: Date) {
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  next.setUTCDate(Math.min(date.getUTCDate(), new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate()));
  return new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' }).format(next);
}

/** The end of a period paid for now: a month from today (either side of a midnight passed during the payment). */
async function payNow(page: Page, pay: () => Promise<void>): Promise<RegExp> {
  const before = monthLaterShown(new Date());
  await pay();
  const after = monthLaterShown(new Date());
  return new RegExp(`^(${before}|${after})$`);
}

/** Cancels from the profile, answering yes to the question. */
async function cancelOnProfile(page: Page) {
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel Subscription?' });
  await expect(confirm).toContainText('that payment is refunded in full and your access ends now');
  await expect(confirm).toContainText('you keep access until');
  await confirm.getByRole('button', { name: 'Yes, cancel' }).click();
}

/**
 * The line under the subscription's badge on the profile ("Renews on …", "Cancelled, access until …").
 * The page keeps a date on one line with no-break spaces, which \s matches.
 */
const subscriptionNote = (page: Page, prefix: string) => page.getByText(new RegExp(`^${prefix}\\s\\d{1,2}\\s[A-Z][a-z]{2}\\s\\d{4}$`));
const dateIn = async (note: ReturnType<typeof subscriptionNote>, prefix: string) => (await note.innerText()).replace(/\s+/g, ' ').slice(prefix.length + 1);

test('cancelling: the first time refunds and ends access; the next keeps access to the paid date; resuming renews without paying twice', async ({ page }) => {
  test.setTimeout(240_000);
  await signUp(page, newPerson('resume'));

  // Subscribe and pay: the profile says when it renews.
  await page.goto('/checkout');
  await expectBundleCard(page);
  let periodEnd = await payNow(page, () =>
    exclusively('payments', async () => {
      await payWithCard(page, CARDS.pays);
      await expect(page).toHaveURL(/\/checkout\/success$/);
    }),
  );
  await expect(await subscriptionOnProfile(page)).toHaveText('Active');
  expect(await dateIn(subscriptionNote(page, 'Renews on'), 'Renews on')).toMatch(periodEnd);

  // The first cancellation, inside the refund window: refunded, access ends now (spec §4: home).
  await exclusively('payments', async () => {
    await cancelOnProfile(page);
    await expect(page).toHaveURL(/\/$/);
  });
  await expect(page.getByText('Subscription cancelled. Your last payment has been refunded in full.')).toBeVisible();
  await expect(await subscriptionOnProfile(page)).toHaveText('Inactive');
  await expect(subscriptionNote(page, 'Renews on')).toHaveCount(0);

  // Subscribe and pay again.
  await page.goto('/checkout');
  await expectBundleCard(page);
  periodEnd = await payNow(page, () =>
    exclusively('payments', async () => {
      await payWithCard(page, CARDS.pays);
      await expect(page).toHaveURL(/\/checkout\/success$/);
    }),
  );
  await expect(await subscriptionOnProfile(page)).toHaveText('Active');

  // The second cancellation within 12 months: nothing refunded, access stays to the paid date.
  await exclusively('payments', async () => {
    await cancelOnProfile(page);
    await expect(page.getByRole('status').filter({ hasText: 'A refund was already given in the last 12 months' })).toBeVisible();
  });
  await expect(page).toHaveURL(/\/user\/profile$/);
  const cancelled = subscriptionNote(page, 'Cancelled, access until');
  await expect(cancelled).toBeVisible();
  const accessUntil = await dateIn(cancelled, 'Cancelled, access until');
  expect(accessUntil).toMatch(periodEnd);
  await expect(await subscriptionOnProfile(page)).toHaveText('Active');
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
  expect.soft(await seriousViolations(page), 'axe on the profile of a cancelled subscription').toEqual([]);

  // The lectures still play.
  await page.goto('/courses');
  await page.getByRole('button', { name: DEMO_COURSE.title, exact: true }).click();
  await page.getByRole('button', { name: 'watch lectures' }).click();
  await expect(page).toHaveURL(/\/course\/lecture\?id=/);
  await lectureInList(page, DEMO_COURSE.lectures[1]!).click();
  const video = page.getByLabel(`Lecture 2: ${DEMO_COURSE.lectures[1]}`);
  await expect
    .poll(() => video.evaluate((element: HTMLVideoElement) => ({ error: element.error?.message ?? null, playing: element.currentTime > 1 && !element.paused })), {
      message: 'the lecture plays while access lasts',
      timeout: 15_000,
    })
    .toEqual({ error: null, playing: true });

  // Resume: Checkout only checks the card; nothing is charged until the paid period ends.
  await subscriptionOnProfile(page);
  await page.getByRole('link', { name: 'Resume subscription' }).click();
  await expectBundleCard(page);
  await expect(page.getByRole('note').filter({ hasText: `Nothing is charged until ${accessUntil}.` })).toContainText('Checkout only checks your card now');
  expect.soft(await seriousViolations(page), 'axe on the checkout of a resume').toEqual([]);
  await exclusively('payments', async () => {
    await payWithCard(page, CARDS.pays, 'Resume subscription');
    await expect(page).toHaveURL(/\/checkout\/success$/);
  });
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription resumed' })).toBeVisible();
  await expect(page.getByText(`Nothing is charged until ${accessUntil}`)).toBeVisible();

  // It renews again, from the same date.
  await expect(await subscriptionOnProfile(page)).toHaveText('Active');
  expect(await dateIn(subscriptionNote(page, 'Renews on'), 'Renews on')).toBe(accessUntil);
  await expect(page.getByRole('button', { name: 'Cancel Subscription' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Resume subscription' })).toHaveCount(0);
});
