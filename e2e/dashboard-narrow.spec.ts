import { adminCredentials, expect, logInAs, newPerson, pngFile, test, type Page } from './fixtures.ts';
import { horizontalOverflow, seriousViolations } from './journeys.ts';

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

/** A word of `length` letters with no place to break it. */
const unbroken = (length: number) => 'Lorem'.repeat(Math.ceil(length / 5)).slice(0, length);

/** How far the course table scrolls sideways inside its own frame (0: it fits). */
const tableOverflow = (page: Page) =>
  page.getByRole('table', { name: 'Courses Overview' }).evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth);

test('the dashboard with a 100-letter word in a course title: no sideways scroll at 360 px, axe clean in both themes', async ({ page }) => {
  test.setTimeout(90_000);
  const { email, password } = adminCredentials();
  await logInAs(page, email, password);
  // Unique, so that tests running side by side never meet; the word itself is 100 letters.
  const title = `${unbroken(100)} ${newPerson('w').fullName.split(' ').at(-1)}`;
  const created = await page.request.post('/api/v1/courses', {
    multipart: {
      title,
      category: unbroken(60),
      createdBy: unbroken(60),
      description: `${unbroken(400)} and then some ordinary words.`,
      thumbnail: pngFile('thumbnail.png', [90, 60, 200], 64),
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { course } = (await created.json()) as { course: { _id: string } };

  try {
    const titleCell = page.getByRole('rowheader', { name: new RegExp(`^${title} `) });

    // A phone in the dark theme.
    await page.setViewportSize({ width: 360, height: 740 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/admin/dashboard');
    await expect(titleCell).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await horizontalOverflow(page), 'horizontal scrolling at 360 px').toEqual([]);
    // The title wraps within its column: the table fits its frame, so its actions are in view.
    expect(await tableOverflow(page), 'the course table scrolling sideways at 360 px').toBe(0);
    for (const [what, element] of [
      ['the title', titleCell],
      ['its Delete button', page.getByRole('button', { name: `Delete ${title}` })],
    ] as const) {
      const box = (await element.boundingBox())!;
      expect(box.x + box.width, `the right edge of ${what}`).toBeLessThanOrEqual(360);
    }
    expect(await seriousViolations(page), 'axe on the dashboard (dark, 360 px)').toEqual([]);

    // A desktop in the light theme: every column shows, the long category, instructor and description wrap too.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    await expect(titleCell).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('cell', { name: unbroken(60) }).first()).toBeVisible();
    expect(await horizontalOverflow(page), 'horizontal scrolling at 1280 px').toEqual([]);
    expect(await tableOverflow(page), 'the course table scrolling sideways at 1280 px').toBe(0);
    expect(await seriousViolations(page), 'axe on the dashboard (light, 1280 px)').toEqual([]);

    // And dark on the desktop (axe reads the page's text; the charts take their colours from the theme).
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page), 'axe on the dashboard (dark, 1280 px)').toEqual([]);
  } finally {
    await page.request.delete(`/api/v1/courses/${course._id}`);
  }
});
