import fs from 'node:fs';
import { adminCredentials, expect, logInAs, newPerson, pngFile, test, type Page } from './fixtures.ts';
import { LECTURE_VIDEO, horizontalOverflow, publishCourse } from './journeys.ts';

/** A word of `length` letters with no place to break it. */
const unbroken = (length: number) => 'Lorem'.repeat(Math.ceil(length / 5)).slice(0, length);

/** What a phone's user notices: the page is no wider than the window (with what sticks out, if it is). */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits ? [] : await horizontalOverflow(page), `sideways scroll on ${where}`).toEqual([]);
  // Nor is anything cut off by a box that hides its overflow: every element of the page ends inside the window.
  const outside = await page.evaluate(() =>
    Array.from(document.querySelectorAll('main *, dialog *'))
      .filter((element) => element.getClientRects().length > 0 && element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} right=${Math.round(element.getBoundingClientRect().right)}`),
  );
  expect(outside, `elements past the right edge on ${where}`).toEqual([]);
}

test('a 100-letter word in a course title and description: no sideways scroll at 360 px on /courses, the course page and the lecture page', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { email, password } = adminCredentials();
  await logInAs(page, email, password);
  // Unique, so that tests running side by side never meet; the word itself is 100 letters.
  const suffix = newPerson('n').fullName.split(' ').at(-1)!;
  const title = `${unbroken(100)} ${suffix}`;
  const created = await page.request.post('/api/v1/courses', {
    multipart: {
      title,
      category: unbroken(60),
      createdBy: unbroken(60),
      description: `${unbroken(100)} and then some ordinary words.\n${unbroken(400)}`,
      thumbnail: pngFile('thumbnail.png', [90, 60, 200], 64),
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { course } = (await created.json()) as { course: { _id: string } };
  const added = await page.request.post(`/api/v1/courses/${course._id}`, {
    multipart: {
      title: unbroken(120),
      description: unbroken(300),
      preview: 'true',
      lectures: { name: 'lecture.mp4', mimeType: 'video/mp4', buffer: fs.readFileSync(LECTURE_VIDEO) },
    },
  });
  expect(added.ok(), await added.text()).toBe(true);
  await publishCourse(page.request, course._id);

  try {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });

      await page.goto(`/courses?search=${suffix}`);
      await expect(page.getByRole('button', { name: title, exact: true })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page, `/courses (${theme})`);
      // The card's title wraps inside the card.
      const box = (await page.getByRole('button', { name: title, exact: true }).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(360);
      // Its description clamps to exactly two whole lines (no sliced third line below them), the rest cut with an ellipsis.
      const clamp = await page
        .getByRole('article')
        .filter({ has: page.getByRole('button', { name: title, exact: true }) })
        .locator('p')
        .first()
        .evaluate((element) => {
          const style = getComputedStyle(element);
          return {
            lines: element.getBoundingClientRect().height / parseFloat(style.lineHeight),
            clamped: element.scrollHeight > element.clientHeight,
            clamp: style.webkitLineClamp,
          };
        });
      expect(clamp).toEqual({ lines: 2, clamped: true, clamp: '2' });

      await page.goto(`/course/description?id=${course._id}`);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Course content' }).getByRole('listitem')).toHaveCount(1);
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page, `the course page (${theme})`);
      // The free preview's dialog too.
      await page.getByRole('button', { name: `Play the free preview: ${unbroken(120)}` }).click();
      await expect(page.getByRole('dialog', { name: title })).toBeVisible();
      await expectNoSidewaysScroll(page, `the preview dialog (${theme})`);
      await page.keyboard.press('Escape');

      await page.goto(`/course/lecture?id=${course._id}`);
      await expect(page.getByRole('heading', { level: 1, name: `Course: ${title}` })).toBeVisible();
      await expect(page.getByLabel(`Lecture 1: ${unbroken(120)}`)).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page, `the lecture page (${theme})`);
    }
  } finally {
    await page.request.delete(`/api/v1/courses/${course._id}`);
  }
});
