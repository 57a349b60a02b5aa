import { buildApp } from './app.ts';
import { listenForBackups } from './backup/control-socket.ts';
import { seedDemoCourses } from './cli/demo-courses.ts';
import { ensureInitialAdmin } from './cli/initial-admin.ts';
import { ConfigError, loadConfig } from './config.ts';
import { closeToOthers, makeDataDirPrivate } from './data-dir.ts';
import { databaseTargetOf } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { writeEventLoopStats } from './event-loop-stats.ts';
import { LEFTOVER_AGE_MS, sweepMediaLeftovers } from './features/media/leftovers.ts';
import { withSecrets } from './secrets.ts';
import { startWorkers } from './workers.ts';

/** How long after listening the job queue's workers begin (below). */
const WORKERS_AFTER_LISTEN_MS = 1000;

// Listens and shuts down gracefully; everything else lives in buildApp.
try {
  const settings = loadConfig();
  // First of all, before the secrets and the database are written there.
  const privacy = makeDataDirPrivate(settings.dataDir);
  const config = withSecrets(settings);
  // The job queue and its workers start once the server listens (below).
  const app = await buildApp(config, { jobsAfterListen: true });
  const embedded = databaseTargetOf(config);
  // PGlite sets the modes of its own files, past the umask: closed again now that it has written them.
  const database = 'dir' in embedded ? { folder: embedded.dir, ...closeToOthers(embedded.dir) } : undefined;
  if (privacy.tightened.count > 0) {
    app.log.info(
      { folder: config.dataDir, count: privacy.tightened.count, paths: privacy.tightened.paths },
      'closed files and folders in DATA_DIR that others could read',
    );
  }
  for (const { folder, failed } of [{ folder: config.dataDir, ...privacy }, ...(database ? [database] : [])]) {
    if (failed.count > 0) {
      app.log.warn({ folder, count: failed.count, paths: failed.paths }, 'could not make these DATA_DIR files private; are they owned by another user?');
    }
  }
  // Before listening, though each costs a query or two on a later start: a sign-up answered first
  // would leave a first start without its demo courses (it seeds only while the database has no
  // accounts and no courses), and the administrator it prints must be able to sign in at once.
  // Before the initial admin, for the same reason.
  if (config.demoContent) await seedDemoCourses(app.ctx, (line) => app.log.info(line));
  // Plain console output, not a log record: the one-time credentials must be readable at a glance.
  // The password itself only on a terminal; a journal or a piped log would keep it.
  await ensureInitialAdmin(app.ctx, (message) => console.log(message), { interactive: process.stdout.isTTY === true });
  const sweeping = new AbortController();
  let closing = false;
  // Set once the server listens: the job queue's workers, begun a moment later.
  let workersLater: NodeJS.Timeout | undefined = undefined;
  // Set once the server listens; a stop before then has no backup socket to close.
  let backups: Awaited<ReturnType<typeof listenForBackups>> = undefined;
  const shutdown = async (signal: string, exitCode = 0) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    sweeping.abort();
    clearTimeout(workersLater);
    // A service manager waits for us (TimeoutStopSec), so does a person at Ctrl-C: an upload that
    // would hold the close for minutes is cut off instead, and its .part file swept at the next start.
    setTimeout(() => {
      app.log.warn(`requests still running ${config.shutdownGraceSeconds} s after ${signal}; exiting without them`);
      process.exit(1);
    }, config.shutdownGraceSeconds * 1000).unref();
    await backups?.close();
    // Marks the instance draining (/readyz answers 503), stops accepting connections, lets requests in
    // flight finish (uploads too), hands running jobs back to the queue, then closes the database.
    await app.close();
    process.exit(exitCode);
  };
  // Kept for repeats, which are ignored: Ctrl-C under `npm start` reaches the server twice (from the
  // terminal, and passed on by npm), as SIGTERM does under systemd's default KillMode. With no handler
  // left, the second would kill the server mid-close, leaving the embedded database unclosed.
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  // `npm run backup` while the server runs (backup/control-socket.ts).
  backups = await listenForBackups(app);
  if (config.eventLoopStatsFile) writeEventLoopStats(config.eventLoopStatsFile);
  // Not awaited: the server serves meanwhile. Before listening, loading pg-boss, its start-up queries
  // and cron keeping and the look for stalled videos were a quarter of a later start's work; a job
  // sent meanwhile is stored and waits for these workers, as it would for a busy one. Begun a moment
  // after listening rather than at once: the first requests (a load balancer's probe, visitors
  // waiting out the restart) are answered first, not after pg-boss's loading and its queries, which
  // hold this thread and the embedded database's one connection.
  workersLater = setTimeout(() => {
    void (async () => {
      try {
        await startWorkers(app.ctx, { log: app.log });
      } catch (error) {
        if (closing) return;
        // A server whose jobs would never run must not look healthy: stopped, as a failed start was.
        app.log.fatal({ err: error }, 'the job queue did not start');
        return void shutdown('a failed start of the job queue', 1);
      }
      await sweepMediaLeftovers(app.ctx, { olderThanMs: LEFTOVER_AGE_MS, log: app.log, signal: sweeping.signal }).catch((error: unknown) => {
        if (!closing) app.log.error({ err: error }, 'sweeping media leftovers failed');
      });
    })();
  }, WORKERS_AFTER_LISTEN_MS);
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
