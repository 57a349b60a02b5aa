// Long because it is the whole topology in one place (startCluster, then a function for each part it starts: the database, nginx, s3rver, the instances).
// `npm run cluster`: the scaled-out topology (docs/deploy.md) on one machine.
// CLUSTER_INSTANCES servers (default 2), each run exactly as `npm start` runs it on a port of its
// own, behind nginx on PORT, sharing PostgreSQL, an S3-compatible store (s3rver, unless S3_* name
// one) and Redis. Runs in the foreground; Ctrl-C or SIGTERM stops everything it started.
// Importable too: startCluster() is how the e2e tests (e2e/cluster-setup.ts) start one.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { buildIfStale, root, serverBundle } from './build.mjs';
import { ensureDebianPackages } from './debian-packages.mjs';

// node-postgres and s3rver are the server's dependencies; found from there, hoisted or not.
const serverRequire = createRequire(path.join(root, 'server', 'package.json'));

export const CLUSTER_DEFAULTS = {
  instances: 2,
  port: 3000,
  dataDir: 'data-cluster',
  databaseUrl: 'postgres://postgres@127.0.0.1:5432/lms_cluster',
  redisUrl: 'redis://127.0.0.1:6379',
};

/**
 * The files server/src/secrets.ts generates into DATA_DIR when the environment leaves them out.
 * Every instance must hold the same ones: a media URL signed by one is checked by another, and
 * the sandbox's webhooks are signed with the key its checkout was opened with.
 */
const SHARED_SECRET_FILES = ['session-secret', 'sandbox-key-id', 'sandbox-key-secret', 'sandbox-webhook-secret'];
/** s3rver's fixed account, and the bucket made for the cluster. */
const S3RVER_KEY = 'S3RVER';
const S3RVER_BUCKET = 'lms';
/**
 * The server lets requests in flight finish for SHUTDOWN_GRACE_SECONDS (30 by default) once stopped,
 * then hands its jobs back to the queue (5 s at most): it is killed only past both.
 */
const stopGraceMs = (env) => (Number(setting(env, 'SHUTDOWN_GRACE_SECONDS') ?? 30) + 10) * 1000;
/** A first start on an empty database seeds the demo courses: minutes on a busy 2-core machine. */
const START_TIMEOUT_MS = 5 * 60_000;
const MIB = 1024 * 1024;

/** A variable as the server reads it: empty counts as unset. */
const setting = (env, name) => (env[name] === '' ? undefined : env[name]);

/**
 * Starts the cluster and resolves once nginx answers for a ready instance. Options default to the
 * variables `npm start` honours, read from `env` (CLUSTER_INSTANCES, PORT, HOST, DATA_DIR, …).
 * Anything that fails on the way, a child that dies included, stops what was started and rejects.
 */
