import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Brand, Site } from '@lms/contract/settings';
import { brandCss, PRODUCT_NAME } from '@lms/contract/site';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { withSecrets } from '../../secrets.ts';
import { openTestDatabase, TEST_ENV } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { multipart, pngImage, signUpAdmin } from '../../test/http.ts';
import type { StoredLogo } from '../settings/site-settings.ts';

const SITE = 'https://learn.example.com';
/** A page laid out as Vite builds web/index.html: the build's own icons, title and stylesheet. */
const INDEX_HTML = [
  '<!doctype html>',
  '<html lang="en">',
  '  <head>',
  '    <meta charset="UTF-8" />',
  '    <link rel="icon" href="/favicon.ico" sizes="32x32" />',
  '    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
  '    <link rel="apple-touch-icon" href="/apple-touch-icon.png" />',
  '    <title>LMS</title>',
  '    <script type="module" crossorigin src="/assets/app-abc123.js"></script>',
  '    <link rel="stylesheet" crossorigin href="/assets/app-abc123.css">',
  '  </head>',
  '  <body>',
  '    <div id="root"></div>',
  '  </body>',
  '</html>',
].join('\n');

type App = Awaited<ReturnType<typeof buildApp>>;

/**
 * One instance of the server with `webRoot` as its build, on `database` and the media in `dataDir`;
 * tests wait for every change it has not heard yet.
 */
const startInstance = (database: Database, { webRoot, dataDir }: { webRoot: string; dataDir: string }) =>
  buildApp(withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, PUBLIC_URL: SITE })), { database, webRoot, catchUpOnEveryRequest: true });

let database: Database;
let webRoot: string;
let dataDir: string;
/** Two instances on one database and one media store, as behind a load balancer. */
let first: App;
let second: App;
let admin: string;
let courseId: string;

beforeAll(async () => {
  webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-web-'));
  await fs.writeFile(path.join(webRoot, 'index.html'), INDEX_HTML);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
  database = await openTestDatabase();
  first = await startInstance(database, { webRoot, dataDir });
  second = await startInstance(database, { webRoot, dataDir });
  admin = (await signUpAdmin(first)).cookie;
  const form = await multipart({
    title: 'Practical SQL',
    description: 'Queries, joins and models.',
    category: 'Data',
    createdBy: 'Li Wei',
    thumbnail: { bytes: await pngImage(), filename: 'c.png', type: 'image/png' },
  });
  const created = await first.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin } });
  expect(created.statusCode, created.body).toBe(201);
  courseId = created.json().course._id;
  await publishCourseDirectly(first.ctx, courseId);
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await database?.close();
  await fs.rm(webRoot, { recursive: true, force: true });
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** Saves settings through `app`, as an administrator on that instance. */
async function save(app: App, payload: object) {
  const response = await app.inject({ method: 'PATCH', url: '/api/v1/settings', payload, headers: { cookie: admin } });
  expect(response.statusCode, response.body).toBe(200);
}
const page = (url: string, app: App = first) => app.inject({ url });

const titleOf = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1];
const metaOf = (html: string, key: string) => html.match(new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)" />`))?.[1];
/** The site the page carries, as the web app reads it (web/src/lib/site.ts). */
function siteOfPage(html: string): Site {
  const scripts = [...html.matchAll(/<script type="application\/json" id="lms-site">([\s\S]*?)<\/script>/g)];
  expect(scripts).toHaveLength(1);
  return JSON.parse(scripts[0]![1]!) as Site;
}
const linksOf = (html: string, rel: string) => [...html.matchAll(new RegExp(`<link rel="${rel}" href="([^"]*)"`, 'g'))].map((match) => match[1]);
const cspOf = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    String(headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  ) as Record<string, string[]>;

