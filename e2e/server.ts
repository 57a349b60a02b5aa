import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `preferred` if nothing listens there (0: any), otherwise whatever port the system hands out. */
export async function freePort(preferred = 0): Promise<number> {
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
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The server did not become healthy at ${baseUrl}/healthz. Its output:\n${output.join('')}`);
}

function stopGroup(server: ChildProcess, signal: NodeJS.Signals) {
  try {
    // Negative pid: the whole group, i.e. scripts/start.mjs and anything it started.
    process.kill(-server.pid!, signal);
  } catch {
    // Already gone.
  }
}

/** How the journeys' server is configured, whatever the shell has set; the cluster's (cluster-setup.ts) starts from it. */
export const JOURNEY_ENV: Record<string, string> = {
  LOG_LEVEL: 'warn',
  // Embedded database, local media and the .eml outbox whatever the shell has set (empty means unset).
  DATABASE_URL: '',
  REDIS_URL: '',
  SMTP_URL: '',
  STORAGE: '',
  CONTACT_EMAIL: '',
  PAYMENTS_MODE: '',
  // A seller registered for GST in Karnataka: documents are Tax Invoices (billing.spec.ts).
  SELLER_NAME: 'LMS Learning Pvt Ltd',
  SELLER_ADDRESS: 'MG Road, Bengaluru 560001',
  SELLER_STATE: '29',
  SELLER_GSTIN: '29AAACL1234C1Z1',
  // Every browser here signs up and logs in from 127.0.0.1, many times over.
  LOGIN_MAX_PER_IP: '10000',
  LOGIN_MAX_PER_EMAIL: '1000',
  SIGNUP_MAX_PER_IP: '10000',
  // scrypt at 2^12 rather than the default 2^17: half a second of CPU and 128 MiB per sign-up and log-in
  // add up over a hundred journeys, and the cost is the server tests' concern (features/auth/password.ts).
  PASSWORD_COST: '12',
};

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  /** Stops the server (its whole process group) and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Starts the real server the way `npm start` does (scripts/start.mjs builds the web app and the
 * server bundle when their sources changed) on a fresh temporary data folder and a free port
 * (`preferredPort` if free). The first start creates the initial admin (DATA_DIR/initial-admin.txt)
 * and seeds the demo courses. Resolves once it answers /healthz, serves the web app and, unless
 * `videoProcessing` is false (VIDEO_PROCESSING=off), has processed the demo lectures' videos.
 */
export async function startServer({
  preferredPort = 0,
  echoErrors = true,
  timeoutMs = 5 * 60_000,
  videoProcessing = true,
  demoContent = true,
} = {}): Promise<RunningServer> {
  const port = await freePort(preferredPort);
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
      ...JOURNEY_ENV,
      ...(!videoProcessing && { VIDEO_PROCESSING: 'off' }),
      ...(!demoContent && { DEMO_CONTENT: 'off' }),
    },
  });
  server.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  server.stderr!.on('data', (chunk: Buffer) => {
    output.push(chunk.toString());
    if (echoErrors) process.stderr.write(`[server] ${chunk.toString()}`);
  });
  // Should the runner itself be stopped, the server goes with it.
  const onExit = () => stopGroup(server, 'SIGKILL');
  process.once('exit', onExit);

  const stop = async () => {
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

  try {
    // A first start may build the web app and create the database: minutes on a slow machine.
    await waitForHealth(baseUrl, server, output, timeoutMs);
    // The server looks for web/dist once, at start: without it every page would be a JSON 404.
    const home = await fetch(baseUrl).then(
      (response) => response.text(),
      () => '',
    );
    if (!home.includes('<div id="root">')) {
      throw new Error(`The server does not serve the web app (was web/dist being rebuilt while it started?). GET / answered:\n${home.slice(0, 300)}`);
    }
    if (videoProcessing) await demoVideosProcessed(baseUrl, timeoutMs);
  } catch (error) {
    stopGroup(server, 'SIGKILL');
    await stop();
    throw error;
  }
  return { baseUrl, dataDir, stop };
}

/** The file in which the server's first start leaves the initial administrator's credentials. */
export const initialAdminFile = (dataDir: string) => path.join(dataDir, 'initial-admin.txt');

/** The initial administrator's email and handed-out password, from DATA_DIR/initial-admin.txt. */
export function initialAdmin(dataDir: string) {
  const text = fs.readFileSync(initialAdminFile(dataDir), 'utf8');
  const field = (name: string) => text.match(new RegExp(`^${name}:\\s*(\\S+)`, 'm'))![1]!;
  return { email: field('email'), password: field('password') };
}

/**
 * What a newcomer does first: logs in as the initial administrator and replaces the handed-out
 * password with `newPassword`, through the API. Until then the server refuses the admin everything else.
 */
export async function chooseAdminPassword(baseUrl: string, dataDir: string, newPassword: string) {
  const { email, password } = initialAdmin(dataDir);
  const json = { 'content-type': 'application/json' };
  const login = await fetch(`${baseUrl}/api/v1/user/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
  if (!login.ok) throw new Error(`Logging in as the initial admin answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
  const change = await fetch(`${baseUrl}/api/v1/user/change-password`, {
    method: 'POST',
    headers: { ...json, cookie },
    body: JSON.stringify({ oldPassword: password, newPassword }),
  });
  if (!change.ok) throw new Error(`Changing the initial admin's password answered ${change.status}: ${await change.text()}`);
  return { email, password: newPassword };
}

/**
 * Waits until the video pipeline has processed the demo lectures of the first start (every
 * duration known, every free preview streaming): the journeys then meet them in one state,
 * and do not share the two cores with a dozen transcodes.
 */
export async function demoVideosProcessed(baseUrl: string, timeoutMs: number): Promise<void> {
  const api = async <T>(url: string) => (await (await fetch(`${baseUrl}/api/v1${url}`)).json()) as T;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { courses } = await api<{ courses: { _id: string }[] }>('/courses?limit=100');
    const curricula = await Promise.all(
      courses.map((course) => api<{ lectures: { duration: number | null; preview: boolean; hls_url?: string }[] }>(`/courses/${course._id}/curriculum`)),
    );
    const waiting = curricula
      .flatMap((curriculum) => curriculum.lectures)
      .filter((lecture) => lecture.duration === null || (lecture.preview && !lecture.hls_url));
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${waiting.length} demo lectures still unprocessed after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