export async function startCluster(options = {}) {
  const env = options.env ?? process.env;
  const count = options.instances ?? Number(setting(env, 'CLUSTER_INSTANCES') ?? CLUSTER_DEFAULTS.instances);
  if (!Number.isInteger(count) || count < 1) throw new Error(`CLUSTER_INSTANCES must be a whole number from 1 up, not ${count}`);
  const host = options.host ?? setting(env, 'HOST') ?? '127.0.0.1';
  const requestedPort = options.port ?? Number(setting(env, 'PORT') ?? CLUSTER_DEFAULTS.port);
  // Relative to the checkout, as `npm start` resolves DATA_DIR (it runs from there).
  const dataDir = path.resolve(root, options.dataDir ?? setting(env, 'DATA_DIR') ?? CLUSTER_DEFAULTS.dataDir);
  const databaseUrl = setting(env, 'DATABASE_URL') ?? CLUSTER_DEFAULTS.databaseUrl;
  const redisUrl = setting(env, 'REDIS_URL') ?? CLUSTER_DEFAULTS.redisUrl;
  const log = options.log ?? printLine;
  const children = [];
  let started = false;
  let stopping;
  /** nginx's temporary files, outside the cluster's private folder (nginxTempDir). */
  let nginxTemp;

  const stop = () => {
    stopping ??= (async () => {
      const s3rver = children.find((child) => child.name === 's3rver');
      // The instances may still write to the bucket while they finish their requests: s3rver goes last.
      await Promise.all(children.filter((child) => child !== s3rver).map((child) => child.stop()));
      await s3rver?.stop();
      if (nginxTemp) fs.rmSync(nginxTemp, { recursive: true, force: true });
      process.off('exit', killAll);
    })();
    return stopping;
  };
  // Should the process that started the cluster end without stopping it, nothing is left running.
  const killAll = () => children.forEach((child) => child.signal('SIGKILL'));
  process.on('exit', killAll);

  /** Polls `check` until it answers true; fails when a child has died, the start was aborted or time ran out. */
  const waitFor = async (what, check, timeoutMs = START_TIMEOUT_MS) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (options.signal?.aborted) throw new Error('The cluster was stopped while it started.');
      const dead = children.find((child) => !child.running());
      if (dead) throw new Error(`${dead.name} exited (${dead.exitStatus()}) while the cluster started. Its last output:\n${dead.recent.join('\n')}`);
      if (await check()) return;
      if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs / 1000} s for ${what}.`);
      await sleep(200);
    }
  };
  const launch = (name, command, args, launchOptions) => {
    const child = startChild(name, command, args, { ...launchOptions, log, graceMs: stopGraceMs(env) });
    children.push(child);
    child.exited.then((status) => {
      if (started && !stopping) options.onExit?.(name, status);
    });
    return child;
  };

  try {
    // nginx comes from Debian's package, as the bench's does (scripts/debian-packages.mjs), which puts
    // it in /usr/sbin: not on an ordinary user's PATH.
    const nginxBinary = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim() || '/usr/sbin/nginx';
    ensureDebianPackages({ [nginxBinary]: 'nginx' });
    const port = requestedPort === 0 ? await freePort() : requestedPort;
    if (!(await isFree(port, host))) throw new Error(`Port ${port} is taken (is \`npm start\` or another cluster running?); set PORT to another.`);
    const listenUrl = `http://${connectHost(host)}:${port}`;
    const publicUrl = (setting(env, 'PUBLIC_URL') ?? defaultPublicUrl(host, port)).replace(/\/$/, '');

    await buildIfStale();
    await prepareDatabase(databaseUrl);
    await checkRedis(redisUrl);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const sharedMail = path.join(dataDir, 'mail');
    fs.mkdirSync(sharedMail, { recursive: true, mode: 0o700 });

    let s3Env;
    let s3Endpoint;
    if (setting(env, 'S3_BUCKET') || setting(env, 'S3_ENDPOINT')) {
      // The operator's own store: the S3_* variables reach the instances as they are.
      s3Env = { STORAGE: 's3' };
      s3Endpoint = setting(env, 'S3_ENDPOINT') ?? 'AWS S3';
    } else {
      const s3rver = launch('s3rver', process.execPath, s3rverArgs(dataDir, publicUrl), { cwd: root, env: { PATH: process.env.PATH } });
      let listening;
      await waitFor('s3rver to listen', () => (listening = s3rver.recent.map((line) => /listening on \S+:(\d+)/.exec(line)).find(Boolean)));
      s3Endpoint = `http://127.0.0.1:${listening[1]}`;
      s3Env = {
        STORAGE: 's3',
        S3_ENDPOINT: s3Endpoint,
        S3_BUCKET: S3RVER_BUCKET,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: S3RVER_KEY,
        S3_SECRET_ACCESS_KEY: S3RVER_KEY,
        S3_PUBLIC_URL: '',
      };
    }

    const instances = [];
    for (let index = 1; index <= count; index++) {
      const name = `instance-${index}`;
      const instancePort = await freePort(requestedPort === 0 ? 0 : port + index);
      const instanceDir = path.join(dataDir, name);
      fs.mkdirSync(instanceDir, { recursive: true, mode: 0o700 });
      shareOutbox(instanceDir, sharedMail);
      const metricsPort = setting(env, 'METRICS_PORT') && Number(setting(env, 'METRICS_PORT')) + index - 1;
      instances.push({ name, port: instancePort, metricsPort, dataDir: instanceDir, url: `http://127.0.0.1:${instancePort}` });
    }
    const startInstance = (instance) => {
      // What scripts/start.mjs runs once it has built: the bundle, from the checkout. Built once above,
      // so every instance runs the same build even while someone edits the sources.
      const child = launch(instance.name, process.execPath, ['--enable-source-maps', serverBundle], {
        cwd: root,
        env: {
          ...env,
          HOST: '127.0.0.1',
          PORT: String(instance.port),
          DATA_DIR: instance.dataDir,
          PUBLIC_URL: publicUrl,
          DATABASE_URL: databaseUrl,
          REDIS_URL: redisUrl,
          // One nginx in front: its X-Forwarded-For and X-Forwarded-Proto are believed, nobody else's.
          TRUST_PROXY: setting(env, 'TRUST_PROXY') ?? '1',
          // Each instance's metrics on a port of its own: METRICS_PORT, the next one, …
          ...(instance.metricsPort && { METRICS_PORT: String(instance.metricsPort) }),
          ...s3Env,
        },
      });
      Object.assign(instance, { pid: child.pid, exited: child.exited, kill: (signal = 'SIGTERM') => child.signal(signal) });
      return waitFor(`${instance.name} to be ready at ${instance.url}`, () => isReady(instance.url));
    };
    // The first start migrates the database, seeds the demo courses and generates the secrets;
    // the others start once it is done, with its secrets.
    const [first, ...rest] = instances;
    await startInstance(first);
    for (const instance of rest) copySecrets(first.dataDir, instance.dataDir);
    await Promise.all(rest.map(startInstance));

    const nginxDir = path.join(dataDir, 'nginx');
    fs.mkdirSync(nginxDir, { recursive: true, mode: 0o700 });
    const worker = process.getuid?.() === 0 ? unprivilegedAccount() : undefined;
    nginxTemp = nginxTempDir(worker);
    const nginxConf = path.join(nginxDir, 'nginx.conf');
    fs.writeFileSync(
      nginxConf,
      nginxConfig({
        prefix: nginxDir,
        tempDir: nginxTemp,
        worker,
        listen: listenAddress(host, port),
        upstreams: instances.map((instance) => `127.0.0.1:${instance.port}`),
        maxBodyBytes: videoMaxBytes(env),
      }),
    );
    const nginx = launch('nginx', nginxBinary, ['-p', nginxDir, '-c', nginxConf, '-e', path.join(nginxDir, 'error.log'), '-g', 'daemon off;'], {
      cwd: nginxDir,
      env: { PATH: process.env.PATH },
    });
    await waitFor(`nginx to answer at ${listenUrl}`, () => isReady(listenUrl));
    started = true;

    return {
      /** Where nginx listens (to reach it from this machine); `publicUrl` is what the instances tell people. */
      url: listenUrl,
      publicUrl,
      dataDir,
      databaseUrl,
      redisUrl,
      s3Endpoint,
      nginx: { pid: nginx.pid, configFile: nginxConf },
      instances: instances.map(({ name, url, pid, dataDir: folder, metricsPort, exited, kill }) => ({
        name,
        url,
        pid,
        dataDir: folder,
        metricsPort,
        exited,
        kill,
      })),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Creates the database of `url` when it is missing; `fresh` drops it first (the e2e tests' own database). */
export async function prepareDatabase(url, { fresh = false } = {}) {
  const { Client } = serverRequire('pg');
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!name) throw new Error(`DATABASE_URL names no database: ${redact(url)}`);
  const connect = async (target) => {
    const client = new Client({ connectionString: target, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    return client;
  };
  if (!fresh) {
    try {
      await (await connect(url)).end();
      return;
    } catch (error) {
      // 3D000: the database does not exist; anything else (not running, refused) is for the operator.
      if (error.code !== '3D000') throw new Error(`PostgreSQL at ${redact(url)} does not answer: ${error.message}`, { cause: error });
    }
  }
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = await connect(maintenance.href).catch((error) => {
    throw new Error(`PostgreSQL at ${redact(maintenance.href)} does not answer: ${error.message}`, { cause: error });
  });
  const quoted = `"${name.replaceAll('"', '""')}"`;
  try {
    if (fresh) await client.query(`DROP DATABASE IF EXISTS ${quoted} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoted}`);
  } catch (error) {
    // 42P04: created meanwhile by someone else, which is what was wanted.
    if (error.code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

/**
 * The account nginx's workers run as when root starts the cluster: the one Debian's nginx uses
 * (www-data), else nobody. The workers parse every request from outside; as root, a flaw in
 * nginx would be a flaw with root's rights. They read no file (the master opens the
 * configuration and the logs) and write only nginxTempDir.
 */
function unprivilegedAccount() {
  const entries = (file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.split(':'));
  const users = entries('/etc/passwd');
  const groups = entries('/etc/group');
  for (const name of ['www-data', 'nobody']) {
    const user = users.find(([entry]) => entry === name);
    if (!user) continue;
    const [uid, gid] = [Number(user[2]), Number(user[3])];
    // nginx takes the group by name, and Debian's nobody is in nogroup, not a group called nobody.
    const group = groups.find((entry) => Number(entry[2]) === gid)?.[0];
    if (uid !== 0 && group) return { user: name, group, uid, gid };
  }
  throw new Error("Started by root, nginx's workers need an account without privileges (www-data or nobody), and this machine has neither.");
}

/**
 * Where nginx's workers write request bodies and responses too large for memory: a folder of
 * their own under the system's temporary folder, theirs when they run as another account (the
 * cluster's folder stays private to whoever started it). Removed when the cluster stops.
 */
function nginxTempDir(worker) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lms-cluster-nginx-'));
  if (worker) fs.chownSync(folder, worker.uid, worker.gid);
  return folder;
}

/**
 * nginx in front of the instances. Passive health only (nginx OSS has no active checks): an
 * instance that refuses connections, times out or answers 502/503 (draining, its database gone)
 * is skipped for `fail_timeout`, and the request goes to the next one. Once a request has reached
 * an instance, nginx never sends a POST, PATCH or LOCK again (its default, kept), nor a body it has
 * already streamed. deploy/nginx.conf is the same for real hosts.
 */
export function nginxConfig({ prefix, tempDir, worker, listen, upstreams, maxBodyBytes }) {
  return `# Written by scripts/cluster.mjs at each start; docs/deploy.md explains each line.
worker_processes auto;
${worker ? `# Started by root: the workers, which handle the requests, run without its rights.\nuser ${worker.user} ${worker.group};\n` : ''}pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  # No secret a URL carries, as in deploy/nginx.conf: link tokens and HLS grants masked, no query.
  map $request_uri $lms_log_path {
    "~*^(?<lms_before>[^?]*/(reset|reset-password|sign-in|media/hls)/)[^/?]+(?<lms_after>[^?]*)"  "$lms_before[redacted]$lms_after";
    "~^(?<lms_path>[^?]*)"  $lms_path;
  }
  log_format upstream '$remote_addr [$time_local] "$request_method $lms_log_path $server_protocol" $status $body_bytes_sent $request_time upstream=$upstream_addr status=$upstream_status';
  access_log ${prefix}/access.log upstream;
  client_body_temp_path ${tempDir}/body;
  proxy_temp_path ${tempDir}/proxy;
  fastcgi_temp_path ${tempDir}/fastcgi;
  uwsgi_temp_path ${tempDir}/uwsgi;
  scgi_temp_path ${tempDir}/scgi;
  default_type application/octet-stream;

  upstream lms {
${upstreams.map((address) => `    server ${address} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 32;
  }

  server {
    listen ${listen};
    # The server's largest upload (VIDEO_MAX_BYTES) and the multipart around it; the server
    # enforces the exact limit with its own message.
    client_max_body_size ${Math.ceil(maxBodyBytes / MIB) + 1}m;

    location / {
      proxy_pass http://lms;
      # Keep-alive connections to the instances.
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # With TRUST_PROXY=1 the instances take the last address, the one nginx appended.
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_connect_timeout 5s;
      # Uploads stream through to the instance (which streams them to storage) as they arrive.
      proxy_request_buffering off;
    }
  }
}
`;
}

/** Answers whether the server at `url` is ready: its /readyz where it has one, else its /healthz. */
export async function isReady(url) {
  const answer = (probe) =>
    fetch(`${url}${probe}`, { signal: AbortSignal.timeout(5000) }).then(
      async (response) => ({
        status: response.status,
        json: (response.headers.get('content-type') ?? '').includes('json'),
        body: await response.arrayBuffer(),
      }),
      () => undefined,
    );
  const ready = await answer('/readyz');
  if (!ready) return false;
  // Before /readyz existed, the path was a page of the web app (or a 404): fall back to /healthz.
  if (ready.json && ready.status !== 404) return ready.status === 200;
  return (await answer('/healthz'))?.status === 200;
}

function startChild(name, command, args, { cwd, env, log, graceMs }) {
  // Its own process group: stopping it stops what it started (the server's ffmpeg, nginx's workers).
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const recent = [];
  const onLine = (line) => {
    recent.push(line);
    if (recent.length > 60) recent.shift();
    log(name, line);
  };
  for (const stream of [child.stdout, child.stderr]) readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => {
      onLine(error.message);
      resolve({ code: null, signal: null, error });
    });
  });
  let status;
  exited.then((result) => (status = result));
  const running = () => status === undefined;
  const signal = (name) => {
    if (!child.pid) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // The group has gone already.
    }
  };
  return {
    name,
    pid: child.pid,
    recent,
    exited,
    running,
    signal,
    exitStatus: () => (status?.error ? status.error.message : (status?.signal ?? `code ${status?.code}`)),
    async stop() {
      if (running()) {
        signal('SIGTERM');
        const stopped = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
        if (!stopped) signal('SIGKILL');
        await exited;
      }
      // Anything the process started and left behind.
      signal('SIGKILL');
    },
  };
}

function printLine(name, line) {
  process.stdout.write(`${name.padEnd(10)} | ${line}\n`);
}

/** s3rver on a free port with the cluster's bucket, which pages on the public URL may read from (hls.js fetches segments). */
function s3rverArgs(dataDir, publicUrl) {
  const cors = path.join(dataDir, 's3rver-cors.xml');
  fs.writeFileSync(
    cors,
    `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>${new URL(publicUrl).origin}</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>
`,
  );
  const bin = path.join(path.dirname(serverRequire.resolve('s3rver/package.json')), 'bin', 's3rver.js');
  return [bin, '--directory', path.join(dataDir, 's3'), '--address', '127.0.0.1', '--port', '0', '--silent', '--configure-bucket', S3RVER_BUCKET, cors];
}

/** The instances' outboxes (DATA_DIR/mail, without SMTP_URL) are one folder: a mail is sent by whichever instance ran its job. */
function shareOutbox(instanceDir, sharedMail) {
  const outbox = path.join(instanceDir, 'mail');
  const stat = fs.lstatSync(outbox, { throwIfNoEntry: false });
  if (stat?.isSymbolicLink()) return;
  if (stat?.isDirectory()) {
    for (const file of fs.readdirSync(outbox)) fs.renameSync(path.join(outbox, file), path.join(sharedMail, file));
    fs.rmdirSync(outbox);
  }
  fs.symlinkSync(path.relative(instanceDir, sharedMail), outbox);
}

function copySecrets(fromDir, toDir) {
  for (const name of SHARED_SECRET_FILES) {
    const from = path.join(fromDir, name);
    // Absent when the environment sets the secret (SESSION_SECRET, RAZORPAY_*): then it is the same everywhere anyway.
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(toDir, name));
    else fs.rmSync(path.join(toDir, name), { force: true });
    if (fs.existsSync(path.join(toDir, name))) fs.chmodSync(path.join(toDir, name), 0o600);
  }
}

async function checkRedis(url) {
  const { hostname, port, protocol } = new URL(url);
  if (protocol !== 'redis:' && protocol !== 'rediss:') return;
  const reachable = await new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
    const answer = (value) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(3000);
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });
  if (!reachable) throw new Error(`Redis at ${redact(url)} does not answer; start it or set REDIS_URL.`);
}

const videoMaxBytes = (env) => Number(setting(env, 'VIDEO_MAX_BYTES') ?? 2 * 1024 * MIB);

function redact(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

/** `preferred` if nothing listens there (0: any), otherwise whatever port the system hands out. */
async function freePort(preferred = 0) {
  return (await listenOnce(preferred, '127.0.0.1')) ?? (await listenOnce(0, '127.0.0.1'));
}
const isFree = async (port, host) => (await listenOnce(port, host)) !== undefined;
function listenOnce(port, host) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, host, () => {
      const { port: bound } = probe.address();
      probe.close(() => resolve(bound));
    });
  });
}