describe('every page carries the site', () => {
  it('a fresh site: the product’s name, the build’s icons, the manifest, no brand colours', async () => {
    const html = (await page('/')).body;
    expect(titleOf(html)).toBe(PRODUCT_NAME);
    expect(metaOf(html, 'og:site_name')).toBe(PRODUCT_NAME);
    expect(siteOfPage(html)).toMatchObject({ name: PRODUCT_NAME, logo: null, brand: null, testimonials: [] });
    expect(html).not.toContain('id="lms-brand"');
    expect(html).not.toContain('theme-color');
    expect(linksOf(html, 'icon')).toEqual(['/favicon.ico', '/favicon.svg']);
    expect(linksOf(html, 'apple-touch-icon')).toEqual(['/apple-touch-icon.png']);
    expect(linksOf(html, 'manifest')).toEqual(['/manifest.webmanifest']);
  });

  it('a name saved on one instance is on the other’s pages at once: title, link previews, the site’s JSON, course pages', async () => {
    // Both instances have rendered the page, and a course page, before the change.
    for (const app of [first, second]) {
      expect(titleOf((await page('/', app)).body)).toBe(PRODUCT_NAME);
      expect(titleOf((await page(`/course/description?id=${courseId}`, app)).body)).toBe(`Practical SQL · ${PRODUCT_NAME}`);
    }
    await save(second, { name: 'Acme Academy', shortName: 'Acme' });

    for (const url of ['/', '/courses', '/no/such/page']) {
      const html = (await page(url)).body;
      expect(titleOf(html), url).toBe('Acme Academy');
      expect(metaOf(html, 'og:site_name'), url).toBe('Acme Academy');
      expect(metaOf(html, 'og:title'), url).toBe('Acme Academy');
      expect(siteOfPage(html), url).toMatchObject({ name: 'Acme Academy', shortName: 'Acme' });
    }
    const course = (await page(`/course/description?id=${courseId}`)).body;
    expect(titleOf(course)).toBe('Practical SQL · Acme Academy');
    expect(metaOf(course, 'og:site_name')).toBe('Acme Academy');
    expect(metaOf(course, 'twitter:title')).toBe('Practical SQL · Acme Academy');
    expect(siteOfPage(course).name).toBe('Acme Academy');
    // The compressed page is the new one too.
    const br = await first.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe((await page('/')).body);
  });

  it('a testimonial holding </script> and line separators stays inside the JSON', async () => {
    const quote = 'Great course</script><script>alert(1)</script><!-- and \u2028 more \u2029 lines';
    await save(first, { testimonials: [{ quote, name: 'Eve <b>', role: '' }] });
    const html = (await page('/', second)).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<!--');
    expect(html).not.toMatch(/[\u2028\u2029]/);
    expect(siteOfPage(html).testimonials).toEqual([{ quote, name: 'Eve <b>', role: '' }]);
    // Nothing after the JSON was taken for a script: the page's own module script is still its only other one.
    expect([...html.matchAll(/<script\b/g)]).toHaveLength(2);
  });

  it('paints the brand’s colours, which the content security policy lets through; browsers’ bars take the primary', async () => {
    const brand: NonNullable<Brand> = { light: { primary: '#1d4ed8', content: '#ffffff' }, dark: { primary: '#93c5fd', content: '#000000' } };
    await save(first, { brand });
    const response = await page('/');
    const html = response.body;
    const style = html.match(/<style id="lms-brand">([^<]*)<\/style>/)?.[1];
    expect(style).toBe(brandCss(brand));
    // After the build's stylesheet, so it wins over daisyUI's theme.
    expect(html.indexOf('id="lms-brand"')).toBeGreaterThan(html.indexOf('/assets/app-abc123.css'));
    expect(html).toContain('<meta name="theme-color" media="(prefers-color-scheme: light)" content="#1d4ed8" />');
    expect(html).toContain('<meta name="theme-color" media="(prefers-color-scheme: dark)" content="#93c5fd" />');
    const csp = cspOf(response.headers);
    expect(csp['style-src']).toContain("'unsafe-inline'");
    expect(csp['script-src']).not.toContain("'unsafe-inline'");
    expect((await page(`/course/description?id=${courseId}`)).body).toContain(`<style id="lms-brand">${brandCss(brand)}</style>`);
    expect((await page('/manifest.webmanifest')).json()).toMatchObject({ theme_color: '#1d4ed8' });

    await save(first, { brand: null });
    expect((await page('/')).body).not.toContain('lms-brand');
  });

  it('with a logo, its icons replace the build’s in every page and in the manifest; without, the build’s come back', async () => {
    const form = await multipart({ logo: { bytes: await pngImage(300, 100), filename: 'logo.png', type: 'image/png' } });
    const put = await second.inject({ method: 'PUT', url: '/api/v1/settings/logo', payload: form.payload, headers: { ...form.headers, cookie: admin } });
    expect(put.statusCode, put.body).toBe(200);
    const logo = (await first.ctx.settings.current()).logo as StoredLogo;
    const url = (key: string) => first.ctx.media.publicUrl(key);

    for (const path of ['/', `/course/description?id=${courseId}`]) {
      const html = (await page(path)).body;
      expect(linksOf(html, 'icon'), path).toEqual([url(logo.icons[32])]);
      expect(linksOf(html, 'apple-touch-icon'), path).toEqual([url(logo.icons[180])]);
      expect(siteOfPage(html).logo, path).toEqual({ url: url(logo.key), width: 300, height: 100 });
    }
    expect((await page(linksOf((await page('/')).body, 'icon')[0]!)).headers['content-type']).toBe('image/png');
    expect((await page('/manifest.webmanifest')).json().icons).toEqual([
      { src: url(logo.icons[192]), sizes: '192x192', type: 'image/png' },
      { src: url(logo.icons[512]), sizes: '512x512', type: 'image/png' },
    ]);

    expect((await second.inject({ method: 'DELETE', url: '/api/v1/settings/logo', headers: { cookie: admin } })).statusCode).toBe(200);
    const html = (await page('/')).body;
    expect(linksOf(html, 'icon')).toEqual(['/favicon.ico', '/favicon.svg']);
    expect(linksOf(html, 'apple-touch-icon')).toEqual(['/apple-touch-icon.png']);
    expect(siteOfPage(html).logo).toBeNull();
  });
});

describe('/manifest.webmanifest', () => {
  it('names the site, opens it standalone at its root, with its colours and icons, cached a short while', async () => {
    await save(first, { name: 'Acme Academy', shortName: 'Acme' });
    const response = await page('/manifest.webmanifest');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.json()).toEqual({
      id: '/',
      name: 'Acme Academy',
      short_name: 'Acme',
      description: answers.siteDescription,
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: '#422ad5',
      background_color: '#ffffff',
      icons: [
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        { src: '/apple-touch-icon.png', sizes: '180x180', type: 'image/png' },
      ],
    });
    // The icons it lists without a logo are the build's (web/public).
    const publicFolder = path.join(import.meta.dirname, '../../../../web/public');
    for (const icon of response.json().icons as { src: string }[]) await fs.access(path.join(publicFolder, icon.src));
  });
});
