import { expect, logInAs, newPerson, registerByApi, test, type Page } from './fixtures.ts';
import { horizontalOverflow, seriousViolations } from './journeys.ts';

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

/** Each page in light theme on a desktop, then in dark theme on a 360 px phone; every problem is listed. */
async function checkPage(page: Page, url: string, ready: (page: Page) => Promise<void>) {
  await page.goto(url);
  await ready(page);
  expect.soft(await seriousViolations(page), `axe on ${url} (light, desktop)`).toEqual([]);

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(url);
  await ready(page);
  expect.soft(await horizontalOverflow(page), `horizontal scrolling on ${url} at 360 px`).toEqual([]);
  expect.soft(await seriousViolations(page), `axe on ${url} (dark, 360 px)`).toEqual([]);
}

const headingShown = (name?: RegExp | string) => async (page: Page) => {
  await expect(page.getByRole('heading', { level: 1, ...(name ? { name } : {}) }).first()).toBeVisible();
  // Lazy chunks and fonts in place, nothing still moving in.
  await page.waitForLoadState('networkidle');
};

const publicPages: [string, RegExp | undefined][] = [
  ['/', /online courses/i],
  ['/about', /about us/i],
  ['/contact', /contact/i],
  ['/login', /login/i],
  ['/Signup', /sign ?up/i],
  ['/forgot-password', /forgot password/i],
  ['/reset-password/x', /reset password/i],
  ['/sign-in/k3Yq9_Zr-4VnT8xWb2LmP7sDq1Xz0Ab9Cd8Ef7Gh6Ij', /sign in with your link/i],
  ['/denied', /access denied/i],
  ['/no-such-page', /page not found/i],
];

for (const [url, heading] of publicPages) {
  test(`${url} has no serious accessibility problems and fits 360 px`, async ({ page }) => {
    await checkPage(page, url, headingShown(heading));
  });
}

for (const [url, heading] of [
  ['/user/profile', undefined],
  ['/user/editprofile', /edit profile/i],
  ['/changepassword', /change password/i],
] as const) {
  test(`${url} (logged in) has no serious accessibility problems and fits 360 px`, async ({ page, request }) => {
    const person = newPerson('a11y');
    await registerByApi(request, person);
    await logInAs(page, person.email, person.password);
    await checkPage(page, url, headingShown(heading ?? person.fullName));
  });
}
