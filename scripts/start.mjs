// `npm start`: builds what is older than its sources (the web app with Vite, the server
// into one file with esbuild, which starts faster than compiling TypeScript on the fly), then runs the server.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);

function newestChange(file) {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(file).map((name) => newestChange(path.join(file, name))));
}
const isStale = (output, sources) =>
  (fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0) < Math.max(...sources.map((source) => newestChange(at(source))));

if (isStale(at('web/dist/index.html'), ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'contract/src'])) {
  console.log('Building the web app…');
  const vite = spawnSync('npm', ['run', 'build', '--workspace', 'web'], { cwd: root, stdio: 'inherit' });
  if (vite.status !== 0) process.exit(vite.status ?? 1);
}

const serverBundle = at('server/dist/main.mjs');
if (isStale(serverBundle, ['server/src', 'contract/src', 'package-lock.json'])) {
  console.log('Building the server…');
  await build({
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
}

const server = spawn(process.execPath, ['--enable-source-maps', serverBundle], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
