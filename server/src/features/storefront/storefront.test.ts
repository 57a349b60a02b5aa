import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { courses } from '../../db/schema.ts';
import { withSecrets } from '../../secrets.ts';
import { openTestDatabase, TEST_ENV } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mp4Video, multipart, pngImage, signUpAdmin } from '../../test/http.ts';
import { buildSitemap, PUBLIC_PAGES } from './storefront.service.ts';

const SITE = 'https://learn.example.com';
/** A page laid out as Vite builds web/index.html, with a title and description of its own. */
const INDEX_HTML = [
  '<!doctype html>',
  '<html lang="en">',
  '  <head>',
  '    <meta charset="UTF-8" />',
  '    <title>LMS</title>',
  '    <meta name="description" content="Built-in description" />',
  '    <script type="module" crossorigin src="/assets/app-abc123.js"></script>',
  '  </head>',
  '  <body>',
  '    <div id="root"></div>',
  '  </body>',
  '</html>',
].join('\n');

type App = Awaited<ReturnType<typeof buildApp>>;

/** An app on its own database and data folder, with `indexHtml` as its web build (none when undefined). */
async function startApp(indexHtml: string | undefined) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
  const webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-web-'));
  if (indexHtml !== undefined) await fs.writeFile(path.join(webRoot, 'index.html'), indexHtml);
  const database = await openTestDatabase();
  const app = await buildApp(withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, PUBLIC_URL: SITE })), { database, webRoot });
  return {
    app,
    async close() {
      await app.close();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rm(webRoot, { recursive: true, force: true });
    },
  };
}

async function createCourse(
  app: App,
  cookie: string,
  fields: { title: string; description: string },
): Promise<{ _id: string; thumbnail: { secure_url: string } }> {
  const form = await multipart({
    ...fields,
    category: 'Data',
    createdBy: 'Li Wei',
    thumbnail: { bytes: await pngImage(), filename: 'c.png', type: 'image/png' },
  });
  const response = await app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie } });
  expect(response.statusCode, response.body).toBe(201);
  await publishCourseDirectly(app.ctx, response.json().course._id);
  return response.json().course;
}

/** The `content` of the head's meta tag `key` (name or property), unescaped; undefined when absent. */
function metaOf(html: string, key: string): string | undefined {
  const all = [...html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)" \/>/g)].filter((match) => match[1] === key);
  expect(all.length, key).toBeLessThanOrEqual(1);
  return all[0] && unescape(all[0][2]!);
}
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);
const titleOf = (html: string) => {
  const titles = [...html.matchAll(/<title>([^<]*)<\/title>/g)];
  expect(titles).toHaveLength(1);
  return unescape(titles[0]![1]!);
};
const canonicalOf = (html: string) => html.match(/<link rel="canonical" href="([^"]*)" \/>/)?.[1];

