import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paths } from './paths.ts';
import { testDatabaseKind } from './test/app.ts';
import { freePort, refusesConnections } from './test/server-process.ts';

const projectRoot = path.resolve(paths.webApp, '../..');
/** A first start may build the web app and the server, and creates the database. */
const START_TIMEOUT_MS = 4 * 60_000;

/** Whether any process of the group npm leads is still alive: npm, a shell, the server, a build. */
function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

interface Started {
  npm: ChildProcess;
  port: number;
  output: string[];
}

/** The real `npm start` on `dataDir` and a free port, in a process group of its own; answers once /healthz does. */
async function npmStart(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const port = await freePort();
  const output: string[] = [];
  const npm = spawn('npm', ['start'], {
    cwd: projectRoot,
    // Its own process group, as under a terminal or a service manager: what npm starts can be found, and cleaned up.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // The defaults, whatever the shell running the tests has set (empty means unset).
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      STORAGE: '',
      PAYMENTS_MODE: '',
      ...env,
    },
  });
  for (const stream of [npm.stdout!, npm.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  started.push(npm);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { npm, port, output };
    if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output.join('')}`);
    await sleep(250);
  }
}

/** Waits up to 10 s for every process of the group to be gone; answers whether they are. */
async function stopsWithin10s(npm: ChildProcess): Promise<boolean> {
  const signalled = Date.now();
  while (groupAlive(npm.pid!) && Date.now() - signalled < 10_000) await sleep(50);
  return !groupAlive(npm.pid!);
}

/** The embedded database's lock is released only when the server closes the database. */
const closedCleanly = (dataDir: string) =>
  fs.access(path.join(dataDir, 'db.lock')).then(
    () => false,
    () => true,
  );

const started: ChildProcess[] = [];

// With the embedded database: nothing here depends on the test database.
describe.skipIf(testDatabaseKind === 'postgres')('npm start', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-npm-start-'));
  });
  // A test that failed before stopping its server must not leave it holding the database the next one starts on.
  afterEach(async () => {
    for (const npm of started.splice(0)) {
      if (!npm.pid || !groupAlive(npm.pid)) continue;
      process.kill(-npm.pid, 'SIGKILL');
      while (groupAlive(npm.pid)) await sleep(50);
    }
  });
  afterAll(async () => {
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(
    'on a first start keeps the data folder to its owner, and stops with everything it started within 10 s of SIGTERM sent to npm (as a service manager sends it)',
    async () => {
      const { npm, port, output } = await npmStart(dataDir);

      const names = ['.', ...(await fs.readdir(dataDir, { recursive: true }))];
      const open: string[] = [];
      for (const name of names) {
        // The demo videos are being transcoded meanwhile: a segment's `.part` file may be renamed between the listing and this look.
        const stat = await fs.lstat(path.join(dataDir, name)).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        });
        if (stat && (stat.mode & 0o077) !== 0) open.push(`${(stat.mode & 0o777).toString(8)} ${name}`);
      }
      expect(names).toEqual(expect.arrayContaining(['db', 'session-secret', 'initial-admin.txt', 'media']));
      expect(open).toEqual([]);

      process.kill(npm.pid!, 'SIGTERM');
      expect(await stopsWithin10s(npm), `processes left running after SIGTERM:\n${output.join('')}`).toBe(true);
      expect(await refusesConnections(port)).toBe(true);
      expect(await closedCleanly(dataDir)).toBe(true);
    },
    START_TIMEOUT_MS + 30_000,
  );

  it(
    'closes cleanly on Ctrl-C, which reaches the server more than once (from the terminal, and passed on by npm)',
    async () => {
      const { npm, port, output } = await npmStart(dataDir);

      // What a terminal does: the signal goes to every process of the foreground group. Whether npm's
      // copy reaches the server before or after it has begun to close is a race; the second press decides it.
      // On a loaded machine the 50 ms between them can last long enough for the first to have closed everything:
      // a group already gone (ESRCH) has nothing left to press for.
      const press = () => {
        try {
          process.kill(-npm.pid!, 'SIGINT');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
        }
      };
      press();
      await sleep(50);
      press();
      expect(await stopsWithin10s(npm), `processes left running after SIGINT:\n${output.join('')}`).toBe(true);
      expect(await refusesConnections(port)).toBe(true);
      expect(await closedCleanly(dataDir)).toBe(true);
    },
    START_TIMEOUT_MS + 30_000,
  );

  it(
    'kill -9 while the demo videos are transcoded, then start again: every lecture is processed, and nothing is left over',
    async () => {
      const crashDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-npm-start-crash-'));
      try {
        // A dead run is handed over once it has been silent for 2 s.
        const env = { VIDEO_STALL_SECONDS: '2' };
        const first = await npmStart(crashDir, env);
        const work = path.join(crashDir, 'work');
        const transcoding = async () => (await fs.readdir(work).catch(() => [])).some((name) => name.startsWith('video-'));
        for (let tries = 0; tries < 600 && !(await transcoding()); tries++) await sleep(50);
        expect(await transcoding(), 'a demo video being transcoded').toBe(true);
        // The whole group at once, ffmpeg included: as a machine that loses power, or `kill -9` of the service.
        process.kill(-first.npm.pid!, 'SIGKILL');
        expect(await stopsWithin10s(first.npm)).toBe(true);
        await sleep(2500);

        const second = await npmStart(crashDir, env);
        const api = (url: string) => fetch(`http://127.0.0.1:${second.port}/api/v1${url}`).then((response) => response.json());
        const allProcessed = async () => {
          const { courses } = (await api('/courses?limit=100')) as { courses: { _id: string }[] };
          for (const course of courses) {
            const curriculum = (await api(`/courses/${course._id}/curriculum`)) as {
              lectures: { duration: number | null; preview: boolean; hls_url?: string }[];
            };
            // Durations come first; a preview's HLS URL shows once its ladder is ready.
            if (curriculum.lectures.some((lecture) => lecture.duration === null || (lecture.preview && !lecture.hls_url))) return false;
          }
          return courses.length > 0 && !(await transcoding());
        };
        for (let tries = 0; tries < 1200 && !(await allProcessed()); tries++) await sleep(100);
        expect(await allProcessed(), `lectures still unprocessed:\n${second.output.join('')}`).toBe(true);
        process.kill(second.npm.pid!, 'SIGTERM');
        expect(await stopsWithin10s(second.npm)).toBe(true);

        // Read the database now that the server is gone: every lecture ready, one ladder and one poster each, nothing else.
        const { openDatabase } = await import('./db/client.ts');
        const { lectures } = await import('./db/schema.ts');
        const database = await openDatabase({ dir: path.join(crashDir, 'db') });
        try {
          const rows = await database.db.select().from(lectures);
          expect(rows.map((row) => row.videoState)).toEqual(rows.map(() => 'ready'));
          const media = path.join(crashDir, 'media');
          expect((await fs.readdir(path.join(media, 'hls'))).sort()).toEqual(rows.map((row) => row.hlsKey!.slice('hls/'.length)).sort());
          expect((await fs.readdir(path.join(media, 'posters'))).sort()).toEqual(rows.map((row) => row.posterKey!.slice('posters/'.length)).sort());
          expect(await fs.readdir(work)).toEqual([]);
        } finally {
          await database.close();
        }
      } finally {
        await fs.rm(crashDir, { recursive: true, force: true });
      }
    },
    2 * START_TIMEOUT_MS + 60_000,
  );
});
