// Builds what is older than its sources: the web app with Vite, and the server into one
// file with esbuild, which starts faster than compiling TypeScript on the fly.
// Used by `npm start` and by the benchmarks, which run the server exactly as `npm start` does.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);
export const serverBundle = at('server/dist/main.mjs');

function newestChange(file) {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...fs.readdirSync(file).map((name) => newestChange(path.join(file, name))));
}
const isStale = (output, sources) =>
  (fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0) < Math.max(...sources.map((source) => newestChange(at(source))));

export async function buildIfStale() {
  if (isStale(at('web/dist/index.html'), ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'contract/src'])) {
    console.log('Building the web app…');
    const vite = spawnSync('npm', ['run', 'build', '--workspace', 'web'], { cwd: root, stdio: 'inherit' });
    if (vite.status !== 0) throw new Error('The web app did not build.');
  }
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
}
