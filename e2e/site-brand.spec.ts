import { expect, logIn, pngFile, test } from './fixtures.ts';
import { seriousViolations } from './journeys.ts';
import { initialAdmin, startServer, type RunningServer } from './server.ts';

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

// A site of its own, without the demo content: renaming the journeys' shared site would change
// every other journey's pages.
let server: RunningServer | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const BRAND = '#0f766e';

test('a seller names the site, gives it a logo, a colour and contact details in the setup, and a visitor sees them everywhere', async ({ browser }) => {
  test.setTimeout(300_000);
  server = await startServer({ videoProcessing: false, demoContent: false });
  const visitor = await browser.newContext({ baseURL: server.baseUrl });
  const seller = await browser.newContext({ baseURL: server.baseUrl });
  try {
    // A fresh site: the product's name, the spec's footer, and no testimonials of invented learners.
    const page = await visitor.newPage();
    await page.goto('/');
    await expect(page.getByRole('contentinfo')).toContainText('All right reserved LMS');
    await expect(page.getByRole('heading', { name: 'What learners say' })).toHaveCount(0);

    // The first administrator chooses a password, then sets the site up.
    const admin = await seller.newPage();
    const { email, password } = initialAdmin(server.dataDir);
    await logIn(admin, email, password);
    await admin.getByLabel('Password you signed in with').fill(password);
    await admin.getByLabel('New password').fill('Own#pass2026');
    await admin.getByRole('button', { name: 'Save and continue' }).click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Set up your site' })).toBeVisible();
    await admin.getByLabel('Site name').fill('Acme Academy');
    await admin.getByRole('button', { name: 'Save and continue' }).click();

    await expect(admin.getByRole('heading', { level: 2, name: 'Logo' })).toBeVisible();
    await admin.getByLabel('Logo file').setInputFiles(pngFile('acme.png', [15, 118, 110], 96));
    await expect(admin.getByRole('img', { name: /logo/i }).first()).toBeVisible();
    await admin.getByRole('button', { name: 'Next', exact: true }).click();

    await expect(admin.getByRole('heading', { level: 2, name: 'Brand colour' })).toBeVisible();
    await admin.getByLabel('Your brand colour', { exact: true }).fill(BRAND);
    await admin.getByRole('button', { name: 'Save and continue' }).click();

    await expect(admin.getByRole('heading', { level: 2, name: 'Contact details' })).toBeVisible();
    await admin.getByLabel('Email').fill('hello@acme.example');
    await admin.getByRole('button', { name: 'Finish', exact: true }).click();
    await expect(admin).toHaveURL(/\/admin\/dashboard$/);

    // A visitor's next page carries it all: header, title, footer, colours, icons.
    await page.goto('/');
    await expect(page).toHaveTitle(/Acme Academy/);
    await expect(
      page
        .getByRole('banner')
        .getByText('Acme Academy')
        .or(page.getByRole('banner').getByRole('img', { name: 'Acme Academy' }))
        .first(),
    ).toBeVisible();
    const footer = page.getByRole('contentinfo');
    await expect(footer).toContainText('All right reserved Acme Academy');
    await expect(footer.getByRole('link', { name: 'hello@acme.example' })).toHaveAttribute('href', 'mailto:hello@acme.example');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim())).toBe(BRAND);
    await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute('href', /\/media\/logos\//);
    expect(await seriousViolations(page), 'axe on / with the brand (light)').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page), 'axe on / with the brand (dark)').toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    // The legal pages, linked from the footer, state the seller and the refund rule.
    await footer.getByRole('link', { name: 'Refund policy' }).click();
    await expect(page).toHaveURL(/\/refund-policy$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/refund/i);
    await expect(page.getByRole('main')).toContainText('14 days');
    await expect(page.getByRole('button', { name: 'Edit page' })).toHaveCount(0);
    for (const [path, heading] of [
      ['/terms', /terms/i],
      ['/privacy', /privacy/i],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
      await expect(page.getByRole('main')).toContainText('Acme Academy');
    }

    // The checkout, where the buyer agrees, links to the refund policy.
    await page.goto('/checkout');
    await expect(page.getByRole('link', { name: 'Refund policy' }).first()).toHaveAttribute('href', '/refund-policy');
  } finally {
    await visitor.close();
    await seller.close();
  }
});
