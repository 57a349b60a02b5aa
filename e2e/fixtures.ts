import fs from 'node:fs';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';

/** Every page is served by the server global-setup.ts started; its address is known only then. */
export const test = base.extend({
  baseURL: async ({ baseURL }, use) => use(process.env.E2E_BASE_URL ?? baseURL),
});
export { expect };
export type { Page };

export const dataDir = () => {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run through playwright.config.ts, whose global setup starts the server');
  return dir;
};

/** The administrator the server's first start created, with the password global-setup.ts chose for it. */
export function adminCredentials() {
  const { E2E_ADMIN_EMAIL: email, E2E_ADMIN_PASSWORD: password } = process.env;
  if (!email || !password)
    throw new Error('E2E_ADMIN_EMAIL and E2E_ADMIN_PASSWORD are not set: run through playwright.config.ts, whose global setup sets them');
  return { email, password };
}

let counter = 0;
/** A new person for each journey, so tests running side by side never meet. */
export function newPerson(label: string) {
  const id = `${Date.now().toString(36)}${process.pid.toString(36)}${(counter++).toString(36)}`;
  return { fullName: `E2E ${label} ${id}`, email: `e2e-${label}-${id}@example.com`.toLowerCase(), password: 'Learn#2024' };
}

/** A real PNG of one colour, made here: the server decodes and re-encodes every avatar. */
export function pngFile(name: string, [r, g, b]: [number, number, number], size = 16) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  const buffer = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return { name, mimeType: 'image/png', buffer };
}

/** Opens the side menu as a visitor does, and gives back its navigation. */
export async function openMenu(page: Page) {
  const header = page.getByRole('banner');
  // The hamburger: a named button, or daisyUI's drawer label (named or, once hidden from assistive tech, by its class).
  const hamburger = header
    .getByRole('button', { name: /open the menu/i })
    .or(header.getByLabel(/open the menu/i))
    .or(header.locator('label.drawer-button'))
    .first();
  // From 1024 px a top bar replaces it (e2e/navigation.spec.ts): the side menu is a phone's and a tablet's, so look as a tablet does.
  if (!(await hamburger.isVisible())) await page.setViewportSize({ width: 800, height: page.viewportSize()?.height ?? 720 });
  await hamburger.click();
  const menu = page.getByRole('navigation', { name: 'Main' });
  await expect(menu).toBeVisible();
  return menu;
}

export async function signUp(page: Page, person: { fullName: string; email: string; password: string }) {
  await page.goto('/Signup');
  await page.getByLabel(/profile picture|avatar/i).setInputFiles(pngFile('avatar.png', [30, 120, 200]));
  await page.getByLabel(/full name|^name/i).fill(person.fullName);
  await page.getByLabel(/^email/i).fill(person.email);
  await page.getByLabel(/^password/i).fill(person.password);
  await page.getByRole('button', { name: /create account|sign ?up/i }).click();
  await expect(page).toHaveURL(/\/$/);
}

export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/^email/i).fill(email);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole('button', { name: /^log ?in$/i }).click();
}

/** Logs in and waits until the app has taken the visitor on, away from /login. */
export async function logInAs(page: Page, email: string, password: string) {
  await logIn(page, email, password);
  await expect(page).not.toHaveURL(/\/login$/);
}

/**
 * The newest message in the server's .eml outbox addressed to `to` (and holding `containing`),
 * with quoted-printable's soft line breaks undone; waits for it to arrive.
 */
export async function newestMail(to: string, containing = ''): Promise<string> {
  const outbox = path.join(dataDir(), 'mail');
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const files = fs.existsSync(outbox)
          ? fs
              .readdirSync(outbox)
              .filter((file) => file.endsWith('.eml'))
              .sort()
          : [];
        found = files
          .map((file) => fs.readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, ''))
          .filter((mail) => mail.split(/\r?\n/).some((line) => /^To:/i.test(line) && line.includes(to)) && mail.includes(containing))
          .at(-1);
        return found !== undefined;
      },
      { message: `a mail to ${to}` },
    )
    .toBe(true);
  return found!;
}

/** An account made straight through the API, for journeys about something else. */
export async function registerByApi(request: APIRequestContext, person: { fullName: string; email: string; password: string }) {
  const response = await request.post(`${process.env.E2E_BASE_URL}/api/v1/user/register`, {
    multipart: { fullName: person.fullName, email: person.email, password: person.password, avatar: pngFile('avatar.png', [200, 80, 40]) },
  });
  expect(response.ok(), await response.text()).toBe(true);
}
