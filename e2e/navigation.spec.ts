import { adminCredentials, expect, logInAs, newPerson, registerByApi, test, type Page } from './fixtures.ts';
import { seriousViolations } from './journeys.ts';

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

/** The desktop bar's navigation (from 1024 px) and the header around it. */
const siteNav = (page: Page) => page.getByRole('navigation', { name: 'Site' });
const header = (page: Page) => page.getByRole('banner');
const hamburger = (page: Page) => header(page).locator('label.drawer-button');

async function barItems(page: Page) {
  return siteNav(page).getByRole('link').allInnerTexts();
}

test.describe('desktop navigation at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a visitor sees the spec’s items in a top bar, the current page marked, and Login and Signup', async ({ page }) => {
    await page.goto('/about');
    await expect(siteNav(page)).toBeVisible();
    await expect(hamburger(page)).toBeHidden();
    expect(await barItems(page)).toEqual(['Home', 'All Courses', 'Contact us', 'About']);
    await expect(siteNav(page).getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
    await expect(siteNav(page).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
    await expect(header(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(header(page).getByRole('link', { name: 'Signup', exact: true })).toBeVisible();
    await expect(header(page).getByRole('button', { name: /account menu/i })).toHaveCount(0);

    expect.soft(await seriousViolations(page), 'axe on the desktop bar (visitor)').toEqual([]);
    await siteNav(page).getByRole('link', { name: 'All Courses' }).click();
    await expect(page).toHaveURL(/\/courses$/);
    await expect(siteNav(page).getByRole('link', { name: 'All Courses' })).toHaveAttribute('aria-current', 'page');
  });

  test('Login from the bar comes back to the page it was opened from', async ({ page, request }) => {
    const person = newPerson('navback');
    await registerByApi(request, person);
    await page.goto('/contact');
    await header(page).getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fcontact$/);
    await page.getByLabel(/^email/i).fill(person.email);
    await page.getByLabel(/^password/i).fill(person.password);
    await page.getByRole('button', { name: /^log ?in$/i }).click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test('a learner gets the avatar’s menu: Profile, and Logout, by keyboard too', async ({ page, request }) => {
    const person = newPerson('navlearner');
    await registerByApi(request, person);
    await logInAs(page, person.email, person.password);
    await expect(page).toHaveURL(/\/$/);
    expect(await barItems(page)).toEqual(['Home', 'All Courses', 'Contact us', 'About']);
    await expect(header(page).getByRole('link', { name: 'Login', exact: true })).toHaveCount(0);

    const avatar = header(page).getByRole('button', { name: `Account menu: ${person.fullName}` });
    await expect(avatar).toHaveAttribute('aria-expanded', 'false');
    await avatar.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Account menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitem', { name: 'Profile' })).toBeFocused();
    expect.soft(await seriousViolations(page), 'axe with the avatar menu open').toEqual([]);
    await page.keyboard.press('ArrowDown');
    await expect(menu.getByRole('menuitem', { name: 'Logout' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(avatar).toBeFocused();

    await avatar.click();
    await menu.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/user\/profile$/);
    await expect(page.getByRole('heading', { name: person.fullName })).toBeVisible();
    await expect(menu).toBeHidden();

    await avatar.click();
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(header(page).getByRole('link', { name: 'Login', exact: true })).toBeVisible();
    await expect(avatar).toHaveCount(0);
  });

  test('an admin also sees Admin Dashboard, Create Course and (ours) Site settings and Leak trace, in the side menu’s order', async ({ page }) => {
    const admin = adminCredentials();
    await logInAs(page, admin.email, admin.password);
    expect(await barItems(page)).toEqual(['Home', 'Admin Dashboard', 'Create Course', 'Site settings', 'Leak trace', 'All Courses', 'Contact us', 'About']);
    await siteNav(page).getByRole('link', { name: 'Admin Dashboard' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(siteNav(page).getByRole('link', { name: 'Admin Dashboard' })).toHaveAttribute('aria-current', 'page');
    await expect(header(page).getByRole('button', { name: /^Account menu: / })).toBeVisible();
  });

  test('a signed-in user who opens /login or /Signup is sent home, in their place', async ({ page, request }) => {
    const person = newPerson('navsigned');
    await registerByApi(request, person);
    await logInAs(page, person.email, person.password);
    for (const path of ['/login', '/Signup', '/login?next=%2Fcheckout']) {
      await page.goto('/about');
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1, name: /online courses/i })).toBeVisible();
      // In the form's place: Back leads to the page before, not to the form again.
      await page.goBack();
      await expect(page).toHaveURL(/\/about$/);
    }
  });
});

test.describe('phones keep the spec’s side menu', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('at 360 px: the hamburger opens the side menu; no top bar', async ({ page }) => {
    await page.goto('/');
    await expect(siteNav(page)).toBeHidden();
    await expect(header(page).getByRole('link', { name: 'Login', exact: true })).toBeHidden();
    await hamburger(page).click();
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu).toBeVisible();
    for (const name of ['Home', 'All Courses', 'Contact us', 'About', 'Login', 'Signup']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole('link', { name: 'Home', exact: true })).toHaveAttribute('aria-current', 'page');
    await menu.getByRole('link', { name: 'About', exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(menu).toBeHidden();
  });
});
