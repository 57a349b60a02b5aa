import { expect, test } from './fixtures.ts';

test('every page names a favicon in the brand colour, an ICO fallback and an apple-touch-icon, each served and revalidated', async ({ page, request }) => {
  await page.goto('/about');
  const icons = await page
    .locator('link[rel="icon"], link[rel="apple-touch-icon"]')
    .evaluateAll((links) => links.map((link) => ({ rel: link.getAttribute('rel'), href: (link as HTMLLinkElement).href, type: link.getAttribute('type') })));
  expect(icons.map(({ rel, href }) => `${rel} ${new URL(href).pathname}`)).toEqual([
    'icon /favicon.ico',
    'icon /favicon.svg',
    'apple-touch-icon /apple-touch-icon.png',
  ]);

  const expected: Record<string, string> = {
    '/favicon.ico': 'image/vnd.microsoft.icon',
    '/favicon.svg': 'image/svg+xml',
    '/apple-touch-icon.png': 'image/png',
  };
  for (const { href } of icons) {
    const response = await request.get(href);
    const { pathname } = new URL(href);
    expect(response.status(), pathname).toBe(200);
    expect(response.headers()['content-type'], pathname).toContain(expected[pathname]);
    // Not hashed, so checked every time (with its ETag), as every other public file.
    expect(response.headers()['cache-control'], pathname).toBe('no-cache');
    expect(response.headers().etag, pathname).toBeTruthy();
  }
  const svg = await (await request.get('/favicon.svg')).text();
  expect(svg).toContain('fill="#422ad5"'); // daisyUI's light primary, the brand colour
});
