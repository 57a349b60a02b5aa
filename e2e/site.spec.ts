import { adminCredentials, expect, logInAs, newestMail, newPerson, openMenu, registerByApi, test, type Page } from './fixtures.ts';
import { exclusively, releaseLocks } from './journeys.ts';

test.afterEach(releaseLocks);

test('the contact form validates, sends, thanks the visitor and mails the administrators', async ({ page }) => {
  const token = `note-${Date.now().toString(36)}`;
  await page.goto('/contact');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('All fields are mandatory')).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('Meera Iyer');
  await page.getByLabel('Email', { exact: true }).fill('meera@example');
  await page.getByLabel('Message', { exact: true }).fill(`Hello team, ${token}: when is the next course?`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Invalid email', { exact: true })).toBeVisible();

  await page.getByLabel('Email', { exact: true }).fill('meera@example.com');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Thank you for contacting us, we will get back to you soon')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('');

  const mail = await newestMail(adminCredentials().email, token);
  expect(mail).toContain('Meera Iyer');
  expect(mail).toContain('meera@example.com');
});

test.describe('the side menu by role', () => {
  test('anonymous: Login and Signup, no admin links', async ({ page }) => {
    await page.goto('/');
    const menu = await openMenu(page);
    for (const name of ['Home', 'All Courses', 'Contact us', 'About', 'Login', 'Signup']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Create Course' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Profile' })).toHaveCount(0);
  });

  test('USER: Profile and Logout, no admin links', async ({ page, request }) => {
    const person = newPerson('menu');
    await registerByApi(request, person);
    await logInAs(page, person.email, person.password);
    const menu = await openMenu(page);
    await expect(menu.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Logout' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Login' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Admin Dashboard' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Create Course' })).toHaveCount(0);
  });

  test('ADMIN: Admin Dashboard and Create Course', async ({ page }) => {
    const admin = adminCredentials();
    await logInAs(page, admin.email, admin.password);
    const menu = await openMenu(page);
    await expect(menu.getByRole('link', { name: 'Admin Dashboard' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Create Course' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Profile' })).toBeVisible();
    await menu.getByRole('link', { name: 'Admin Dashboard' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByText('Access denied')).toHaveCount(0);
  });
});

test.describe('route guards', () => {
  test('a USER opening /admin/dashboard is sent to /denied', async ({ page, request }) => {
    const person = newPerson('guard');
    await registerByApi(request, person);
    await logInAs(page, person.email, person.password);
    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL(/\/denied$/);
    await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a visitor opening /user/profile is sent to /login', async ({ page }) => {
    await page.goto('/user/profile');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel(/^password/i)).toBeVisible();
  });
});

for (const width of [360, 1280]) {
  test(`a form refused again and again shows one error at a time, off the form (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/login');
    const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Login' }) });
    const refusals = page.getByRole('status').filter({ hasText: 'Email or password does not match' });
    // The most toasts ever on show together, counted as the page changes.
    await page.evaluate(() => {
      const seen = window as unknown as { mostToasts: number };
      seen.mostToasts = 0;
      new MutationObserver(() => {
        seen.mostToasts = Math.max(seen.mostToasts, document.querySelectorAll('[data-rht-toaster] [role="status"]').length);
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByLabel('Email').fill(`nobody-${width}-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('Wrong#pass1');
    for (let sent = 1; sent <= 3; sent++) {
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/v1/user/login'));
      await page.getByRole('button', { name: 'Login' }).click();
      await answered;
      await expect(refusals).toHaveCount(1);
    }
    expect(await page.evaluate(() => (window as unknown as { mostToasts: number }).mostToasts)).toBe(1);
    // A newer error of another kind takes the place of the one on show.
    await page.getByLabel('Password').fill('');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Please fill all the details — Password is missing' })).toBeVisible();
    await expect(refusals).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { mostToasts: number }).mostToasts)).toBe(1);
    // Over the navigation bar, not over the form's fields.
    const [toastBox, formBox] = [await page.getByRole('status').boundingBox(), await form.boundingBox()];
    expect(toastBox!.y + toastBox!.height).toBeLessThanOrEqual(formBox!.y);
  });
}

