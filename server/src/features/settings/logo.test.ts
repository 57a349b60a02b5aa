import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { LOGO_UPLOADS_PER_WINDOW } from '../../rate-limit.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { multipart, pngImage, signUp, signUpAdmin, type Upload } from '../../test/http.ts';
import { mediaRoot } from '../media/storage.ts';
import { ICON_SIZES, type StoredLogo } from './site-settings.ts';

/** Small enough that an oversized logo is quick to send. */
const IMAGE_MAX_BYTES = 300_000;

let t: TestApp;
let admin: string;
let learner: string;
beforeAll(async () => {
  t = await createTestApp({ env: { IMAGE_MAX_BYTES: String(IMAGE_MAX_BYTES) } });
  admin = (await signUpAdmin(t.app)).cookie;
  learner = (await signUp(t.app)).cookie;
});
afterAll(() => t?.close());

async function putLogo(file: Upload | undefined, cookie = admin) {
  const form = await multipart(file ? { logo: file } : { note: 'no file' });
  return t.app.inject({ method: 'PUT', url: '/api/v1/settings/logo', payload: form.payload, headers: { ...form.headers, cookie } });
}
const removeLogo = (cookie = admin) => t.app.inject({ method: 'DELETE', url: '/api/v1/settings/logo', headers: { cookie } });
const site = async () => (await t.app.inject({ url: '/api/v1/site' })).json().site;
/** The logo's row as the database holds it: its files' keys. */
const storedLogo = async () => (await t.app.ctx.settings.current()).logo as StoredLogo | null;
/** Every file in the logos' folder. */
const logoFiles = async () => (await fs.readdir(path.join(mediaRoot(t.dataDir), 'logos')).catch(() => [] as string[])).sort();
const fileNames = (logo: StoredLogo) => [logo.key, ...ICON_SIZES.map((size) => logo.icons[size])].map((key) => key.slice('logos/'.length)).sort();
/** A stored file as a browser gets it. */
const fetchMedia = (key: string) => t.app.inject({ url: t.app.ctx.media.publicUrl(key) });

const wideLogo = (format: 'png' | 'webp') => {
  const red = sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } });
  return (format === 'png' ? red.png() : red.webp()).toBuffer();
};
const hostileSvg = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" onload="alert(1)">' +
    '<script>alert(document.cookie)</script><a href="javascript:alert(2)"><circle cx="12" cy="12" r="10" fill="teal"/></a></svg>',
);

