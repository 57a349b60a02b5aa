import { chooseAdminPassword, startServer } from './server.ts';

/** The password the journeys' administrator has, once the setup has chosen it (the spec's rule: a digit and a special). */
export const ADMIN_PASSWORD = 'E2e#Admin2026';

/**
 * Starts the real server as `npm start` does, on a fresh data folder and a free port (3400 if
 * free), and does what a newcomer does first: replaces the initial administrator's handed-out
 * password, without which the server refuses that account everything else.
 * Tests find the server through E2E_BASE_URL, its data folder through E2E_DATA_DIR, and the
 * administrator through E2E_ADMIN_EMAIL and E2E_ADMIN_PASSWORD (see adminCredentials()).
 */
export default async function globalSetup() {
  const server = await startServer({ preferredPort: Number(process.env.E2E_PORT ?? 3400) });
  try {
    const admin = await chooseAdminPassword(server.baseUrl, server.dataDir, ADMIN_PASSWORD);
    process.env.E2E_ADMIN_EMAIL = admin.email;
    process.env.E2E_ADMIN_PASSWORD = admin.password;
  } catch (error) {
    await server.stop();
    throw error;
  }
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATA_DIR = server.dataDir;
  return server.stop;
}
