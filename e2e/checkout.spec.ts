import { expect, newPerson, signUp, test } from './fixtures.ts';
import { CARDS, DEMO_COURSE, expectBundleCard, payWithCard, subscriptionOnProfile } from './journeys.ts';

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
