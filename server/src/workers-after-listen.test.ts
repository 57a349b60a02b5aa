import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { ensureInitialAdmin, INITIAL_ADMIN_EMAIL } from './cli/initial-admin.ts';
import { loadConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { startJobQueue } from './job-queue.ts';
import { withSecrets } from './secrets.ts';
import { openTestDatabase, TEST_ENV } from './test/app.ts';
import { mailTo, waitForMails } from './test/mail.ts';
import { startWorkers } from './workers.ts';

// A server starts its job queue and workers only once it listens (main.ts): what it answers meanwhile.
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function appWithWorkersLater() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-test-'));
  const database: Database = await openTestDatabase();
  const config = withSecrets(loadConfig({ ...TEST_ENV, DATA_DIR: dataDir }));
  const app = await buildApp(config, { database, jobsAfterListen: true, jobs: { retryDelaySeconds: 1, pollingIntervalSeconds: 0.5 } });
  cleanups.push(async () => {
    await app.close();
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });
  return { app, database, dataDir };
}

describe('a server whose workers start after it listens', () => {
  it('answers while they have not started, and mails what was asked meanwhile once they have', async () => {
    const { app, database, dataDir } = await appWithWorkersLater();
    await ensureInitialAdmin(app.ctx, () => undefined);

    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/courses' })).statusCode).toBe(200);
    const reset = await app.inject({ method: 'POST', url: '/api/v1/user/reset', payload: { email: INITIAL_ADMIN_EMAIL } });
    expect(reset.statusCode).toBe(200);
    // Stored, not yet mailed: no worker takes it.
    const { rows } = await database.execute(`SELECT state FROM pgboss.job WHERE name = 'password-reset'`);
    expect(rows).toEqual([{ state: 'created' }]);

    await startWorkers(app.ctx, { log: app.log });
    const [mail] = await waitForMails(dataDir, mailTo(INITIAL_ADMIN_EMAIL));
    expect(mail).toContain('/reset-password/');
    // And the schedules are kept, as on a start that waited for them.
    const schedules = await database.execute(`SELECT name FROM pgboss.schedule WHERE name = 'media-leftovers'`);
    expect(schedules.rows).toEqual([{ name: 'media-leftovers' }]);
  });

  it('stops at once when it stops before its workers start, and takes no job after', async () => {
    const { app } = await appWithWorkersLater();
    await app.ctx.jobs.stop();
    await expect(app.ctx.jobs.send('mail', { to: 'late@example.com', subject: 'Late', text: 'Never sent.' })).rejects.toThrow(/stopped/);
    await expect(startWorkers(app.ctx, { log: app.log })).rejects.toThrow(/stopped/);
  });
});

describe('a job queue started later', () => {
  it('starts at the first send, and runs the job once a worker takes it', async () => {
    const database = await openTestDatabase();
    cleanups.push(() => database.close());
    // Its logs are not what this looks at.
    const { log } = Fastify();
    const queue = await startJobQueue<{ 'later-test': { n: number } }>(database, { log, pollingIntervalSeconds: 0.5, startLater: true });
    cleanups.push(() => queue.stop());
    await queue.send('later-test', { n: 1 });
    const ran = new Promise<number>((resolve) => void queue.work('later-test', async ({ n }) => resolve(n)));
    expect(await ran).toBe(1);
  });
});