describe('the logo', () => {
  it('takes a PNG, keeps it as the header shows it and makes the icons: square, 180 on white, the rest transparent', async () => {
    const response = await putLogo({ bytes: await wideLogo('png'), filename: 'logo.png', type: 'image/png' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: answers.logoSaved });
    const logo = (await storedLogo())!;
    expect(response.json().settings.site.logo).toEqual({ url: t.app.ctx.media.publicUrl(logo.key), width: 300, height: 100 });
    expect(await site()).toMatchObject({ logo: { width: 300, height: 100 } });

    const file = await fetchMedia(logo.key);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(await sharp(file.rawPayload).metadata()).toMatchObject({ format: 'png', width: 300, height: 100 });
    for (const size of ICON_SIZES) {
      const icon = await fetchMedia(logo.icons[size]);
      expect(icon.statusCode, String(size)).toBe(200);
      expect(icon.headers['content-type']).toBe('image/png');
      expect(await sharp(icon.rawPayload).metadata(), String(size)).toMatchObject({ format: 'png', width: size, height: size });
    }
    // The wide logo fills the icon's width, centred; above and below it, the corner is transparent, or white for iOS.
    const corner = async (size: 180 | 192) =>
      (
        await sharp((await fetchMedia(logo.icons[size])).rawPayload)
          .ensureAlpha()
          .raw()
          .toBuffer()
      ).subarray(0, 4);
    expect([...(await corner(192))][3]).toBe(0);
    expect([...(await corner(180))]).toEqual([255, 255, 255, 255]);
    expect(await logoFiles()).toEqual(fileNames(logo));
  });

  it('takes a WebP, kept as WebP', async () => {
    const response = await putLogo({ bytes: await wideLogo('webp'), filename: 'logo.webp', type: 'image/webp' });
    expect(response.statusCode, response.body).toBe(200);
    const logo = (await storedLogo())!;
    expect(logo.mime).toBe('image/webp');
    expect((await fetchMedia(logo.key)).headers['content-type']).toBe('image/webp');
    const icon = await fetchMedia(logo.icons[192]);
    expect(await sharp(icon.rawPayload).metadata()).toMatchObject({ format: 'png', width: 192, height: 192 });
  });

  it('draws an SVG as a picture large enough to stay sharp, leaving its scripts and links behind', async () => {
    const response = await putLogo({ bytes: hostileSvg, filename: 'logo.svg', type: 'image/svg+xml' });
    expect(response.statusCode, response.body).toBe(200);
    const logo = (await storedLogo())!;
    // A 24 × 24 viewBox, drawn to fill the logo's box rather than at 24 pixels.
    expect(response.json().settings.site.logo).toMatchObject({ width: 512, height: 512 });
    const file = await fetchMedia(logo.key);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.includes('alert')).toBe(false);
    expect(await sharp(file.rawPayload).metadata()).toMatchObject({ format: 'png', width: 512, height: 512 });
    const icon = await fetchMedia(logo.icons[192]);
    expect(await sharp(icon.rawPayload).metadata()).toMatchObject({ width: 192, height: 192 });
  });

  it('replacing the logo removes the previous one’s files', async () => {
    const before = (await storedLogo())!;
    expect((await putLogo({ bytes: await pngImage(40, 40), filename: 'new.png', type: 'image/png' })).statusCode).toBe(200);
    const after = (await storedLogo())!;
    expect(after.key).not.toBe(before.key);
    expect(await logoFiles()).toEqual(fileNames(after));
    expect((await fetchMedia(before.key)).statusCode).toBe(404);
  });

  it.each([
    { name: 'text renamed .png', file: { bytes: Buffer.from('just some text, not a picture at all\n'.repeat(20)), filename: 'logo.png', type: 'image/png' } },
    { name: 'a JPEG', file: { bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(200)]), filename: 'logo.jpg', type: 'image/jpeg' } },
    { name: 'a PNG cut short', file: { bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.alloc(100)]), filename: 'logo.png' } },
  ])('refuses $name with 400, keeping the logo there was', async ({ file }) => {
    const before = await storedLogo();
    const response = await putLogo(file);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: answers.logoNotImage });
    expect(await storedLogo()).toEqual(before);
    expect(await logoFiles()).toEqual(fileNames(before!));
  });

  it('refuses a picture of more pixels than it decodes (a small file that unpacks to a hundred megabytes)', async () => {
    const before = await storedLogo();
    const bomb = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(IMAGE_MAX_BYTES);
    const response = await putLogo({ bytes: bomb, filename: 'logo.png', type: 'image/png' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(answers.logoNotImage);
    expect(await logoFiles()).toEqual(fileNames(before!));
  });

  it('refuses a file over the picture limit, naming the limit', async () => {
    const before = await storedLogo();
    const big = Buffer.concat([await pngImage(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const response = await putLogo({ bytes: big, filename: 'logo.png', type: 'image/png' });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ success: false, message: answers.logoTooLarge('292 KB') });
    expect(await logoFiles()).toEqual(fileNames(before!));
  });

  it('asks for a file when none or an empty one came', async () => {
    for (const file of [undefined, { bytes: Buffer.alloc(0), filename: 'logo.png', type: 'image/png' }]) {
      const response = await putLogo(file);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.logoMissing });
    }
  });

  it('is only an administrator’s to change', async () => {
    const before = await storedLogo();
    const png = { bytes: await pngImage(), filename: 'logo.png', type: 'image/png' };
    expect((await putLogo(png, learner)).statusCode).toBe(403);
    expect((await removeLogo(learner)).statusCode).toBe(403);
    expect((await putLogo(png, '')).statusCode).toBe(401);
    expect(await storedLogo()).toEqual(before);
    expect(await logoFiles()).toEqual(fileNames(before!));
  });

  it('an administrator sending logo after logo is told to wait', async () => {
    const busy = (await signUpAdmin(t.app)).cookie;
    // Refused requests count as well: each one is a body to read.
    for (let i = 0; i < LOGO_UPLOADS_PER_WINDOW; i++) expect((await putLogo(undefined, busy)).statusCode).toBe(400);
    const response = await putLogo({ bytes: await pngImage(), filename: 'logo.png', type: 'image/png' }, busy);
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({ success: false, message: answers.tooManyRequests });
    // Another administrator is not held up.
    expect((await putLogo(undefined)).statusCode).toBe(400);
  });

  it('removing it leaves no logo and no files; the site shows none', async () => {
    const response = await removeLogo();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: answers.logoRemoved, settings: { site: { logo: null } } });
    expect(await site()).toMatchObject({ logo: null });
    expect(await storedLogo()).toBeNull();
    expect(await logoFiles()).toEqual([]);
    // Removing no logo is not an error.
    expect((await removeLogo()).statusCode).toBe(200);
  });
});
