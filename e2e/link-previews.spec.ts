import { DEMO_COURSE, courseIdByTitle } from './journeys.ts';
import { expect, test } from './fixtures.ts';

// What a chat app or a search engine sees: the server's HTML, fetched without a browser, no script run.

/** The content of `<meta property|name="key" content="…">` in `html`, as a crawler reads it. */
function metaContent(html: string, key: string): string | undefined {
  for (const tag of html.match(/<meta [^>]*>/g) ?? []) {
    if (tag.includes(`property="${key}"`) || tag.includes(`name="${key}"`)) return /content="([^"]*)"/.exec(tag)?.[1];
  }
  return undefined;
}

test('a shared course link carries the course title, description, canonical URL and a thumbnail that loads', async ({ request, baseURL }) => {
  const id = await courseIdByTitle(baseURL!, DEMO_COURSE.title);
  const response = await request.get(`/course/description?id=${id}`, { headers: { 'user-agent': 'WhatsApp/2.23', accept: 'text/html' } });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('text/html');
  const html = await response.text();

  expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toContain(DEMO_COURSE.title);
  expect(metaContent(html, 'og:title')).toContain(DEMO_COURSE.title);
  expect(metaContent(html, 'twitter:card')).toBeTruthy();
  const description = metaContent(html, 'description');
  expect(description?.length).toBeGreaterThan(20);
  expect(description!.length).toBeLessThanOrEqual(160);
  expect(/<link rel="canonical" href="([^"]*)"/.exec(html)?.[1]).toMatch(new RegExp(`^https?://[^/]+/course/description\\?id=${id}$`));

  const image = metaContent(html, 'og:image');
  expect(image, 'og:image is an absolute URL').toMatch(/^https?:\/\//);
  // The preview's picture must load for whoever fetches it (PUBLIC_URL is this server in the tests).
  const picture = await request.get(new URL(new URL(image!).pathname, baseURL).toString());
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toMatch(/^image\//);
});

test('another page has the site title; an unknown course is not indexed', async ({ request }) => {
  const about = await (await request.get('/about')).text();
  expect(/<title>([^<]*)<\/title>/.exec(about)?.[1]).toBeTruthy();
  expect(metaContent(about, 'og:title')).toBeTruthy();

  const unknown = await (await request.get('/course/description?id=00000000-0000-4000-8000-000000000000')).text();
  expect(metaContent(unknown, 'robots')).toContain('noindex');
});

test('the sitemap lists the public pages and the course pages; robots.txt points to it and keeps crawlers out of accounts', async ({ request, baseURL }) => {
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()['content-type']).toMatch(/xml/);
  const xml = await sitemap.text();
  const locations = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map(([, loc]) => new URL(loc!.replaceAll('&amp;', '&')));
  expect(locations.map((url) => url.pathname)).toEqual(expect.arrayContaining(['/', '/about', '/courses', '/contact']));

  // Other journeys add and delete courses meanwhile; the seeded course is always there.
  const id = await courseIdByTitle(baseURL!, DEMO_COURSE.title);
  const coursePages = locations.filter((url) => url.pathname === '/course/description').map((url) => url.searchParams.get('id'));
  expect(coursePages).toContain(id);
  expect(xml).toContain('<lastmod>');

  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toContain('text/plain');
  const text = await robots.text();
  expect(text).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
  for (const path of ['/admin/', '/user/', '/checkout', '/api/']) expect(text).toContain(`Disallow: ${path}`);
});