describe('a course page sent by the server', () => {
  let site: Awaited<ReturnType<typeof startApp>>;
  let admin: string;
  let course: { _id: string; thumbnail: { secure_url: string } };
  const longDescription = `${'Learn to query, join and model data with plain SQL. '.repeat(8)}The end.`;

  beforeAll(async () => {
    site = await startApp(INDEX_HTML);
    admin = (await signUpAdmin(site.app)).cookie;
    course = await createCourse(site.app, admin, { title: 'Practical SQL', description: longDescription });
  });
  afterAll(() => site?.close());

  const page = (url: string, headers: Record<string, string> = {}) => site.app.inject({ url, headers });

  it("carries the course's title, description, canonical URL, OpenGraph and Twitter tags", async () => {
    const response = await page(`/course/description?id=${course._id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = response.body;
    const url = `${SITE}/course/description?id=${course._id}`;
    const image = `${SITE}${course.thumbnail.secure_url}`;
    expect(titleOf(html)).toBe('Practical SQL · LMS');
    expect(canonicalOf(html)).toBe(url);
    // The cover, the page's largest paint, is fetched with the page's script, at the URL the app shows it.
    expect(html).toContain(`<link rel="preload" as="image" href="${course.thumbnail.secure_url}" fetchpriority="high" />`);
    const description = metaOf(html, 'description')!;
    expect(Array.from(description).length).toBeLessThanOrEqual(160);
    expect(description.length).toBeGreaterThan(120);
    expect(description).toMatch(/ [a-zA-Z,.]+…$/);
    // Cut where a word ends: what is before the ellipsis is the start of the description, up to a whole word.
    const kept = description.slice(0, -1);
    expect(longDescription.startsWith(kept)).toBe(true);
    expect(longDescription[kept.length]).toMatch(/[ ,.]/);
    expect({
      'og:title': metaOf(html, 'og:title'),
      'og:description': metaOf(html, 'og:description'),
      'og:url': metaOf(html, 'og:url'),
      'og:type': metaOf(html, 'og:type'),
      'og:image': metaOf(html, 'og:image'),
      'og:image:width': metaOf(html, 'og:image:width'),
      'og:image:height': metaOf(html, 'og:image:height'),
      'og:site_name': metaOf(html, 'og:site_name'),
      'twitter:card': metaOf(html, 'twitter:card'),
      'twitter:title': metaOf(html, 'twitter:title'),
      'twitter:description': metaOf(html, 'twitter:description'),
      'twitter:image': metaOf(html, 'twitter:image'),
      robots: metaOf(html, 'robots'),
    }).toEqual({
      'og:title': 'Practical SQL · LMS',
      'og:description': description,
      'og:url': url,
      'og:type': 'website',
      'og:image': image,
      'og:image:width': '640',
      'og:image:height': '360',
      'og:site_name': answers.siteName,
      'twitter:card': 'summary_large_image',
      'twitter:title': 'Practical SQL · LMS',
      'twitter:description': description,
      'twitter:image': image,
      robots: undefined,
    });
    // Still the app's page: its script, its root, the test-mode ribbon; the build's own title and description are replaced.
    expect(html).toContain('<script type="module" crossorigin src="/assets/app-abc123.js"></script>');
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain(answers.testModeRibbon);
    expect(html).not.toContain('Built-in description');
    // The og:image is a real image.
    const thumbnail = await page(course.thumbnail.secure_url);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
  });

  it('escapes a title and description holding "<>& so nothing breaks out of the head', async () => {
    const hostile = await createCourse(site.app, admin, {
      title: 'Tags "</title><script>alert(1)</script>" & <b>more</b>',
      description: `"><script>alert('x')</script><meta name="robots" content="noindex"> & friends`,
    });
    const html = (await page(`/course/description?id=${hostile._id}`)).body;
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>more');
    expect(html.match(/<meta name="robots"/g)).toBeNull();
    expect(titleOf(html)).toBe('Tags "</title><script>alert(1)</script>" & <b>more</b> · LMS');
    expect(metaOf(html, 'og:title')).toBe('Tags "</title><script>alert(1)</script>" & <b>more</b> · LMS');
    expect(metaOf(html, 'description')).toBe(`"><script>alert('x')</script><meta name="robots" content="noindex"> & friends`);
    // The head still ends where the page's </head> is, with only our tags and the build's in it.
    const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
    expect(head.match(/</g)!.length).toBe(head.match(/>/g)!.length);
  });

  it('shows an edited title at once', async () => {
    const edited = await createCourse(site.app, admin, { title: 'Before', description: 'Short.' });
    expect(titleOf((await page(`/course/description?id=${edited._id}`)).body)).toBe('Before · LMS');
    const form = await multipart({ title: 'After' });
    const put = await site.app.inject({
      method: 'PUT',
      url: `/api/v1/courses/${edited._id}`,
      payload: form.payload,
      headers: { ...form.headers, cookie: admin },
    });
    expect(put.statusCode).toBe(200);
    const html = (await page(`/course/description?id=${edited._id}`)).body;
    expect(titleOf(html)).toBe('After · LMS');
    expect(metaOf(html, 'description')).toBe('Short.');
  });

  it('is sent compressed to a browser that accepts it, the same page inside', async () => {
    const url = `/course/description?id=${course._id}`;
    const raw = (await page(url)).body;
    const br = await page(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(raw);
  });

  it('gives a draft the default head, as if it did not exist, until it is published', async () => {
    const draft = await createCourse(site.app, admin, { title: 'Unreleased Secrets', description: 'Not yet.' });
    await site.app.ctx.db.update(courses).set({ status: 'draft', publishedAt: null }).where(eq(courses.id, draft._id));
    const response = await page(`/course/description?id=${draft._id}`);
    expect(titleOf(response.body)).toBe(answers.siteName);
    expect(metaOf(response.body, 'robots')).toBe('noindex');
    expect(response.body).not.toContain('Unreleased Secrets');
    // Written straight to the database: the cached head is dropped once the change is heard.
    await publishCourseDirectly(site.app.ctx, draft._id);
    await expect.poll(async () => titleOf((await page(`/course/description?id=${draft._id}`)).body)).toBe('Unreleased Secrets · LMS');
  });

  it('gives an unknown or malformed course the default head, kept out of search results', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', '%3Cscript%3E', 'x'.repeat(300)]) {
      const response = await page(`/course/description?id=${id}`);
      expect(response.statusCode, id).toBe(200);
      expect(titleOf(response.body)).toBe(answers.siteName);
      expect(metaOf(response.body, 'description')).toBe(answers.siteDescription);
      expect(metaOf(response.body, 'robots')).toBe('noindex');
      expect(canonicalOf(response.body)).toBeUndefined();
      expect(response.body).not.toContain('<script>');
    }
    // Without an id, or with two: the app's page as every other path gets it.
    const home = (await page('/')).body;
    expect((await page('/course/description')).body).toBe(home);
    expect((await page(`/course/description?id=${course._id}&id=${course._id}`)).body).toBe(home);
  });

  it.each(['/', '/courses', '/about', '/user/profile', '/course/lecture'])('gives %s the default title and description, and no course tags', async (url) => {
    const html = (await page(url)).body;
    expect(titleOf(html)).toBe(answers.siteName);
    expect(metaOf(html, 'description')).toBe(answers.siteDescription);
    expect(metaOf(html, 'og:title')).toBe(answers.siteName);
    expect(metaOf(html, 'og:image')).toBeUndefined();
    expect(metaOf(html, 'robots')).toBeUndefined();
    expect(canonicalOf(html)).toBeUndefined();
    expect(html).not.toContain('Built-in description');
  });

  it('leaves the web app answering the paths beside robots.txt and the sitemap (with its 404 page, as the app has no such page)', async () => {
    for (const url of ['/sitemap', '/robots', '/sitemaps/courses', '/course/description/extra']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
    }
    for (const url of ['/sitemap.xml.gz', '/robots.txt.bak', '/sitemap-x.xml', '/sitemap-0.xml', '/sitemap-1.xml']) {
      const response = await page(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ success: false, message: answers.notFound });
    }
  });
});