const everywhere = (host) => host === '0.0.0.0' || host === '::' || host === '[::]';
const bracketed = (host) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
const listenAddress = (host, port) => `${bracketed(host)}:${port}`;
/** Where this machine reaches nginx. */
const connectHost = (host) => (everywhere(host) ? '127.0.0.1' : bracketed(host));
/** As the server's own default (server/src/config.ts): where it listens, `localhost` when that is everywhere. */
const defaultPublicUrl = (host, port) => `http://${everywhere(host) ? 'localhost' : bracketed(host)}:${port}`;

async function main() {
  // What the cluster writes (s3rver's objects included) is private to this user, as the server keeps DATA_DIR.
  process.umask(0o077);
  const controller = new AbortController();
  const gone = new Set();
  let cluster;
  let exiting;
  const starting = startCluster({
    signal: controller.signal,
    // Only after the start: a child that dies during it fails the start instead.
    onExit(name, status) {
      gone.add(name);
      console.error(`${name} exited (${status.signal ?? `code ${status.code}`}).`);
      const alive = (cluster?.instances ?? []).map((instance) => instance.name).filter((instance) => !gone.has(instance));
      if (!name.startsWith('instance-') || alive.length === 0) {
        console.error('The cluster cannot go on without it.');
        exit(1);
      } else {
        console.error(`nginx sends its requests to the others (${alive.join(', ')}).`);
      }
    },
  });
  const exit = (code) => {
    exiting ??= (async () => {
      // A start under way stops what it started and rejects.
      controller.abort();
      console.log('Stopping the cluster…');
      const cluster = await starting.catch(() => undefined);
      await cluster?.stop();
      process.exit(code);
    })();
  };
  // Repeats are ignored: Ctrl-C reaches this process from the terminal and again from npm.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => exit(0));
  try {
    cluster = await starting;
  } catch (error) {
    if (!exiting) {
      console.error(error.message);
      process.exit(1);
    }
    return;
  }
  if (exiting) return;
  const where = (folder) => path.relative(process.cwd(), folder) || '.';
  const initialAdmin = path.join(cluster.instances[0].dataDir, 'initial-admin.txt');
  console.log(`
LMS cluster listening on ${cluster.url}${cluster.publicUrl === cluster.url ? '' : ` (public URL ${cluster.publicUrl})`}: nginx in front of
${cluster.instances.map((instance) => `  ${instance.name}  ${instance.url}  pid ${instance.pid}  DATA_DIR ${where(instance.dataDir)}${instance.metricsPort ? `  metrics on port ${instance.metricsPort}` : ''}`).join('\n')}
PostgreSQL ${redact(cluster.databaseUrl)}, Redis ${redact(cluster.redisUrl)}, S3 ${cluster.s3Endpoint}
Data in ${where(cluster.dataDir)}: the mail outbox in mail/, nginx's config and logs in nginx/.${
    fs.existsSync(initialAdmin) ? `\nThe password the first start gave the initial administrator: ${where(initialAdmin)}.` : ''
  }
Ctrl-C stops everything.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
