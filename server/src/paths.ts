import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file sits one level below server/, as does the start bundle (server/dist/main.mjs),
// so the same relative path finds server/ whether the code runs from source or bundled.
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const paths = {
  migrations: path.join(serverDir, 'src/db/migrations'),
  demoAssets: path.join(serverDir, 'assets/demo'),
  webApp: path.join(serverDir, '../web/dist'),
  /** The sandbox's Checkout, browser JavaScript served as it is (features/sandbox/browser). */
  sandboxCheckoutScript: path.join(serverDir, 'src/features/sandbox/browser/checkout.js'),
  /** A new embedded database with the migrations applied, made by scripts/build.mjs (db/template.ts). */
  databaseTemplate: path.join(serverDir, 'dist/database-template'),
};
