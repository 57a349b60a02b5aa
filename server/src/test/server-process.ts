import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

/** The server workspace, where `npm run start --workspace server` runs. */
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
/** Opening a new embedded database takes seconds, more while other test files keep the cores busy. */
const START_TIMEOUT_MS = 120_000;

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Whether nothing listens on `port` any more (a stopping server has closed it). */
export const refusesConnections = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

/** The environment of a server or command a test starts: the defaults, whatever the shell running the tests has set (empty means unset). */
export const childEnv = (dataDir: string, env: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_ENV: 'development',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  PASSWORD_COST: '12',
  DATABASE_URL: '',
  REDIS_URL: '',
  SMTP_URL: '',
  STORAGE: '',
  PAYMENTS_MODE: '',
  SESSION_SECRET: '',
  RAZORPAY_KEY_ID: '',
  RAZORPAY_KEY_SECRET: '',
  RAZORPAY_WEBHOOK_SECRET: '',
  ...env,
});

export interface ServerProcess {
  process: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  output: string[];
  /** SIGTERM, then waits for the process to exit, as a service manager stops it. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** The real server (src/main.ts, as `npm start` runs it, without building the web app) on `dataDir` and a free port; answers once /healthz does. */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    // A process group of its own, so that killAllServers reaches whatever it started (ffmpeg).
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnv(dataDir, { PORT: String(port), HOST: '127.0.0.1', ...env }),
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const healthy = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not come up:\n${output.join('')}`);
    await sleep(250);
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return { process: child, origin, output, stop };
}

/** For afterAll: kills every server a test started and left running, with what they started. */
export function killAllServers() {
  for (const child of running) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Runs an npm script of the project (`npm run backup -- …`) to its end; answers its exit code and output. */
export function runNpmScript(projectRoot: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', ...args], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}
