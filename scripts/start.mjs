// `npm start`: builds what is older than its sources, then runs the server bundle.
import { spawn } from 'node:child_process';
import { buildIfStale, root, serverBundle } from './build.mjs';

try {
  await buildIfStale();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const server = spawn(process.execPath, ['--enable-source-maps', serverBundle], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
