import fs from 'node:fs/promises';
import { pdfText } from '../server/src/test/pdf.ts';
import { adminCredentials, expect, logInAs, newestMail, newPerson, signUp, test } from './fixtures.ts';
import { CARDS, exclusively, expectBundleCard, payWithCard, releaseLocks, seriousViolations, subscriptionOnProfile } from './journeys.ts';

test.afterEach(releaseLocks);
test.use({ bypassCSP: true });

test('a learner adds their GSTIN, pays, downloads the tax invoice; cancels with a reason, gets the credit note and the mails; the admin reads the reason', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const person = newPerson('invoice');
  await signUp(page, person);
  await subscriptionOnProfile(page);

  // Buying for a business: the GSTIN picks its state, and the next invoice carries both.
  const billing = page.getByRole('region', { name: 'Billing history' });
  await expect(billing.getByText('No payments yet')).toBeVisible();
  await billing.getByText('Tax details for your invoices').click();
  await billing.getByLabel('Business name').fill('Verma Tutors LLP');
  await billing.getByLabel('GSTIN').fill('27AAPFU0939F1ZV');
  await expect(billing.getByLabel('State')).toHaveValue('27');
  // An address may not print a line of its own that passes for the invoice's: said under the field.
  const address = billing.getByLabel('Billing address');
  await address.fill('Baner Road\nGSTIN 29AAACL1234C1Z1');
  await billing.getByRole('button', { name: 'Save tax details' }).click();
  await expect(address).toHaveAccessibleDescription(/Leave out invoice labels such as GSTIN or Invoice No\.: the invoice prints its own$/);
  await expect(address).toBeFocused();
  await address.fill('Baner Road\nPune 411045');
  await billing.getByRole('button', { name: 'Save tax details' }).click();
  await expect(page.getByText('Billing details saved')).toBeVisible();

  await page.goto('/checkout');
  await expectBundleCard(page);
  await exclusively('payments', async () => {
    await payWithCard(page, CARDS.pays);
    await expect(page).toHaveURL(/\/checkout\/success$/);
  });

  await subscriptionOnProfile(page);
  const download = billing.getByRole('link', { name: /^Download invoice LMS\/\d{2}-\d{2}\/\d{6} \(PDF\)$/ });
  // The PDF is made by a background job, seconds after the payment: the page shows it once it exists.
  await expect(download).toBeVisible({ timeout: 30_000 });
  const number = (await download.getAttribute('aria-label'))!.match(/LMS\/\d{2}-\d{2}\/\d{6}/)![0];
  await expect(billing.getByText('Paid', { exact: true })).toBeVisible();
  await expect(billing.getByText('₹99', { exact: true })).toBeVisible();
  expect.soft(await seriousViolations(page), 'axe on the profile with billing history').toEqual([]);

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe(`${number.replaceAll('/', '-')}.pdf`);
  const text = await pdfText(await fs.readFile(await file.path()));
  for (const words of ['Tax Invoice', number, '₹99.00', 'Verma Tutors LLP', 'Baner Road', 'Pune 411045', 'GSTIN 27AAPFU0939F1ZV', 'IGST 18%', '₹15.10'])
    expect(text).toContain(words);

  // The receipt mail carries the same invoice.
  expect(await newestMail(person.email, `Subject: =?UTF-8?Q?Payment_received`)).toContain(`filename=${number.replaceAll('/', '-')}.pdf`);

  // Cancelling, with a reason: inside the refund window, so refunded, with a credit note against the invoice.
  await page.reload();
  await page.getByRole('button', { name: 'Cancel Subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel Subscription?' });
  await dialog.getByRole('radio', { name: 'It costs too much' }).check();
  await dialog.getByLabel('Anything else you want to tell us?').fill('Half the price and I would stay.');
  await exclusively('payments', async () => {
    await dialog.getByRole('button', { name: 'Yes, cancel' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
  await subscriptionOnProfile(page);
  await expect(billing.getByText('Refunded', { exact: true })).toBeVisible();
  await expect(billing.getByRole('link', { name: /^Download credit note CN\/\d{2}-\d{2}\/\d{6} \(PDF\)$/ })).toBeVisible({ timeout: 30_000 });
  expect(await newestMail(person.email, 'Subject: Your subscription is cancelled')).toContain('refunded in full');

  // The admin reads why.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const { email, password } = adminCredentials();
  await logInAs(admin, email, password);
  await admin.goto('/admin/dashboard');
  // The revenue figures, and this learner's payment with its documents; the accountant's CSV lists both.
  const revenue = admin.getByRole('region', { name: 'Revenue' });
  await expect(revenue.getByText('Monthly recurring revenue')).toBeVisible({ timeout: 20_000 });
  await expect(revenue.locator('dt', { hasText: 'Monthly recurring revenue' }).locator('+ dd')).toHaveText(/^₹[\d,]+$/);
  const row = revenue.getByRole('row').filter({ hasText: person.email });
  await expect(row.getByRole('link', { name: number })).toBeVisible();
  await expect(row.getByText('Refunded')).toBeVisible();
  const [csv] = await Promise.all([admin.waitForEvent('download'), revenue.getByRole('link', { name: 'Invoices CSV' }).click()]);
  const documents = await fs.readFile(await csv.path(), 'utf8');
  expect(documents).toContain(`${number},Tax Invoice,`);
  expect(documents).toMatch(new RegExp(`CN/\\d{2}-\\d{2}/\\d{6},Credit Note,[^\\r\\n]*,${number.replaceAll('/', '\\/')},`));

  const reasons = admin.getByRole('region', { name: 'Why subscribers cancel' });
  await expect(reasons.getByRole('progressbar', { name: /^It costs too much: \d+ of \d+$/ })).toBeVisible({ timeout: 20_000 });
  await expect(reasons.getByText('Half the price and I would stay.').first()).toBeVisible();
  expect.soft(await seriousViolations(admin), 'axe on the dashboard with cancellation reasons').toEqual([]);
  await adminContext.close();
});
