import { expect, newPerson, signUp, test } from './fixtures.ts';
import { CARD_CVC, CARD_EXPIRY, CARDS, exclusively, expectBundleCard, releaseLocks, seriousViolations } from './journeys.ts';

test.afterEach(releaseLocks);
// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

test("the sandbox's Checkout checks the card as it is typed, shows the price on Pay, refuses a bad number and pays with a good one", async ({ page }) => {
  await signUp(page, newPerson('widget'));
  await page.goto('/checkout');
  await expectBundleCard(page);

  // The price as the server states it, not as this test remembers it.
  const key = await page.request.get('/api/v1/payments/razorpay-key');
  expect(key.ok(), await key.text()).toBe(true);
  const { price } = (await key.json()) as { price: number };
  const shown = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: Number.isInteger(price) ? 0 : 2 }).format(price);

  const payCalls: string[] = [];
  page.on('request', (request) => {
    if (/\/sandbox\/v1\/subscriptions\/[^/]+\/pay$/.test(new URL(request.url()).pathname)) payCalls.push(request.url());
  });

  await page.getByRole('button', { name: 'Buy now' }).click();
  const modal = page.getByRole('dialog', { name: 'LMS' });
  await expect(modal).toBeVisible();
  const pay = modal.getByRole('button', { name: `Pay ${shown}`, exact: true });
  await expect(pay).toBeVisible();

  // Typed digit by digit, grouped in fours; the 16th digit fails the Luhn check at once.
  const card = modal.getByLabel('Card number');
  await expect(card).toBeFocused();
  await card.pressSequentially('4111111111111112');
  await expect(card).toHaveValue('4111 1111 1111 1112');
  const luhn = 'This card number is not valid: check the digits.';
  await expect(modal.getByText(luhn)).toBeVisible();
  await expect(card).toHaveAttribute('aria-invalid', 'true');
  await expect(card).toHaveAccessibleDescription(new RegExp(`^${luhn.replace('.', '\\.')}`));

  // The expiry and CVC are checked too; Tab goes card, expiry, CVC, Pay.
  await page.keyboard.press('Tab');
  const expiry = modal.getByLabel('Expiry (MM/YY)');
  await expect(expiry).toBeFocused();
  await expiry.pressSequentially('0120');
  await expect(expiry).toHaveValue('01/20');
  await page.keyboard.press('Tab');
  await expect(modal.getByText('This card has expired.')).toBeVisible();
  await expect(expiry).toHaveAttribute('aria-invalid', 'true');
  const cvc = modal.getByLabel('CVC');
  await expect(cvc).toBeFocused();
  await cvc.pressSequentially('12');
  await page.keyboard.press('Tab');
  await expect(pay).toBeFocused();
  await expect(modal.getByText('Enter the 3 or 4 digit CVC.')).toBeVisible();
  await expiry.fill(CARD_EXPIRY);
  await cvc.fill(CARD_CVC);
  await expect(modal.getByText('This card has expired.')).toHaveCount(0);
  await expect(cvc).toHaveAttribute('aria-invalid', 'false');

  // Pay with the bad number: refused in the dialog, nothing sent, the card number gets the focus.
  await pay.click();
  await expect(card).toBeFocused();
  await expect(modal.getByText(luhn)).toBeVisible();
  await expect(page).toHaveURL(/\/checkout$/);
  expect(payCalls).toEqual([]);
  expect.soft(await seriousViolations(page), 'axe on the Checkout dialog with a refused card').toEqual([]);

  // Mending the last digit clears the message as it is typed.
  await card.press('End');
  await card.press('Backspace');
  await expect(card).toHaveValue('4111 1111 1111 111');
  await card.press('1');
  await expect(card).toHaveValue(CARDS.pays);
  await expect(modal.getByText(luhn)).toHaveCount(0);
  await expect(card).toHaveAttribute('aria-invalid', 'false');

  await exclusively('payments', async () => {
    await pay.click();
    await expect(page).toHaveURL(/\/checkout\/success$/);
  });
  expect(payCalls).toHaveLength(1);
});
