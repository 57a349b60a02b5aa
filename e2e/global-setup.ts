import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `preferred` if nothing listens there, otherwise whatever port the system hands out. */
async function freePort(preferred: number): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const probe = net.createServer();
      probe.once('error', () => resolve(undefined));
      probe.listen(port, '127.0.0.1', () => {
        const { port: bound } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(bound));
      });
    });
  return (await tryListen(preferred)) ?? (await tryListen(0))!;
}

async function waitForHealth(baseUrl: string, server: ChildProcess, output: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) break;
    const healthy = await fetch(`${baseUrl}/healthz`).then((response) => response.ok, () => false);
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The server did not become healthy at ${baseUrl}/healthz. Its output:\n${output.join('')}`);
}

function stopGroup(server: ChildProcess, signal: NodeJS.Signals) {
  try {
    // Negative pid: the whole group, i.e. scripts/start.mjs and the server it started.
    process.kill(-server.pid!, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts the real server the way `npm start` does (scripts/start.mjs builds the web app and the
 * server bundle when their sources changed) on a fresh data folder and a free port. The first start
 * creates the initial admin (DATA_DIR/initial-admin.txt) and seeds the demo courses.
 * Tests find the server through E2E_BASE_URL and its data folder through E2E_DATA_DIR.
 */
export default async function globalSetup() {
  const port = await freePort(Number(process.env.E2E_PORT ?? 3400));
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lms-e2e-'));
  const output: string[] = [];

  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Embedded database, local media and the .eml outbox whatever the shell has set (empty means unset).
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      STORAGE: '',
      CONTACT_EMAIL: '',
      PAYMENTS_MODE: '',
      // Every browser here logs in from 127.0.0.1, many times over.
      LOGIN_MAX_PER_IP: '10000',
      LOGIN_MAX_PER_EMAIL: '1000',
    },
  });
  server.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => {
    output.push(chunk.toString());
    process.stderr.write(`[server] ${chunk.toString()}`);
  });
  // Should the runner itself be stopped, the server goes with it.
  const onExit = () => stopGroup(server, 'SIGKILL');
  process.once('exit', onExit);

  try {
    // A first start may build the web app and create the database: minutes on a slow machine.
    await waitForHealth(baseUrl, server, output, 5 * 60_000);
  } catch (error) {
    stopGroup(server, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  // The server looks for web/dist once, at start: without it every page would be a JSON 404.
  const home = await fetch(baseUrl).then((response) => response.text(), () => '');
  if (!home.includes('<div id="root">')) {
    stopGroup(server, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`The server does not serve the web app (was web/dist being rebuilt while it started?). GET / answered:\n${home.slice(0, 300)}`);
  }
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_DATA_DIR = dataDir;

  return async () => {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    if (server.exitCode === null && server.signalCode === null) {
      stopGroup(server, 'SIGTERM');
      const timer = setTimeout(() => stopGroup(server, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    process.off('exit', onExit);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
