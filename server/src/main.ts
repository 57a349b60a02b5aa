import { buildApp } from './app.ts';
import { seedDemoCourses } from './cli/demo-courses.ts';
import { ensureInitialAdmin } from './cli/initial-admin.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { withSecrets } from './secrets.ts';

// Listens and shuts down gracefully; everything else lives in buildApp.
try {
  const config = withSecrets(loadConfig());
  const app = await buildApp(config);
  // Before the initial admin: it seeds only while the database has no accounts and no courses.
  await seedDemoCourses(app.ctx, (line) => app.log.info(line));
  // Plain console output, not a log record: the one-time credentials must be readable at a glance.
  await ensureInitialAdmin(app.ctx, (message) => console.log(message));
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stops accepting connections, lets requests in flight finish, then closes the database.
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
