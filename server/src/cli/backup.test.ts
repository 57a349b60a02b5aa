import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_FILES } from '../backup/snapshot.ts';
import { paths } from '../paths.ts';
import { testDatabaseKind } from '../test/app.ts';
import { multipart, pngImage } from '../test/http.ts';
import { childEnv, killAllServers, runNpmScript, startServer } from '../test/server-process.ts';
import { runAdminCommand } from './admin.ts';
import { runBackupCommand } from './backup.ts';
import { runRestoreCommand } from './restore.ts';

const projectRoot = path.resolve(paths.migrations, '../../../..');
const demoVideo = path.join(paths.demoAssets, 'lecture-intro.mp4');
/** Two servers start, one on a new database, and a video is transcoded in between; the cores are shared with other test files. */
const TIMEOUT_MS = 6 * 60_000;

const ADMIN = { email: 'owner@example.com', password: 'Owner#2024', name: 'Site Owner' };
const LEARNER = { fullName: 'Meera Iyer', email: 'meera@example.com', password: 'learn#2024' };

/** What a browser would do, against a server process: JSON in and out, a session cookie. */
function client(origin: string) {
  return async (
    method: string,
    url: string,
    { cookie, json, form }: { cookie?: string; json?: object; form?: { payload: Buffer; headers: Record<string, string> } } = {},
  ) => {
    const response = await fetch(`${origin}${url}`, {
      method,
      headers: { ...(cookie && { cookie }), ...(json && { 'content-type': 'application/json' }), ...form?.headers },
      body: json ? JSON.stringify(json) : form ? new Uint8Array(form.payload) : undefined,
    });
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Not JSON: a video, a playlist.
    }
    return {
      status: response.status,
      body,
      text,
      cookie: response.headers
        .getSetCookie()
        .find((line) => line.startsWith('lms_session='))
        ?.split(';')[0],
    };
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await sleep(250);
  }
}

/** Paths under `folder` that the group or others may read, write or enter. */
async function openToOthers(folder: string): Promise<string[]> {
  const open: string[] = [];
  for (const name of ['.', ...(await fs.readdir(folder, { recursive: true }))]) {
    const stat = await fs.lstat(path.join(folder, name));
    if ((stat.mode & 0o077) !== 0) open.push(`${(stat.mode & 0o777).toString(8)} ${name}`);
  }
  return open;
}