describe('robots.txt and the sitemap', () => {
  // No web build, as in tests and in an API-only deployment: both still answer.
  let site: Awaited<ReturnType<typeof startApp>>;
  let admin: string;
  beforeAll(async () => {
    site = await startApp(undefined);
    admin = (await signUpAdmin(site.app)).cookie;
  });
  afterAll(() => site?.close());

  const sitemapEntries = (xml: string) =>
    [...xml.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/url>/g)].map((match) => ({ loc: match[1]!, lastmod: match[2] }));
  const updatedAtOf = async (id: string) =>
    (await site.app.ctx.db.select({ at: courses.updatedAt }).from(courses).where(eq(courses.id, id)))[0]!.at.toISOString();

  it('robots.txt allows everything but the private paths and names the sitemap', async () => {
    const response = await site.app.inject({ url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /admin/',
        'Disallow: /user/',
        'Disallow: /checkout',
        'Disallow: /api/',
        '',
        `Sitemap: ${SITE}/sitemap.xml`,
        '',
      ].join('\n'),
    );
  });

  it('the sitemap lists the public pages and every course page with its last change, and follows changes at once', async () => {
    const empty = await site.app.inject({ url: '/sitemap.xml' });
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(empty.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n')).toBe(true);
    expect(empty.body.endsWith('</urlset>\n')).toBe(true);
    expect(sitemapEntries(empty.body)).toEqual(PUBLIC_PAGES.map((page) => ({ loc: `${SITE}${page}`, lastmod: undefined })));

    const first = await createCourse(site.app, admin, { title: 'First', description: 'One.' });
    const second = await createCourse(site.app, admin, { title: 'Second', description: 'Two.' });
    const listed = sitemapEntries((await site.app.inject({ url: '/sitemap.xml' })).body);
    expect(listed.slice(PUBLIC_PAGES.length)).toEqual([
      { loc: `${SITE}/course/description?id=${first._id}`, lastmod: await updatedAtOf(first._id) },
      { loc: `${SITE}/course/description?id=${second._id}`, lastmod: await updatedAtOf(second._id) },
    ]);

    // A lecture added changes the course's page: its lastmod moves on.
    const before = await updatedAtOf(first._id);
    const form = await multipart({ title: 'Intro', description: 'Hello.', lectures: { bytes: mp4Video(1000), filename: 'a.mp4', type: 'video/mp4' } });
    expect(
      (await site.app.inject({ method: 'POST', url: `/api/v1/courses/${first._id}`, payload: form.payload, headers: { ...form.headers, cookie: admin } }))
        .statusCode,
    ).toBe(201);
    const moved = sitemapEntries((await site.app.inject({ url: '/sitemap.xml' })).body).find((entry) => entry.loc.endsWith(first._id))!;
    expect(moved.lastmod! > before).toBe(true);

    // A deleted course leaves the sitemap at once.
    expect((await site.app.inject({ method: 'DELETE', url: `/api/v1/courses/${second._id}`, headers: { cookie: admin } })).statusCode).toBe(200);
    expect(sitemapEntries((await site.app.inject({ url: '/sitemap.xml' })).body).map((entry) => entry.loc)).not.toContain(
      `${SITE}/course/description?id=${second._id}`,
    );
  });

  it('is sent compressed to a client that accepts it, once it is big enough to gain', async () => {
    for (let i = 0; i < 12; i++) await createCourse(site.app, admin, { title: `Bulk ${i}`, description: 'Filler.' });
    const raw = await site.app.inject({ url: '/sitemap.xml' });
    const gzip = await site.app.inject({ url: '/sitemap.xml', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(raw.body);
  });

  it('past the per-file limit, becomes an index of files that together list every page once, in order', async () => {
    const whole = sitemapEntries(await buildSitemap(site.app.ctx)).map((entry) => entry.loc);
    expect(whole.length).toBeGreaterThan(10);
    const index = await buildSitemap(site.app.ctx, { maxUrls: 4 });
    const parts = [...index.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map((match) => match[1]);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(parts).toEqual(Array.from({ length: Math.ceil(whole.length / 4) }, (_, i) => `${SITE}/sitemap-${i + 1}.xml`));
    const listed: string[] = [];
    for (let part = 1; part <= parts.length; part++) {
      const entries = sitemapEntries(await buildSitemap(site.app.ctx, { part, maxUrls: 4 }));
      expect(entries.length).toBeLessThanOrEqual(4);
      listed.push(...entries.map((entry) => entry.loc));
    }
    expect(listed).toEqual(whole);
    await expect(buildSitemap(site.app.ctx, { part: parts.length + 1, maxUrls: 4 })).rejects.toMatchObject({ statusCode: 404 });
    // With everything in one file there are no numbered files.
    await expect(buildSitemap(site.app.ctx, { part: 1 })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('course pages need the web build: without one they are not found, as every page is', async () => {
    const response = await site.app.inject({ url: `/course/description?id=00000000-0000-4000-8000-000000000000` });
    expect(response.statusCode).toBe(404);
  });
});
