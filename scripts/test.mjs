// `npm test`: everything that proves the product works, in the order that fails fastest.
// CI (.ci/run) sets TEST_DATABASE_URL and TEST_REDIS_URL so the server tests also run on
// PostgreSQL and the shared rate-limit test runs against Redis. The e2e step drives Debian's
// Chromium (installed here when missing) against the real server (e2e/global-setup.ts); the last
// step drives it through two instances behind nginx (e2e/cluster-setup.ts), given both services.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages } from './debian-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Test runners write JSON reports here; the closing line sums them up.
const results = path.join(root, 'test-results');
const CHROMIUM = '/usr/bin/chromium';

/** The e2e tests use Debian's Chromium, never a browser Playwright downloads: install it when missing. */
function ensureChromium() {
  try {
    ensureDebianPackages({ [CHROMIUM]: 'chromium' });
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
  process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL ? undefined : 'it needs PostgreSQL and Redis, named by TEST_DATABASE_URL and TEST_REDIS_URL (.ci/run sets both)';

const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['server tests', 'npm', ['test', '--workspace', 'server']],
  ['web tests', 'npm', ['test', '--workspace', 'web']],
  ['e2e', 'npm', ['run', 'test:e2e'], ensureChromium],
  ['e2e (cluster)', 'npm', ['run', 'test:e2e:cluster'], ensureChromium, clusterServicesMissing],
];

fs.rmSync(results, { recursive: true, force: true });
let failedStep;
for (const [name, command, args, prepare, missing] of steps) {
  console.log(`\n▶ ${name}`);
  const absent = missing?.();
  if (absent) {
    console.log(`Not run: ${absent}.`);
    continue;
  }
  const ready = prepare ? prepare() : true;
  const result = ready ? spawnSync(command, args, { cwd: root, stdio: 'inherit' }) : { status: 1 };
  if (result.status !== 0) {
    failedStep = name;
    break;
  }
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
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStep || totals.failed > 0 || totals.passed === 0 ? 1 : 0);
