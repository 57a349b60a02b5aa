import { expect, test, type Page } from './fixtures.ts';
import { BUNDLE_PRICE, horizontalOverflow, seriousViolations } from './journeys.ts';

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

/** The newest courses as the server lists them (newest first), as the home page should show them. */
async function newestTitles(baseURL: string, count: number): Promise<string[]> {
  const response = await fetch(`${baseURL}/api/v1/courses?page=1&limit=${count}`);
  expect(response.ok).toBe(true);
  const { courses } = (await response.json()) as { courses: { title: string }[] };
  return courses.map((course) => course.title);
}

const newestSection = (page: Page) => page.getByRole('region', { name: 'New in the catalogue' });
const bundleCard = (page: Page) => page.getByRole('article', { name: 'Subscription Bundle' });

test('the home page shows the newest courses from the server and the bundle at its price', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Find out the best online courses' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Explore Courses' })).toHaveAttribute('href', '/courses');
  await expect(page.getByRole('link', { name: 'Contact Us', exact: true })).toHaveAttribute('href', '/contact');
  await expect(page).toHaveTitle(/· LMS$/);

  const hero = page.locator('img[src="/hero.svg"]');
  await expect(hero).toHaveAttribute('width', '560');
  await expect(hero).toHaveAttribute('height', '420');
  expect(await hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

  const titles = await newestTitles(baseURL!, 3);
  expect(titles.length).toBeGreaterThan(0);
  const cards = newestSection(page).getByRole('article');
  await expect(cards).toHaveCount(titles.length);
  for (const [index, title] of titles.entries()) {
    await expect(cards.nth(index).getByRole('heading', { name: title })).toBeVisible();
  }
  // Each card's cover arrives (nothing broken).
  for (const cover of await newestSection(page).locator('article img').all()) {
    await cover.scrollIntoViewIfNeeded();
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }

  await expect(bundleCard(page).getByText(`₹${BUNDLE_PRICE}`, { exact: true })).toBeVisible();
  await expect(bundleCard(page).getByText('per month')).toBeVisible();
  await expect(bundleCard(page).getByText('All the Existing and new launched courses')).toBeVisible();
  await expect(bundleCard(page).getByText('100% refundale on cancellation')).toBeVisible();

  // The FAQ answers with the server's refund window (REFUND_WINDOW_DAYS' default) and price.
  const refund = page.locator('details').filter({ hasText: 'Do I get my money back if I cancel?' });
  await refund.locator('summary').click();
  await expect(refund).toContainText(
    'The first time you cancel within 14 days of a payment, we refund that payment in full and your access ends straight away.',
  );
  await expect(refund).toContainText('you keep watching until the end of the period you have paid for');
  await expect(page.getByText(`for ₹${BUNDLE_PRICE} a month`)).toBeAttached();

  // A card opens its course page, by a link that can be shared.
  await cards.first().getByRole('button', { name: titles[0]! }).click();
  await expect(page).toHaveURL(/\/course\/description\?id=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: titles[0]! })).toBeVisible();
});

test('the bundle card’s Subscribe takes a visitor to log in on the way to the checkout', async ({ page }) => {
  await page.goto('/');
  await bundleCard(page).getByRole('link', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fcheckout$/);
  await expect(page.getByRole('main').getByRole('note')).toContainText('you come straight back to the checkout');
});

test('the home page fits 360 px with nothing sideways, and axe finds nothing serious, light and dark', async ({ page }) => {
  for (const [width, height, scheme] of [
    [1280, 800, 'light'],
    [360, 740, 'dark'],
    [360, 740, 'light'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('/');
    await expect(newestSection(page).getByRole('article').first()).toBeVisible();
    await expect(bundleCard(page).getByText(`₹${BUNDLE_PRICE}`, { exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect.soft(await horizontalOverflow(page), `sideways scrolling at ${width} px (${scheme})`).toEqual([]);
    // With every answer open too.
    for (const summary of await page.locator('details summary').all()) await summary.click();
    expect.soft(await horizontalOverflow(page), `sideways scrolling at ${width} px (${scheme}), answers open`).toEqual([]);
    expect.soft(await seriousViolations(page), `axe on / at ${width} px (${scheme})`).toEqual([]);
  }
});

test('nothing on the first screen moves while the rest of the page arrives', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(() => {
    (window as unknown as { shifts: number }).shifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) (window as unknown as { shifts: number }).shifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/');
  await expect(newestSection(page).getByRole('article').first()).toBeVisible();
  await expect(bundleCard(page).getByText(`₹${BUNDLE_PRICE}`, { exact: true })).toBeAttached();
  await page.waitForLoadState('networkidle');
  const shifts = await page.evaluate(() => (window as unknown as { shifts: number }).shifts);
  expect(shifts, 'cumulative layout shift on /').toBeLessThan(0.01);
});
