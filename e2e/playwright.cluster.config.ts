import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The journeys of payments and lectures once more, through two instances behind nginx on
 * PostgreSQL, s3rver and Redis (cluster-setup.ts starts them with scripts/cluster.mjs), and the
 * agreement between instances (cluster.spec.ts). `npm test` runs it after the e2e step.
 */
export default defineConfig({
  ...base,
  testMatch: [
    // Payments.
    'checkout.spec.ts',
    'checkout-return.spec.ts',
    'sandbox-widget.spec.ts',
    'billing.spec.ts',
    'plans.spec.ts',
    // Lectures and their videos.
    'courses.spec.ts',
    'course-page.spec.ts',
    'lecture-preview.spec.ts',
    'video-pipeline.spec.ts',
    'progress.spec.ts',
    'admin.spec.ts',
    'cluster.spec.ts',
  ],
  testIgnore: [],
  globalSetup: './cluster-setup.ts',
  reporter: [['list'], ['json', { outputFile: path.join(root, 'test-results', 'e2e-cluster.json') }]],
  outputDir: path.join(root, 'e2e', '.output-cluster'),
});
