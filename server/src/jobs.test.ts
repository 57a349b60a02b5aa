import fs from 'node:fs/promises';
import path from 'node:path';
import timers from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mediaRoot } from './features/media/storage.ts';
import { queueMail } from './mail.ts';
import { startJobQueue } from './job-queue.ts';
import { createTestApp, openTestDatabase, type TestApp } from './test/app.ts';
import { waitForJobs, waitForMails } from './test/mail.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('the job queue', () => {
  it('keeps its jobs in the database and runs them: a queued mail arrives', async () => {
    await queueMail(t.app.ctx, { to: 'queued@example.com', subject: 'From the queue', text: 'Sent by a job.' });
    const [mail] = await waitForMails(t.dataDir, (text) => text.includes('Subject: From the queue'));
    expect(mail).toContain('To: queued@example.com');
    const { rows } = await t.database.execute(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail' AND state = 'completed'`);
    expect(rows[0]).toEqual({ n: 1 });
  });

  it('sweeps media leftovers every hour, and the sweep runs as a job', async () => {
    const { rows } = await t.database.execute(`SELECT name, cron, timezone FROM pgboss.schedule ORDER BY name`);
    // Billing's sweeps and reminders beside it (features/billing), certificates' PDFs never queued
    // (features/certificates), the checkouts left unpaid
    // (features/payments), scheduled publishing (features/courses), the playbacks kept for the
    // leak trace (features/protection), complimentary access past its end and administrators' refunds left pending (features/learners);
    // video's are off in tests.
    expect(rows).toEqual([
      { name: 'abandoned-checkouts', cron: '17 * * * *', timezone: 'UTC' },
      { name: 'admin-refunds-pending', cron: '* * * * *', timezone: 'UTC' },
      { name: 'billing-pdf-stalled', cron: '* * * * *', timezone: 'UTC' },
      { name: 'certificate-pdf-stalled', cron: '* * * * *', timezone: 'UTC' },
      { name: 'complimentary-expiry', cron: '* * * * *', timezone: 'UTC' },
      { name: 'lifecycle-mail-unsent', cron: '* * * * *', timezone: 'UTC' },
      { name: 'media-leftovers', cron: '17 * * * *', timezone: 'UTC' },
      { name: 'playback-history', cron: '17 * * * *', timezone: 'UTC' },
      { name: 'renewal-reminders', cron: '17 * * * *', timezone: 'UTC' },
      { name: 'scheduled-publishing', cron: '* * * * *', timezone: 'UTC' },
    ]);

    // A lecture upload a crash cut short two hours ago.
    const leftover = path.join(mediaRoot(t.dataDir), 'videos', `${'ab'.repeat(16)}.mp4.1234abcd.part`);
    await fs.mkdir(path.dirname(leftover), { recursive: true });
    await fs.writeFile(leftover, 'half a video');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    await fs.utimes(leftover, twoHoursAgo, twoHoursAgo);

    await t.app.ctx.jobs.send('media-leftovers', {});
    await waitForJobs(t.database);
    await expect(fs.access(leftover)).rejects.toThrow();
  });
});

