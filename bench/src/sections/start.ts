import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bench } from '../bench.ts';
import { freePort, waitUntilUp } from '../processes.ts';
import { root } from '../product.ts';
import { median, ms, type Measurement, type SectionResult } from '../report.ts';

const BUDGET_MS = 3000;

interface Started {
  /** From spawning `npm start` to the first 200 from /healthz. */
  upMs: number;
  origin: string;
  /** SIGTERM to npm, as a service manager sends it to the process it started; answers the milliseconds until npm has exited. */
  stop(): Promise<number>;
}

/**
 * `npm start` itself: npm, the staleness check of the build (already done, as after `npm install &&
 * npm start` once), the server. Timed to the first 200 from /healthz, as a load balancer sees it.
 */
async function npmStart(bench: Bench, dataDir: string): Promise<Started> {
  const port = await freePort();
  const log = fs.openSync(path.join(bench.workDir, 'npm-start.log'), 'a');
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir };
  // The defaults, whatever the shell running the bench has set.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'STORAGE', 'VIDEO_PROCESSING', 'SHUTDOWN_GRACE_SECONDS']) delete env[name];
  const started = performance.now();
  // Its own process group, so that whatever is left after a failed run can be cleaned up.
  const npm = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', log, log], detached: true });
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(`${origin}/healthz`, { pollMs: 10 });
  } catch (error) {
    process.kill(-npm.pid!, 'SIGKILL');
    throw error;
  }
  return {
    upMs: performance.now() - started,
    origin,
    async stop() {
      const signalled = performance.now();
      npm.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(30_000).then(() => false)]);
      const took = performance.now() - signalled;
      if (!stopped) {
        process.kill(-npm.pid!, 'SIGKILL');
        throw new Error('npm start did not stop within 30 s of SIGTERM');
      }
      return took;
    },
  };
}

/** Until the first start's demo lectures are processed: every duration known, every free preview streaming. */
async function demoVideosProcessed(origin: string) {
  const api = async <T>(url: string) => (await (await fetch(`${origin}/api/v1${url}`)).json()) as T;
  for (let tries = 0; tries < 1200; tries++) {
    const { courses } = await api<{ courses: { _id: string }[] }>('/courses?limit=100');
    const curricula = await Promise.all(
      courses.map((course) => api<{ lectures: { duration: number | null; preview: boolean; hls_url?: string }[] }>(`/courses/${course._id}/curriculum`)),
    );
    if (curricula.flatMap((curriculum) => curriculum.lectures).every((lecture) => lecture.duration !== null && (!lecture.preview || lecture.hls_url))) return;
    await sleep(500);
  }
  throw new Error('the demo lectures were not processed within 10 minutes');
}

/** A start's time with the machine's load average (1 min) as it came up: the times stretch with it. */
interface Timed {
  ms: number;
  load: number;
}
const timed = (upMs: number): Timed => ({ ms: upMs, load: os.loadavg()[0]! });
const stopFigures = (times: number[]) => `${ms(median(times))} (median of ${times.length}: ${times.map((t) => ms(t)).join(', ')})`;
const figures = (runs: Timed[]) => {
  const each = runs.map((run) => `${ms(run.ms)} at load ${run.load.toFixed(1)}`).join(', ');
  return runs.length === 1 ? each : `${ms(median(runs.map((run) => run.ms)))} (median of ${runs.length}: ${each})`;
};

/** The server's source a stale-build start touches, as a `git pull` that changed the server would. */
const TOUCHED_SOURCE = path.join(root, 'server/src/main.ts');

/**
 * `npm start` after a source file changed: it builds the server again first. The file's times are
 * put back afterwards (the bundle built from it stays, newer than it).
 */
async function staleBuildStart(bench: Bench, dataDir: string): Promise<Timed> {
  const before = fs.statSync(TOUCHED_SOURCE);
  const bundle = path.join(root, 'server/dist/main.mjs');
  const built = fs.statSync(bundle).mtimeMs;
  fs.utimesSync(TOUCHED_SOURCE, before.atime, new Date());
  try {
    const server = await npmStart(bench, dataDir);
    const run = timed(server.upMs);
    await server.stop();
    if (fs.statSync(bundle).mtimeMs <= built) throw new Error('npm start did not build the server again after a source file changed');
    return run;
  } finally {
    fs.utimesSync(TOUCHED_SOURCE, before.atime, before.mtime);
  }
}

/**
 * What the README and docs/operations.md promise about starting and stopping: a first start (a
 * fresh DATA_DIR: the database made, the demo courses added, the initial administrator created),
 * later starts on the folder a first start left (the budgeted row), a later start whose build is
 * stale, and how long SIGTERM takes to stop it, idle and while the demo videos of a first start are
 * being transcoded.
 */
export async function measureStart(bench: Bench): Promise<SectionResult> {
  // One first start fewer than later ones (the budgeted row), one alone when judging budgets: each first start waits out a database copy and the demo's seeding.
  const laterRuns = bench.sizes.startRuns;
  const firstRuns = bench.budgets ? 1 : Math.max(1, laterRuns - 1);
  // These times stretch with whatever else keeps the cores busy: said beside them.
  const loadBefore = os.loadavg()[0]!;
  const first: Timed[] = [];
  const stopTranscoding: number[] = [];
  let dataDir = '';
  for (let attempt = 0; attempt < firstRuns; attempt++) {
    dataDir = fs.mkdtempSync(path.join(bench.workDir, 'first-start-'));
    const server = await npmStart(bench, dataDir);
    first.push(timed(server.upMs));
    // The demo videos are being transcoded now, as after every first start.
    stopTranscoding.push(await server.stop());
  }

  // Later starts find what a first start leaves once it has run a while: its demo videos processed.
  const settling = await npmStart(bench, dataDir);
  await demoVideosProcessed(settling.origin);
  await settling.stop();
  const later: Timed[] = [];
  const stopIdle: number[] = [];
  for (let attempt = 0; attempt < laterRuns; attempt++) {
    const server = await npmStart(bench, dataDir);
    later.push(timed(server.upMs));
    // Idle: past the start's own work (the leftover sweep, the first polls of the job queue).
    await sleep(3000);
    stopIdle.push(await server.stop());
  }
  const staleBuild = bench.budgets ? undefined : await staleBuildStart(bench, dataDir);

  const rows: Measurement[] = [
    { what: '`npm start`, first start: a fresh DATA_DIR, the build already done, to the first 200 from /healthz', measured: figures(first) },
    {
      what: '`npm start`, later starts on the DATA_DIR a first start left, the build up to date, to the first 200 from /healthz',
      measured: figures(later),
      budget: '≤ 3 s',
      met: median(later.map((run) => run.ms)) <= BUDGET_MS,
    },
    ...(staleBuild
      ? [
          {
            what: '`npm start` after a server source file changed (it builds the server first), a later start, to the first 200 from /healthz',
            measured: figures([staleBuild]),
          },
        ]
      : []),
    { what: 'SIGTERM to npm until it has exited, idle', measured: stopFigures(stopIdle) },
    { what: 'SIGTERM to npm until it has exited, right after a first start (the demo videos being transcoded)', measured: stopFigures(stopTranscoding) },
  ];
  const notes = [
    `Load average (1 min) of the machine, ${os.cpus().length} cores: ${loadBefore.toFixed(1)} as the section began, ${os.loadavg()[0]!.toFixed(1)} as it ended.`,
  ];
  return { title: 'Start and stop', rows, notes };
}
