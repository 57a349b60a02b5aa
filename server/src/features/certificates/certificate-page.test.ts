import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateCodeForDisplay } from '@lms/contract/certificates';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { certificates } from '../../db/schema.ts';
import { withSecrets } from '../../secrets.ts';
import { openTestDatabase, TEST_ENV } from '../../test/app.ts';
import { multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';
import { newCertificateCode } from './certificates.service.ts';

const SITE = 'https://learn.example.com';
const INDEX_HTML = [
  '<!doctype html>',
  '<html lang="en">',
  '  <head>',
  '    <meta charset="UTF-8" />',
  '    <title>LMS</title>',
  '    <meta name="description" content="Built-in description" />',
  '  </head>',
  '  <body>',
  '    <div id="root"></div>',
  '  </body>',
  '</html>',
].join('\n');

let app: Awaited<ReturnType<typeof buildApp>>;
let close: () => Promise<void>;
let code: string;

const metaOf = (html: string, key: string) => {
  const all = [...html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)" \/>/g)].filter((match) => match[1] === key);
  expect(all.length, key).toBeLessThanOrEqual(1);
  return all[0]?.[2]?.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);
};
const titleOf = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1];

beforeAll(async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
  const webRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-web-'));
  await fs.writeFile(path.join(webRoot, 'index.html'), INDEX_HTML);
  const database = await openTestDatabase();
  app = await buildApp(withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir, PUBLIC_URL: SITE })), { database, webRoot });
  close = async () => {
    await app.close();
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rm(webRoot, { recursive: true, force: true });
  };
  const admin = await signUpAdmin(app);
  const learner = await signUp(app, { fullName: 'Asha <Verma>' });
  const form = await multipart({
    title: 'Practical SQL & friends',
    description: 'Queries.',
    category: 'Data',
    createdBy: 'Li Wei',
    thumbnail: { bytes: await pngImage(), filename: 'c.png', type: 'image/png' },
  });
  const course = await app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin.cookie } });
  const issued = await app.inject({
    method: 'POST',
    url: '/api/v1/admin/certificates',
    payload: { email: learner.email, courseId: course.json().course._id },
    headers: { cookie: admin.cookie },
  });
  expect(issued.statusCode, issued.body).toBe(201);
  code = issued.json().certificate.code;
  await app.ctx.db.update(certificates).set({ issuedAt: new Date('2026-11-20T06:00:00Z') }).where(eq(certificates.code, code));
});
afterAll(() => close?.());

describe('a certificate’s public page', () => {
  it('carries the certificate in its head for link previews, kept out of search results', async () => {
    // As a person types it: lower case, dashed; the canonical URL has the code as issued.
    const response = await app.inject({ url: `/certificates/${certificateCodeForDisplay(code).toLowerCase()}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = response.body;
    expect(titleOf(html)).toBe('Asha &lt;Verma&gt; — Practical SQL &amp; friends');
    expect(html).not.toContain('<Verma>');
    const description = 'Certificate of completion issued by LMS on 20 November 2026';
    expect({
      description: metaOf(html, 'description'),
      robots: metaOf(html, 'robots'),
      'og:title': metaOf(html, 'og:title'),
      'og:description': metaOf(html, 'og:description'),
      'og:url': metaOf(html, 'og:url'),
      'twitter:title': metaOf(html, 'twitter:title'),
      'twitter:description': metaOf(html, 'twitter:description'),
    }).toEqual({
      description,
      robots: 'noindex',
      'og:title': 'Asha <Verma> — Practical SQL & friends',
      'og:description': description,
      'og:url': `${SITE}/certificates/${code}`,
      'twitter:title': 'Asha <Verma> — Practical SQL & friends',
      'twitter:description': description,
    });
    expect(html).toContain(`<link rel="canonical" href="${SITE}/certificates/${code}" />`);
    // Only the page's own head: the build's title and description are replaced.
    expect(html).not.toContain('Built-in description');
  });

  it('says so in the preview when the certificate was revoked', async () => {
    await app.ctx.db.update(certificates).set({ revokedAt: new Date('2026-11-25T06:00:00Z') }).where(eq(certificates.code, code));
    const html = (await app.inject({ url: `/certificates/${code}` })).body;
    expect(metaOf(html, 'og:description')).toBe('Certificate of completion issued by LMS on 20 November 2026; revoked on 25 November 2026');
    await app.ctx.db.update(certificates).set({ revokedAt: null }).where(eq(certificates.code, code));
  });

  it('answers 404, with the app’s page and no certificate in its head, for an unknown or altered code', async () => {
    const altered = code.slice(0, 15) + (code[15] === 'A' ? 'B' : 'A');
    for (const text of [altered, newCertificateCode(), 'nonsense', 'x'.repeat(90)]) {
      const response = await app.inject({ url: `/certificates/${text}` });
      expect(response.statusCode, text).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('<div id="root"></div>');
      expect(metaOf(response.body, 'robots')).toBe('noindex');
      expect(metaOf(response.body, 'og:url')).toBeUndefined();
      expect(response.body).not.toContain('Verma');
    }
  });
});
