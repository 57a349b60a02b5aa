// Builds what is older than its sources: the web app with Vite, the server into one file with
// esbuild, which starts faster than compiling TypeScript on the fly, and a new embedded database
// for first starts to copy (server/src/db/template.ts).
// Used by `npm start` and by the benchmarks, which run the server exactly as `npm start` does;
// `node scripts/build.mjs` builds without starting (a deployment whose service may not write here).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);
export const serverBundle = at('server/dist/main.mjs');
/** Where server/src/paths.ts looks for it. */
export const databaseTemplate = at('server/dist/database-template');

function newestChange(file) {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(file).map((name) => newestChange(path.join(file, name))));
}
const isStale = (output, sources) => (fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0) < Math.max(...sources.map((source) => newestChange(at(source))));

export async function buildIfStale() {
  if (isStale(at('web/dist/index.html'), ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'contract/src'])) {
    console.log('Building the web app…');
    // Always a production build: started from a test runner (NODE_ENV=test), Vite would otherwise
    // ship React's development JSX runtime, and every later start, e2e run and bench would use it.
    const vite = spawnSync('npm', ['run', 'build', '--workspace', 'web'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    if (vite.status !== 0) throw new Error('The web app did not build.');
  }
  if (isStale(serverBundle, ['server/src', 'contract/src', 'package-lock.json'])) {
    console.log('Building the server…');
    // Loaded only to build, and stopped after: its service process would otherwise live as long as the server.
    const esbuild = await import('esbuild');
    await esbuild.build({
      entryPoints: [at('server/src/main.ts')],
      outfile: serverBundle,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Our workspaces are bundled; installed packages load from node_modules as usual.
      alias: { '@lms/contract': at('contract/src') },
      packages: 'external',
      sourcemap: true,
      logLevel: 'warning',
    });
    await esbuild.stop();
  }
  // Made again when PGlite (in the lock file) or the migrations change.
  if (isStale(path.join(databaseTemplate, 'PG_VERSION'), ['package-lock.json', 'server/src/db/migrations'])) {
    console.log('Making a new embedded database for first starts…');
    await makeDatabaseTemplate();
  }
}

/** PGlite's new database with the migrations applied, as the server would make it on a first start. */
async function makeDatabaseTemplate() {
  const made = `${databaseTemplate}.new`;
  fs.rmSync(made, { recursive: true, force: true });
  const { PGlite } = await import('@electric-sql/pglite');
  // The extensions the migrations use, as db/client.ts's createPglite loads them.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = await PGlite.create({ dataDir: made, extensions: { pg_trgm } });
  try {
    await migrate(drizzle({ client }), { migrationsFolder: at('server/src/db/migrations') });
  } finally {
    await client.close();
  }
  // Readable by the service's user, who is not the checkout's owner (docs/lms.service), and by no
  // one writable: PGlite writes its files 0666. Nothing in it is secret; each copy is made private.
  for (const name of ['.', ...fs.readdirSync(made, { recursive: true })]) {
    const file = path.join(made, String(name));
    fs.chmodSync(file, fs.statSync(file).isDirectory() ? 0o755 : 0o644);
  }
  // Stamped now: the staleness check compares this file's time with the sources'.
  const now = new Date();
  fs.utimesSync(path.join(made, 'PG_VERSION'), now, now);
  fs.rmSync(databaseTemplate, { recursive: true, force: true });
  fs.renameSync(made, databaseTemplate);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await buildIfStale();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
