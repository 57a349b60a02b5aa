import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareDatabase, startCluster } from '../scripts/cluster.mjs';
import { ADMIN_PASSWORD } from './global-setup.ts';
import { chooseAdminPassword, demoVideosProcessed, freePort, JOURNEY_ENV } from './server.ts';

/** Its own database, dropped and made again at every run. */
const DATABASE = 'lms_e2e_cluster';

/** The PostgreSQL server of TEST_DATABASE_URL (.ci/run sets it), else this machine's. */
function databaseUrl() {
  const url = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${DATABASE}`;
  return url.href;
}

/**
 * The Redis of TEST_REDIS_URL (.ci/run sets it), else this machine's; in database 1 unless the URL
 * names one, so that the journeys' many logins from 127.0.0.1 never count against an
 * `npm run cluster` on the same Redis (database 0).
 */
function redisUrl() {
  const url = new URL(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379');
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/1';
  return url.href;
}

/** A request through nginx that took this long is worth a line in the run's output. */
const SLOW_REQUEST_SECONDS = 10;

/**
 * What nginx saw go wrong during the journeys, printed before its folder goes: the requests that
 * took SLOW_REQUEST_SECONDS or more (their method, path, status, seconds and instance) and its
 * error log. A journey stuck on a request that never ends says only that the test timed out; this
 * says which request, and on which instance.
 */
function reportSlowRequests(nginxDir: string) {
  const read = (file: string) => {
    try {
      return fs.readFileSync(path.join(nginxDir, file), 'utf8');
    } catch {
      return '';
    }
  };
  // `… "GET /path HTTP/1.1" 200 1234 0.012 upstream=… status=…`: the seconds follow the status and size.
  const slow = read('access.log')
    .split('\n')
    .filter((line) => Number(/" \d{3} \d+ (\d+\.\d+) upstream=/.exec(line)?.[1]) >= SLOW_REQUEST_SECONDS);
  const errors = read('error.log').trim();
  if (slow.length) process.stderr.write(`[nginx] requests that took ${SLOW_REQUEST_SECONDS} s or more:\n${slow.join('\n')}\n`);
  if (errors) process.stderr.write(`[nginx] error log:\n${errors}\n`);
}

/**
 * The journeys of payments and lectures once more, through a cluster: two instances behind nginx
 * on PostgreSQL, s3rver and Redis, started by scripts/cluster.mjs on a fresh database and data
 * folder. Sets what global-setup.ts sets, E2E_DATA_DIR being the cluster's folder (its mail/ is
 * every instance's outbox), E2E_INSTANCE_URLS, the instances' own addresses, and E2E_NGINX_PID,
 * nginx's master process, for cluster.spec.ts.
 */
export default async function clusterSetup() {
  const database = databaseUrl();
  await prepareDatabase(database, { fresh: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lms-e2e-cluster-'));
  const cluster = await startCluster({
    instances: 2,
    port: await freePort(Number(process.env.E2E_CLUSTER_PORT ?? 3500)),
    dataDir,
    env: {
      ...process.env,
      ...JOURNEY_ENV,
      DATABASE_URL: database,
      REDIS_URL: redisUrl(),
      // s3rver, started by the cluster, and the cluster's own address.
      S3_ENDPOINT: '',
      S3_BUCKET: '',
      PUBLIC_URL: '',
      TRUST_PROXY: '',
    },
    log: (name, line) => process.stderr.write(`[${name}] ${line}\n`),
  }).catch((error: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const stop = async () => {
    reportSlowRequests(path.join(dataDir, 'nginx'));
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const home = await fetch(cluster.url).then((response) => response.text());
    if (!home.includes('<div id="root">')) throw new Error(`The cluster does not serve the web app. GET / answered:\n${home.slice(0, 300)}`);
    await demoVideosProcessed(cluster.url, 5 * 60_000);
    // The first instance created the initial administrator, and so holds its password.
    const admin = await chooseAdminPassword(cluster.url, cluster.instances[0]!.dataDir, ADMIN_PASSWORD);
    process.env.E2E_ADMIN_EMAIL = admin.email;
    process.env.E2E_ADMIN_PASSWORD = admin.password;
  } catch (error) {
    await stop();
    throw error;
  }
  process.env.E2E_BASE_URL = cluster.url;
  process.env.E2E_DATA_DIR = cluster.dataDir;
  process.env.E2E_INSTANCE_URLS = cluster.instances.map((instance) => instance.url).join(' ');
  process.env.E2E_NGINX_PID = String(cluster.nginx.pid);
  return stop;
}
