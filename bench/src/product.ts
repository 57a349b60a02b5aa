import fs from 'node:fs/promises';
import path from 'node:path';
import { buildIfStale, root, serverBundle } from '../../scripts/build.mjs';
import { freePort, runInBackground, startService, waitUntilUp, type Service } from './processes.ts';

export { buildIfStale, root };

/** The product's server, run from the bundle exactly as `npm start` runs it, with its default configuration. */
export interface Product extends Service {
  url: string;
  dataDir: string;
  databaseUrl?: string;
}

/** The configuration comes only from these variables, never from the shell the bench was started in. */
const INHERITED = ['PATH', 'HOME', 'LANG', 'TZ'];

export async function startProduct(options: {
  name: string;
  dataDir: string;
  databaseUrl?: string;
  logDir: string;
  env?: Record<string, string>;
}): Promise<Product> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = Object.fromEntries(INHERITED.filter((name) => process.env[name]).map((name) => [name, process.env[name]]));
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: options.dataDir });
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  Object.assign(env, options.env);
  const service = startService(options.name, process.execPath, ['--enable-source-maps', serverBundle], {
    cwd: root,
    env,
    inheritEnv: false,
    logFile: path.join(options.logDir, `${options.name}.log`),
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(`${url}/healthz`);
  } catch (error) {
    await service.stop();
    throw error;
  }
  return { ...service, url, dataDir: options.dataDir, databaseUrl: options.databaseUrl };
}

/** Where the bench keeps the password it chose for the initial administrator (the server deletes its own file then). */
const BENCH_ADMIN_FILE = 'bench-admin-password.txt';
const BENCH_ADMIN_PASSWORD = 'Bench#2026!';

/**
 * Logs in as the administrator the server created on its first start; answers the Cookie header.
 * That administrator must choose a password before anything else works: the first login does,
 * and later logins (the bench restarts servers on the same data folder) use it.
 */
export async function loginAsAdmin(product: Product): Promise<string> {
  const chosen = path.join(product.dataDir, BENCH_ADMIN_FILE);
  const alreadyChosen = await fs.access(chosen).then(
    () => true,
    () => false,
  );
  const file = alreadyChosen ? '' : await fs.readFile(path.join(product.dataDir, 'initial-admin.txt'), 'utf8');
  const email = alreadyChosen ? 'admin@lms.local' : /^email: (.+)$/m.exec(file)?.[1];
  const password = alreadyChosen ? BENCH_ADMIN_PASSWORD : /^password: (.+)$/m.exec(file)?.[1];
  const login = await postJson(product, '/user/login', { email, password });
  if (alreadyChosen) return login;
  const changed = await postJson(product, '/user/change-password', { oldPassword: password, newPassword: BENCH_ADMIN_PASSWORD }, login);
  await fs.writeFile(chosen, BENCH_ADMIN_PASSWORD, { mode: 0o600 });
  return changed;
}

/** POSTs JSON to an API path; answers the session cookie the answer set (or the one sent). */
async function postJson(product: Product, apiPath: string, body: object, cookie?: string): Promise<string> {
  const response = await fetch(`${product.url}/api/v1${apiPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie && { cookie }) },
    body: JSON.stringify(body),
  });
  const session = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
  if (!response.ok || !session) throw new Error(`POST ${apiPath} failed: ${response.status} ${await response.text()}`);
  return session;
}

/** GET of an API path as JSON, failing loudly on anything but 200. */
export async function getJson<T>(product: Product, apiPath: string, cookie?: string): Promise<T> {
  const response = await fetch(`${product.url}/api/v1${apiPath}`, { headers: cookie ? { cookie } : {} });
  if (response.status !== 200) throw new Error(`GET ${apiPath}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface CourseList {
  courses: { _id: string; thumbnail: { secure_url: string } }[];
}
interface CourseLectures {
  lectures: { secure_url: string }[];
}

export async function firstCourse(product: Product) {
  const { courses } = await getJson<CourseList>(product, '/courses?limit=1');
  if (!courses[0]) throw new Error('the catalogue is empty');
  return { id: courses[0]._id, thumbnailKey: courses[0].thumbnail.secure_url.replace(/^.*\/media\//, '') };
}

/**
 * Adds a lecture through the API, as the admin's browser does (multipart, field `lectures`).
 * curl streams the file from disk, so the bench process holds none of it.
 */
export async function uploadLecture(product: Product, cookie: string, courseId: string, file: string): Promise<void> {
  const status = await runInBackground('curl', [
    '-sS',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-H',
    `cookie: ${cookie}`,
    '-F',
    'title=Bench lecture',
    '-F',
    'description=A generated video',
    '-F',
    `lectures=@${file};type=video/mp4`,
    `${product.url}/api/v1/courses/${courseId}`,
  ]);
  if (status !== '201') throw new Error(`uploading ${path.basename(file)} answered ${status}`);
}

/** The signed URL of the course's latest lecture, made for the logged-in viewer. */
export async function latestLectureUrl(product: Product, cookie: string, courseId: string): Promise<string> {
  const { lectures } = await getJson<CourseLectures>(product, `/courses/${courseId}`, cookie);
  const latest = lectures.at(-1);
  if (!latest) throw new Error('the course has no lecture');
  return new URL(latest.secure_url, product.url).href;
}

const DEMO_VIDEO = path.join(root, 'server/assets/demo/lecture-intro.mp4');

/**
 * A playable MP4 of exactly `bytes`: the demo clip followed by one `free` box of
 * zeros, which players skip. The server checks uploads by their content, so it
 * must be a real MP4, not random bytes.
 */
export async function writeVideo(file: string, bytes: number): Promise<void> {
  const clip = await fs.readFile(DEMO_VIDEO);
  const padding = bytes - clip.length;
  if (padding < 8 || padding >= 2 ** 32) throw new Error(`cannot pad the demo clip to ${bytes} bytes`);
  const handle = await fs.open(file, 'w');
  try {
    await handle.write(clip);
    const header = Buffer.alloc(8);
    header.writeUInt32BE(padding, 0);
    header.write('free', 4, 'latin1');
    await handle.write(header);
    const zeros = Buffer.alloc(8 * 1024 * 1024);
    for (let left = padding - 8; left > 0; left -= zeros.length) await handle.write(zeros, 0, Math.min(left, zeros.length));
  } finally {
    await handle.close();
  }
}
