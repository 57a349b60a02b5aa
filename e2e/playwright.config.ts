import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Whole journeys in Debian's Chromium (never a downloaded browser) against the real server,
 * started by global-setup.ts on a fresh data folder. `npm test` runs this after the unit tests.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Two instances behind nginx: playwright.cluster.config.ts runs it.
  testIgnore: 'cluster.spec.ts',
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
      executablePath: '/usr/bin/chromium',
      // The machine has no network but the registries: without these Chromium keeps calling home.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
});
