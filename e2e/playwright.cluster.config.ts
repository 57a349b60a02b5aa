import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base, { CLUSTER_JOURNEYS, EVERYWHERE } from './playwright.config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The journeys whose path a cluster changes (CLUSTER_JOURNEYS), through two instances behind nginx
 * on PostgreSQL, s3rver and Redis (cluster-setup.ts starts them with scripts/cluster.mjs), and the
 * agreement between instances (cluster.spec.ts). `npm test` runs it beside the e2e step.
 */
export default defineConfig({
  ...base,
  testMatch: [...CLUSTER_JOURNEYS, ...EVERYWHERE],
  testIgnore: [],
  globalSetup: './cluster-setup.ts',
  reporter: [['list'], ['json', { outputFile: path.join(root, 'test-results', 'e2e-cluster.json') }]],
  outputDir: path.join(root, 'e2e', '.output-cluster'),
});
