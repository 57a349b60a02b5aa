import fs from 'node:fs';
import { expect, logIn, openMenu, test } from './fixtures.ts';
import { seriousViolations } from './journeys.ts';
import { initialAdmin, initialAdminFile, startServer, type RunningServer } from './server.ts';

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

// A server of its own, on a fresh data folder: the journeys' server has had its admin's password chosen already.
let server: RunningServer | undefined;
test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

test("the initial administrator must choose a password before anything else, then reaches the dashboard; the handed-out one's file is gone", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // The first sign-in is this journey's; the eight demo videos' transcodes are the other journeys' concern.
  server = await startServer({ videoProcessing: false });
  const { email, password } = initialAdmin(server.dataDir);
  const context = await browser.newContext({ baseURL: server.baseUrl });
  try {
    const page = await context.newPage();
    await logIn(page, email, password);

    // Taken to choose a password, with the reason.
    await expect(page).toHaveURL(/\/changepassword$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose your own password' })).toBeVisible();
    await expect(page.getByText(/Choose your own password: until you do, nothing else is open to this account/)).toBeVisible();
    expect.soft(await seriousViolations(page), 'axe on the forced password change').toEqual([]);

    // Nothing else is open: the dashboard leads back, and the menu offers only Logout.
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/changepassword$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose your own password' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toHaveCount(0);
    const menu = await openMenu(page);
    await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(menu.getByRole('link')).toHaveCount(0);
    await page.locator('.drawer-overlay').click({ force: true });
    await expect(menu).toBeHidden();

    // The server agrees: the admin's own calls are refused until then.
    const stats = await page.request.get('/api/v1/admin/status/users');
    expect(stats.status()).toBe(403);
    expect((await stats.json()) as unknown).toMatchObject({ success: false, message: 'Please choose a new password before you continue' });

    // Choosing one opens everything.
    await page.getByLabel('Password you signed in with').fill(password);
    await page.getByLabel('New password').fill('Own#pass2026');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    // Then the site's short setup: the name saved, the rest skipped, Finish on the dashboard.
    await expect(page).toHaveURL(/\/admin\/setup$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Set up your site' })).toBeVisible();
    await page.getByLabel('Site name').fill('Asha Music Academy');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Logo' })).toBeVisible();
    await page.getByRole('button', { name: 'Skip', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Brand colour' })).toBeVisible();
    await page.getByRole('button', { name: 'Skip', exact: true }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Contact details' })).toBeVisible();
    await page.getByRole('button', { name: 'Skip and finish' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await expect(page).toHaveTitle(/· Asha Music Academy$/);
    await expect(page.getByText('Registered Users').first()).toBeVisible();
    expect(fs.existsSync(initialAdminFile(server.dataDir))).toBe(false);

    // Still so after a reload (the new session), and the menu is whole again.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    const fullMenu = await openMenu(page);
    await expect(fullMenu.getByRole('link', { name: 'Create Course' })).toBeVisible();
  } finally {
    await context.close();
  }
});
