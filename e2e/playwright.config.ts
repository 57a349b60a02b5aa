import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from '../scripts/chromium.mjs';

/** Installed by scripts/test.mjs (the `chromium-headless-shell` package) when missing. */
const CHROMIUM_HEADLESS = '/usr/bin/chromium-headless-shell';

/**
 * The journeys that take their path through what a cluster changes: the database and storage
 * behind it, the caches and sessions the instances share, the webhooks and jobs that land on
 * either instance. `npm test` runs them through the cluster (playwright.cluster.config.ts) and
 * not again here, where it sets E2E_SKIP_CLUSTER_JOURNEYS; without the cluster's services they run
 * here. The video pipeline's journey runs on both, as the embedded server transcodes into and
 * serves HLS from its own folder and the cluster from the bucket. Payments and lectures on the
 * embedded database and local storage are also the server tests' (both databases, both storages).
 */
export const CLUSTER_JOURNEYS = [
  // Payments: webhooks and returns on either instance, documents in the bucket.
  'checkout.spec.ts',
  'sandbox-widget.spec.ts',
  'billing.spec.ts',
  'plans.spec.ts',
  // Lectures and their videos: uploads through nginx, media from the bucket, caches invalidated on both.
  'courses.spec.ts',
  'course-page.spec.ts',
  'lecture-preview.spec.ts',
  'progress.spec.ts',
  'admin.spec.ts',
  // The agreement between instances.
  'cluster.spec.ts',
];
/** Journeys that run on both. */
export const EVERYWHERE = ['video-pipeline.spec.ts'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Whole journeys in Debian's Chromium (never a downloaded browser) against the real server,
 * started by global-setup.ts on a fresh data folder. `npm test` runs this after the unit tests.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  testIgnore: process.env.E2E_SKIP_CLUSTER_JOURNEYS ? CLUSTER_JOURNEYS : ['cluster.spec.ts'],
  globalSetup: './global-setup.ts',
  // Two cores: the server, Chromium and two workers share them.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: path.join(root, 'test-results', 'e2e.json') }]],
  // Outside test-results/, where scripts/test.mjs reads only reports.
  outputDir: path.join(root, 'e2e', '.output'),
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      // Debian's headless build of the same Chromium: the browser without its windowing layer, for a sixth
      // less CPU over the journeys on two cores. Screenshots and the bench keep the full browser.
      executablePath: CHROMIUM_HEADLESS,
      args: [...CHROMIUM_ARGS],
    },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    // An action or a navigation that never ends fails where it waits, named in the report. Left to
    // the test's timeout, it is reported wherever the test was when time ran out: often the
    // clean-up in a `finally`, whose error replaces the first.
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
  },
});