describe('stopping the job queue', () => {
  it('lets the completion of a job that just finished reach the database before the database closes', async () => {
    const database = await openTestDatabase();
    const log = t.app.log;
    const queue = await startJobQueue<{ 'stop-test': { n: number } }>(database, { log, pollingIntervalSeconds: 0.5 });
    let finish!: () => void;
    let begin!: () => void;
    const started = new Promise<void>((resolve) => (begin = resolve));
    await queue.work('stop-test', () => {
      begin();
      return new Promise<void>((done) => (finish = done));
    });
    await queue.send('stop-test', { n: 1 });
    await started;
    // The job ends while the queue is stopping: pg-boss then marks it complete without awaiting that.
    const stopping = queue.stop();
    finish();
    await stopping;
    const { rows } = await database.execute(`SELECT state FROM pgboss.job WHERE name = 'stop-test'`);
    expect(rows).toEqual([{ state: 'completed' }]);
    await database.close();
    // Closed: a send now fails at once instead of waiting on a database that is gone.
    await expect(queue.send('stop-test', { n: 2 })).rejects.toThrow(/stopped/);
  });

  it('stops once a job that gives up at the abort has ended, not at the next half-second look of pg-boss', async () => {
    const database = await openTestDatabase();
    const queue = await startJobQueue<{ 'abort-test': { n: number } }>(database, { log: t.app.log, pollingIntervalSeconds: 0.5 });
    let begin!: () => void;
    const started = new Promise<void>((resolve) => (begin = resolve));
    // As a transcode does: at the abort it kills its ffmpeg, and fails once that has exited, a moment later.
    await queue.work('abort-test', (_data, { signal }) => {
      begin();
      return new Promise<void>((_resolve, reject) => {
        signal.addEventListener('abort', () => setTimeout(() => reject(new Error('stopped', { cause: signal.reason })), 50), { once: true });
      });
    });
    await queue.send('abort-test', { n: 1 });
    await started;
    // pg-boss's stop (its index.js) waits with this function, half a second at a time, while it sees a job running.
    const stopWaits: unknown[] = [];
    const wait = timers.setTimeout;
    const waits = vi.spyOn(timers, 'setTimeout').mockImplementation((...args: Parameters<typeof wait>) => {
      if (new Error().stack?.includes('pg-boss/src/index.js')) stopWaits.push(args[0]);
      return wait(...args);
    });
    try {
      await queue.stop();
      expect(stopWaits).toEqual([]);
    } finally {
      waits.mockRestore();
    }
    const { rows } = await database.execute(`SELECT state FROM pgboss.job WHERE name = 'abort-test'`);
    expect(rows).toEqual([{ state: 'retry' }]);
    await database.close();
  });

  it('hands a job still running 5 s after the stop back to the queue, to be retried', async () => {
    const database = await openTestDatabase();
    const queue = await startJobQueue<{ 'stuck-test': { n: number } }>(database, { log: t.app.log, pollingIntervalSeconds: 0.5 });
    let begin!: () => void;
    const started = new Promise<void>((resolve) => (begin = resolve));
    // Deaf to the stop's abort signal, as a job in a long call may be.
    await queue.work('stuck-test', () => {
      begin();
      return new Promise<void>(() => undefined);
    });
    await queue.send('stuck-test', { n: 1 });
    await started;
    await queue.stop();
    // pg-boss counts the try when it takes the job again.
    const { rows } = await database.execute(`SELECT state FROM pgboss.job WHERE name = 'stuck-test'`);
    expect(rows).toEqual([{ state: 'retry' }]);
    await database.close();
  });
});

describe('an instance killed holding a job', () => {
  it('leaves it to another instance once it expires: it runs again there', async () => {
    const database = await openTestDatabase();
    type OrphanJobs = { 'orphan-test': { n: number } };
    // Expired 2 s after it was taken, looked for every second (production: per queue, and pg-boss's 2 minutes).
    const survivor = await startJobQueue<OrphanJobs>(database, {
      log: t.app.log,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
      maintenanceIntervalSeconds: 1,
      rules: { 'orphan-test': { expireInSeconds: 2 } },
    });
    try {
      await survivor.send('orphan-test', { n: 1 });
      // What SIGKILL leaves of a job an instance was running: taken, and never to be finished or failed by it.
      const { rows: held } = await database.execute(
        `UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 minute' WHERE name = 'orphan-test' RETURNING id`,
      );
      expect(held).toHaveLength(1);
      const ran = new Promise<{ n: number }>((resolve) => void survivor.work('orphan-test', async (data) => resolve(data)));
      await expect(ran).resolves.toEqual({ n: 1 });
      await waitForJobs(database);
      const { rows } = await database.execute(`SELECT state, retry_count FROM pgboss.job WHERE name = 'orphan-test'`);
      expect(rows).toEqual([{ state: 'completed', retry_count: 1 }]);
    } finally {
      await survivor.stop();
      await database.close();
    }
  }, 30_000);
});

describe("the job queue's report of each try", () => {
  it('says which queue, how long, and whether it completed, failed to be retried, or failed for good', async () => {
    const database = await openTestDatabase();
    const queue = await startJobQueue<{ 'report-test': { fail: boolean } }>(database, {
      log: t.app.log,
      pollingIntervalSeconds: 0.5,
      retryDelaySeconds: 1,
      rules: { 'report-test': { retryLimit: 1, retryDelaySeconds: 1 } },
    });
    const done: { name: string; outcome: string; seconds: number }[] = [];
    queue.onJobDone((job) => done.push(job));
    await queue.work('report-test', async ({ fail }) => {
      if (fail) throw new Error('refused on purpose');
    });
    await queue.send('report-test', { fail: false });
    await queue.send('report-test', { fail: true });
    for (let tries = 0; tries < 100 && done.length < 3; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    await queue.stop();
    await database.close();
    expect(done.map(({ name, outcome }) => ({ name, outcome })).sort((a, b) => a.outcome.localeCompare(b.outcome))).toEqual([
      { name: 'report-test', outcome: 'completed' },
      { name: 'report-test', outcome: 'failed' },
      { name: 'report-test', outcome: 'retry' },
    ]);
    for (const { seconds } of done) expect(seconds).toBeGreaterThanOrEqual(0);
  });
});
