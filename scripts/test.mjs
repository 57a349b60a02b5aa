// `npm test`: everything that proves the product works, in stages that fail fast. The steps of a
// stage share nothing, so they run side by side on the machine's cores; the next stage starts once
// every step of this one has passed. CI (.ci/run) sets TEST_DATABASE_URL and TEST_REDIS_URL so the
// server tests also run on PostgreSQL and the shared rate-limit test runs against Redis. The e2e
// step drives Debian's Chromium (installed here when missing) against the real server
// (e2e/global-setup.ts); the last step drives it through two instances behind nginx
// (e2e/cluster-setup.ts), given both services.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages } from './debian-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Test runners write JSON reports here; the closing line sums them up.
const results = path.join(root, 'test-results');
// The journeys' browser (e2e/playwright.config.ts): Debian's headless build of Chromium.
const CHROMIUM_HEADLESS = '/usr/bin/chromium-headless-shell';

/** The e2e tests use Debian's Chromium, never a browser Playwright downloads: install it when missing. */
function ensureChromium() {
  try {
    ensureDebianPackages({ [CHROMIUM_HEADLESS]: 'chromium-headless-shell' });
    return true;
  } catch (error) {
    console.error(error.message);
    return false;
  }
}

/**
 * The journeys through a cluster (e2e/playwright.cluster.config.ts) need PostgreSQL and Redis: they run
 * where TEST_DATABASE_URL and TEST_REDIS_URL name them (.ci/run sets both), as the server tests' PostgreSQL
 * project does; the step says why when it does not run. nginx is installed by scripts/cluster.mjs when missing.
 */
const clusterServicesMissing = () =>
  process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL
    ? undefined
    : 'it needs PostgreSQL and Redis, named by TEST_DATABASE_URL and TEST_REDIS_URL (.ci/run sets both)';

/** Each stage's steps run at once; a stage starts only when every step of the one before has passed. */
const stages = [
  [
    { name: 'typecheck', command: 'npm', args: ['run', 'typecheck'] },
    { name: 'lint', command: 'npm', args: ['run', 'lint'] },
    // The web app, the server bundle and the embedded database template, built once here: the server's
    // `npm start` test and both e2e steps start from them (scripts/build.mjs skips what is up to date).
    { name: 'build', command: process.execPath, args: ['scripts/build.mjs'] },
    { name: 'format', command: 'npm', args: ['run', 'format:check'] },
  ],
  [
    { name: 'server tests', command: 'npm', args: ['test', '--workspace', 'server'] },
    // One core's worth of jsdom, run while the server tests wait on timers, databases and ffmpeg.
    { name: 'web tests', command: 'npm', args: ['test', '--workspace', 'web'] },
  ],
  // Each starts its servers (and the cluster transcodes its demo videos) while the other's journeys
  // run; one browser each keeps two on the two cores, as one run with two workers had.
  [
    // The journeys the cluster step takes (CLUSTER_JOURNEYS in e2e/playwright.config.ts) run once, there.
    {
      name: 'e2e',
      command: 'npm',
      args: ['run', 'test:e2e', '--', '--workers=1'],
      prepare: ensureChromium,
      env: clusterServicesMissing() ? {} : { E2E_SKIP_CLUSTER_JOURNEYS: '1' },
    },
    { name: 'e2e (cluster)', command: 'npm', args: ['run', 'test:e2e:cluster', '--', '--workers=1'], prepare: ensureChromium, missing: clusterServicesMissing },
  ],
];

const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/**
 * Runs one step. The first step of a stage writes to the terminal as it goes; the others' output is
 * held and printed whole once the first has finished, so that no two steps' lines are mixed.
 */
function run(step, live) {
  const started = Date.now();
  const absent = step.missing?.();
  if (absent) return Promise.resolve({ step, ok: true, output: `Not run: ${absent}.\n`, took: '0 s' });
  if (step.prepare && !step.prepare()) return Promise.resolve({ step, ok: false, output: '', took: seconds(started) });
  return new Promise((resolve) => {
    const child = spawn(step.command, step.args, { cwd: root, env: { ...process.env, ...step.env }, stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    if (!live) for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => chunks.push(`${error.message}\n`));
    child.once('close', (code) => resolve({ step, ok: code === 0, output: chunks.join(''), took: seconds(started) }));
  });
}

fs.rmSync(results, { recursive: true, force: true });
const startedAll = Date.now();
let failedStep;
for (const stage of stages) {
  console.log(`\n▶ ${stage.map((step) => step.name).join(' ‖ ')}`);
  const [first, ...rest] = stage;
  const others = rest.map((step) => run(step, false));
  const outcomes = [await run(first, true), ...(await Promise.all(others))];
  for (const [index, { step, ok, output, took }] of outcomes.entries()) {
    if (index > 0) process.stdout.write(`\n▶ ${step.name}\n${output}`);
    console.log(`◀ ${step.name}: ${ok ? 'passed' : 'failed'} in ${took}`);
    if (!ok) failedStep ??= step.name;
  }
  if (failedStep) break;
}

// Vitest's JSON reports count numPassedTests…; Playwright's (test-results/e2e.json, e2e-cluster.json) have stats.
const totals = { passed: 0, failed: 0, skipped: 0 };
for (const file of fs.existsSync(results) ? fs.readdirSync(results).filter((name) => name.endsWith('.json')) : []) {
  const report = JSON.parse(fs.readFileSync(path.join(results, file), 'utf8'));
  if (report.stats) {
    totals.passed += report.stats.expected + report.stats.flaky;
    totals.failed += report.stats.unexpected;
    totals.skipped += report.stats.skipped;
  } else {
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests;
    totals.skipped += report.numPendingTests + report.numTodoTests;
  }
}
if (failedStep) console.error(`\n✗ ${failedStep} failed`);
console.log(`\nall steps: ${seconds(startedAll)}`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStep || totals.failed > 0 || totals.passed === 0 ? 1 : 0);