/** The files under `folder`, all the way down, sorted. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

type Lecture = { _id: string; title: string; secure_url: string; hls_url: string | null; processing: { state: string } };

// The embedded database's backup: nothing here depends on the test database.
describe.skipIf(testDatabaseKind === 'postgres')('npm run backup and npm run restore', () => {
  let work: string;
  let dataDir: string;
  let archive: string | undefined;

  beforeAll(async () => {
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-backup-'));
    dataDir = path.join(work, 'data');
  });
  afterAll(async () => {
    killAllServers();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it(
    'backs up a running server with accounts, a course, a lecture and a payment; restored into a new folder, a server finds them all',
    async () => {
      // An administrator first: a database with an account gets no demo courses.
      const made = await runAdminCommand(['--email', ADMIN.email, '--password', ADMIN.password, '--name', ADMIN.name], childEnv(dataDir));
      expect(made, made.output).toMatchObject({ code: 0 });
      const first = await startServer(dataDir);
      const api = client(first.origin);

      const admin = (await api('POST', '/api/v1/user/login', { json: { email: ADMIN.email, password: ADMIN.password } })).cookie!;
      const signup = await api('POST', '/api/v1/user/register', {
        form: await multipart({ ...LEARNER, avatar: { bytes: await pngImage(), filename: 'me.png', type: 'image/png' } }),
      });
      expect(signup.status, signup.text).toBe(201);
      const learner = signup.cookie!;
      const avatarUrl = (signup.body.user as { avatar: { secure_url: string } }).avatar.secure_url;

      const created = await api('POST', '/api/v1/courses', {
        cookie: admin,
        form: await multipart({
          title: 'Bookkeeping for Small Shops',
          description: 'Ledgers, invoices and GST returns, one week at a time.',
          category: 'Business',
          createdBy: 'Site Owner',
          thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
        }),
      });
      expect(created.status, created.text).toBe(201);
      const courseId = (created.body.course as { _id: string })._id;
      const video = await fs.readFile(demoVideo);
      const added = await api('POST', `/api/v1/courses/${courseId}`, {
        cookie: admin,
        form: await multipart({
          title: 'Opening the books',
          description: 'The first ledger.',
          lectures: { bytes: video, filename: 'intro.mp4', type: 'video/mp4' },
        }),
      });
      expect(added.status, added.text).toBe(201);
      expect((await api('POST', `/api/v1/courses/${courseId}/publish`, { cookie: admin, json: {} })).status).toBe(200);
      // The site's settings: a name, and a legal page of the seller's own.
      expect((await api('PATCH', '/api/v1/settings', { cookie: admin, json: { name: 'Ledger School' } })).status).toBe(200);
      expect((await api('PUT', '/api/v1/pages/terms', { cookie: admin, json: { markdown: '# Our terms' } })).status).toBe(200);

      // The learner pays in the sandbox's Checkout, as the checkout page does.
      const subscribed = await api('POST', '/api/v1/payments/subscribe', { cookie: learner });
      expect(subscribed.status, subscribed.text).toBe(200);
      const paid = await api('POST', `/sandbox/v1/subscriptions/${String(subscribed.body.subscription_id)}/pay`, {
        json: { card_number: '4111 1111 1111 1111' },
      });
      expect(paid.status, paid.text).toBe(200);
      const verified = await api('POST', '/api/v1/payments/verify', { cookie: learner, json: paid.body });
      expect(verified.status, verified.text).toBe(200);
      const payments = async (call: typeof api, cookie: string) =>
        ((await call('GET', '/api/v1/payments?count=10', { cookie })).body.allPayments as
          { payment_id: string; payer: { email: string }; amount: number }[] | undefined) ?? [];
      const payment = await until('the payment in the admin’s list', async () => (await payments(api, admin)).find((row) => row.payer.email === LEARNER.email));

      // Backed up once the video pipeline is done, so that its ladder is in the backup too.
      const lecturesOf = async (call: typeof api, cookie: string) =>
        ((await call('GET', `/api/v1/courses/${courseId}`, { cookie })).body.lectures as Lecture[] | undefined) ?? [];
      const before = await until('the lecture’s HLS ladder', async () => {
        const [lecture] = await lecturesOf(api, learner);
        expect(lecture?.processing.state).not.toBe('failed');
        return lecture?.hls_url ? lecture : undefined;
      });

      // Every file at the top of DATA_DIR is one a backup keeps: a new secret file belongs in KEPT_FILES.
      const topFiles = (await fs.readdir(dataDir, { withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name);
      expect(topFiles.filter((name) => name !== 'db.lock' && !(KEPT_FILES as readonly string[]).includes(name))).toEqual([]);

      // The backup, while the server keeps answering a signed-in learner.
      archive = path.join(work, 'backup.tar.gz');
      let backingUp = true;
      const answers: number[] = [];
      const meanwhile = (async () => {
        while (backingUp) answers.push((await api('GET', '/api/v1/user/me', { cookie: learner })).status);
      })();
      expect(await fs.readdir(dataDir)).toContain('control.sock');
      expect((await fs.stat(path.join(dataDir, 'control.sock'))).mode & 0o777).toBe(0o600);
      const backup = await runNpmScript(projectRoot, ['backup', '--', archive], childEnv(dataDir));
      backingUp = false;
      await meanwhile;
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toMatch(/The server is running \(process \d+\)/);
      expect(backup.output).toMatch(/Backup written: .*backup\.tar\.gz/);
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.filter((status) => status !== 200)).toEqual([]);
      expect((await fs.stat(archive)).mode & 0o777).toBe(0o600);
      expect(await fs.readdir(work)).toEqual(expect.not.arrayContaining([expect.stringMatching(/\.partial$/)]));
      expect((await fs.readdir(path.join(dataDir, 'media'))).filter((name) => name.startsWith('.backup-'))).toEqual([]);

      // A restore refuses the folder of a running server.
      const intoRunning = await runRestoreCommand([archive], childEnv(dataDir), () => {});
      expect(intoRunning.code).toBe(1);
      expect(intoRunning.output).toMatch(/in use by process/);

      await first.stop();
      // Closed with the server: no socket left for the next command to find.
      expect(await fs.readdir(dataDir)).toEqual(expect.not.arrayContaining(['control.sock', 'db.lock']));

      const restoredDir = path.join(work, 'restored');
      const restore = await runNpmScript(projectRoot, ['restore', '--', archive], childEnv(restoredDir));
      expect(restore.code, restore.output).toBe(0);
      expect(restore.output).toMatch(/2 accounts, 1 course, 1 lecture, 1 payment\b/);
      expect(await openToOthers(restoredDir)).toEqual([]);
      expect(await filesUnder(path.join(restoredDir, 'media'))).toEqual(await filesUnder(path.join(dataDir, 'media')));

      const second = await startServer(restoredDir);
      const again = client(second.origin);
      // The learner signs in with their password; the session from before the backup still works too.
      const relogin = await again('POST', '/api/v1/user/login', { json: { email: LEARNER.email, password: LEARNER.password } });
      expect(relogin.status, relogin.text).toBe(200);
      expect((await again('GET', '/api/v1/user/me', { cookie: learner })).status).toBe(200);
      // The site's settings came back with the rest.
      expect(((await again('GET', '/api/v1/site')).body.site as { name: string }).name).toBe('Ledger School');
      expect((await again('GET', '/api/v1/pages/terms')).body.page).toMatchObject({ markdown: '# Our terms', template: false });
      const courses = (await again('GET', '/api/v1/courses')).body.courses as { _id: string; title: string; thumbnail: { secure_url: string } }[];
      expect(courses.map((course) => course.title)).toEqual(['Bookkeeping for Small Shops']);
      expect((await fetch(`${second.origin}${courses[0]!.thumbnail.secure_url}`)).status).toBe(200);
      expect((await fetch(`${second.origin}${avatarUrl}`)).status).toBe(200);

      // Still a subscriber: the lecture is listed for them, and its ladder plays under a playback lease.
      const [lecture] = await lecturesOf(again, relogin.cookie!);
      expect(lecture).toMatchObject({ _id: before._id, title: 'Opening the books' });
      const leased = await again('POST', '/api/v1/playback', { cookie: relogin.cookie!, json: { lectureId: lecture!._id } });
      expect(leased.status, leased.text).toBe(201);
      const playlist = await fetch(`${second.origin}${lecture!.hls_url!}`, { headers: { cookie: relogin.cookie! } });
      expect(playlist.status).toBe(200);
      expect(await playlist.text()).toMatch(/^#EXTM3U/);
      // A link signed before the backup: the session secret came back with it.
      expect((await again('POST', '/api/v1/playback', { cookie: learner, json: { lectureId: lecture!._id } })).status).toBe(201);
      expect((await fetch(`${second.origin}${before.hls_url!}`, { headers: { cookie: learner } })).status).toBe(200);

      // The upload came back byte for byte: the administrator's link to the original.
      const adminAgain = (await again('POST', '/api/v1/user/login', { json: { email: ADMIN.email, password: ADMIN.password } })).cookie!;
      const [original] = await lecturesOf(again, adminAgain);
      const range = await fetch(`${second.origin}${original!.secure_url}`, { headers: { cookie: adminAgain, range: 'bytes=0-1023' } });
      expect(range.status).toBe(206);
      expect(Buffer.from(await range.arrayBuffer())).toEqual(video.subarray(0, 1024));

      expect(await payments(again, adminAgain)).toEqual([expect.objectContaining({ payment_id: payment.payment_id, amount: payment.amount })]);
      await second.stop();
    },
    TIMEOUT_MS,
  );

  it(
    'backs up a stopped server from its folder, and restores only into an empty DATA_DIR',
    async () => {
      expect(archive, 'the backup of the test above').toBeDefined();
      const lines: string[] = [];
      const stopped = path.join(work, 'stopped.tar.gz');
      const backup = await runBackupCommand([stopped], childEnv(dataDir), (line) => lines.push(line));
      expect(backup, lines.join('\n')).toMatchObject({ code: 0 });
      expect(lines).toContain('No server is running: the database was copied from its folder.');

      // Stopped at once (Ctrl-C): nothing written, no snapshot left.
      const cancelled = path.join(work, 'cancelled.tar.gz');
      const stoppedEarly = await runBackupCommand([cancelled], childEnv(dataDir), () => {}, AbortSignal.abort());
      expect(stoppedEarly.code).toBe(1);
      expect(stoppedEarly.output).toMatch(/nothing written/);
      expect((await fs.readdir(work)).filter((name) => name.startsWith('cancelled'))).toEqual([]);
      expect((await fs.readdir(path.join(dataDir, 'media'))).filter((name) => name.startsWith('.backup-'))).toEqual([]);

      const full = await runRestoreCommand([stopped], childEnv(dataDir), () => {});
      expect(full.code).toBe(1);
      expect(full.output).toMatch(/already holds a database or media/);

      const fresh = path.join(work, 'from-stopped');
      const restored = await runRestoreCommand([stopped], childEnv(fresh), () => {});
      expect(restored, restored.output).toMatchObject({ code: 0 });
      expect((await fs.readdir(fresh)).sort()).toEqual(
        ['db', 'media', ...(await fs.readdir(dataDir)).filter((name) => (KEPT_FILES as readonly string[]).includes(name))].sort(),
      );
    },
    TIMEOUT_MS,
  );

  it('refuses a truncated or foreign archive, leaving DATA_DIR as it was', async () => {
    expect(archive, 'the backup of the first test').toBeDefined();
    const whole = await fs.readFile(archive!);
    const truncated = path.join(work, 'truncated.tar.gz');
    await fs.writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const foreign = path.join(work, 'foreign.tar.gz');
    await fs.writeFile(foreign, 'not a backup');

    const empty = path.join(work, 'empty');
    await fs.mkdir(empty);
    for (const file of [truncated, foreign]) {
      const refused = await runRestoreCommand([file], childEnv(empty), () => {});
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/damaged or incomplete[\s\S]*Nothing was restored/);
      expect(await fs.readdir(empty)).toEqual([]);
    }
    // A folder the restore had to make is gone again.
    const missing = path.join(work, 'missing');
    expect((await runRestoreCommand([truncated], childEnv(missing), () => {})).code).toBe(1);
    await expect(fs.access(missing)).rejects.toThrow();
  });

  it('leaves PostgreSQL and S3 to their own tools, pointing at docs/backups.md', async () => {
    const postgres = await runBackupCommand([], childEnv(dataDir, { DATABASE_URL: 'postgres://lms@127.0.0.1:5432/lms' }), () => {});
    expect(postgres.code).toBe(1);
    expect(postgres.output).toMatch(/DATABASE_URL is set[\s\S]*pg_dump[\s\S]*docs\/backups\.md|docs\/backups\.md[\s\S]*pg_dump/);
    const s3 = await runBackupCommand(
      [],
      childEnv(dataDir, { STORAGE: 's3', S3_BUCKET: 'lms-media', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' }),
      () => {},
    );
    expect(s3.code).toBe(1);
    expect(s3.output).toMatch(/STORAGE=s3[\s\S]*docs\/backups\.md/);
    expect(await fs.readdir(work)).toEqual(expect.not.arrayContaining([expect.stringMatching(/^lms-backup-/)]));
  });
});
