import fs from 'node:fs/promises';
import { pdfText } from '../server/src/test/pdf.ts';
import { expect, newPerson, signUp, test } from './fixtures.ts';
import { CARDS, exclusively, expectBundleCard, payWithCard, releaseLocks, seriousViolations, subscriptionOnProfile } from './journeys.ts';

test.afterEach(releaseLocks);
test.use({ bypassCSP: true });

test('a learner adds their GSTIN, pays, finds the tax invoice in billing history and downloads it', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newPerson('invoice'));
  await subscriptionOnProfile(page);

  // Buying for a business: the GSTIN picks its state, and the next invoice carries both.
  const billing = page.getByRole('region', { name: 'Billing history' });
  await expect(billing.getByText('No payments yet')).toBeVisible();
  await billing.getByText('Tax details for your invoices').click();
  await billing.getByLabel('Business name').fill('Verma Tutors LLP');
  await billing.getByLabel('GSTIN').fill('27AAPFU0939F1ZV');
  await expect(billing.getByLabel('State')).toHaveValue('27');
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
  await expect(billing.getByText('₹99')).toBeVisible();
  expect.soft(await seriousViolations(page), 'axe on the profile with billing history').toEqual([]);

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe(`${number.replaceAll('/', '-')}.pdf`);
  const text = await pdfText(await fs.readFile(await file.path()));
  for (const words of ['Tax Invoice', number, '₹99.00', 'Verma Tutors LLP', 'GSTIN 27AAPFU0939F1ZV', 'IGST 18%', '₹15.10']) expect(text).toContain(words);
});