test('an unknown path answers 404 and shows "Page not Found" with a way home', async ({ page }) => {
  // Search engines and uptime checks read the status; people read the page.
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  expect(response?.headers()['content-type']).toMatch(/^text\/html/);
  await expect(page.getByRole('heading', { name: 'Page not Found' })).toBeVisible();
  await expect(page).toHaveTitle('Page not Found · LMS');
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the footer shows the year and "All right reserved LMS"', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('All right reserved LMS');
  await expect(footer).toContainText(String(new Date().getFullYear()));
  for (const name of ['Facebook', 'Instagram', 'Twitter', 'LinkedIn']) await expect(footer.getByRole('link', { name })).toBeVisible();
});

test('the about page: quotes move with the buttons and the arrow keys, and by themselves', async ({ page }) => {
  await page.goto('/about');
  const carousel = page.getByRole('region', { name: 'Quotes about learning' });
  await expect(carousel.getByRole('group', { name: '1 of 5' })).toBeVisible();
  await carousel.getByRole('button', { name: 'Next quote' }).click();
  await expect(carousel.getByRole('group', { name: '2 of 5' })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(carousel.getByRole('group', { name: '3 of 5' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(carousel.getByRole('group', { name: '5 of 5' })).toBeVisible();

  // Focus and pointer leave: after about 5 s the next quote comes by itself.
  await page.getByRole('heading', { name: 'About us' }).click();
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await expect(carousel.getByRole('group', { name: '1 of 5' })).toBeVisible({ timeout: 8000 });
});

test.describe('the test-mode ribbon (sandbox payments)', () => {
  const ribbonOf = (page: Page) => page.getByRole('note').filter({ hasText: 'Test mode — payments are simulated' });

  /** On top of the page, above the navbar and never over it. */
  async function expectRibbonOnTop(page: Page) {
    const ribbon = ribbonOf(page);
    await expect(ribbon).toBeVisible();
    const [ribbonBox, headerBox] = [await ribbon.boundingBox(), await page.getByRole('banner').boundingBox()];
    expect(ribbonBox!.y).toBe(0);
    expect(ribbonBox!.width).toBe(page.viewportSize()!.width);
    expect(ribbonBox!.y + ribbonBox!.height).toBeLessThanOrEqual(headerBox!.y + 0.5);
  }

  test('shows on every page, visitors and subscribers alike', async ({ page, request }) => {
    for (const url of ['/', '/courses', '/login']) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expectRibbonOnTop(page);
    }
    const person = newPerson('ribbon');
    await registerByApi(request, person);
    await logInAs(page, person.email, person.password);
    // The checkout's heading is the bundle's while it is the only plan on sale (e2e/plans.spec.ts sells others for a while).
    await exclusively('plans', async () => {
      for (const [url, heading] of [
        ['/user/profile', person.fullName],
        ['/checkout', 'Subscription Bundle'],
      ] as const) {
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expectRibbonOnTop(page);
      }
    });
  });

  test('a short page still fits the window, and the side menu opens over the ribbon', async ({ page }) => {
    for (const size of [
      { width: 1280, height: 720 },
      { width: 360, height: 740 },
    ]) {
      await page.setViewportSize(size);
      await page.goto('/denied');
      await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
      await expectRibbonOnTop(page);
      // The footer ends at the window's bottom edge: nothing to scroll, sideways or down.
      const footer = (await page.getByRole('contentinfo').boundingBox())!;
      expect(Math.round(footer.y + footer.height)).toBe(size.height);
      expect(await page.evaluate(() => [document.documentElement.scrollHeight, document.documentElement.scrollWidth])).toEqual([size.height, size.width]);
    }
    const menu = await openMenu(page);
    expect((await menu.boundingBox())!.y).toBe(0);
    // The menu, not the ribbon, is what shows at its top corner.
    expect(await page.evaluate(() => document.elementFromPoint(20, 8)?.closest('nav')?.getAttribute('aria-label'))).toBe('Main');
  });
});
