import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxConfig } from '../../scripts/cluster.mjs';
import { freePort } from './test/server-process.ts';

/**
 * nginx in front of the instances keeps an access log of its own: it must leave out what the
 * server's log leaves out (logger.ts), or a reset link's token lands on its disk. Both of our
 * configurations run here in Debian's nginx: `npm run cluster`'s and deploy/nginx.conf.
 */
const NGINX = '/usr/sbin/nginx';
const deployConf = path.resolve(import.meta.dirname, '../../deploy/nginx.conf');

const secrets = ['Tok3nOfAReset', 'Tok3nOfAResetCased', 'Tok3nForTheApi', 'Tok3nOfASignIn', 'Tok3nForTheApiSignIn', 'S1gnatureOfHls', 'S1gnatureOfMp4'];
const requests = [
  `/reset-password/${secrets[0]}`,
  `/Reset-Password/${secrets[1]}?from=mail`,
  `/api/v1/user/reset/${secrets[2]}`,
  `/sign-in/${secrets[3]}`,
  `/api/v1/user/sign-in/${secrets[4]}`,
  `/media/hls/0b7f6b0e-3f1e-4d6a-9a57-3c1f2b8f7d11.1795681672.${secrets[5]}/47b3636f52489bed6f1434e50f429e94/master.m3u8`,
  `/media/private/videos/47b3636f52489bed6f1434e50f429e94.mp4?viewer=0b7f&expires=1795681672&signature=${secrets[6]}`,
  '/api/v1/courses?search=maths',
];
const logged = [
  '/reset-password/[redacted]',
  '/Reset-Password/[redacted]',
  '/api/v1/user/reset/[redacted]',
  '/sign-in/[redacted]',
  '/api/v1/user/sign-in/[redacted]',
  '/media/hls/[redacted]/47b3636f52489bed6f1434e50f429e94/master.m3u8',
  '/media/private/videos/47b3636f52489bed6f1434e50f429e94.mp4',
  '/api/v1/courses',
];

let upstream: http.Server;
let upstreamPort: number;
let scratch: string;
beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lms-nginx-log-'));
  upstreamPort = await freePort();
  upstream = http.createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => upstream.listen(upstreamPort, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

/** Runs nginx on `conf` (its prefix `prefix`), sends every request through it, and answers its access log once stopped. */
async function accessLogOf(prefix: string, conf: string, port: number, logFile: string): Promise<string> {
  fs.mkdirSync(path.join(prefix, 'temp'), { recursive: true });
  const confFile = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(confFile, conf);
  const started = spawnSync(NGINX, ['-p', prefix, '-c', confFile], { encoding: 'utf8' });
  expect(started.status, started.stderr).toBe(0);
  try {
    for (const url of requests) {
      const response = await fetch(`http://127.0.0.1:${port}${url}`);
      expect(response.status, url).toBe(200);
    }
  } finally {
    spawnSync(NGINX, ['-p', prefix, '-c', confFile, '-s', 'quit']);
    // Stopped once its pid file is gone; the log is complete then.
    for (let i = 0; i < 100 && fs.existsSync(path.join(prefix, 'nginx.pid')); i++) await sleep(50);
  }
  return fs.readFileSync(logFile, 'utf8');
}

const pathsIn = (log: string) =>
  log
    .trim()
    .split('\n')
    .map((line) => /"GET (\S+) HTTP/.exec(line)?.[1]);

describe.skipIf(!fs.existsSync(NGINX))("nginx's access log", () => {
  it('in npm run cluster, records every request with its secrets masked and no query', async () => {
    const prefix = path.join(scratch, 'cluster');
    const port = await freePort();
    const conf = nginxConfig({
      prefix,
      tempDir: path.join(prefix, 'temp'),
      listen: `127.0.0.1:${port}`,
      upstreams: [`127.0.0.1:${upstreamPort}`],
      maxBodyBytes: 1024 * 1024,
    });
    const log = await accessLogOf(prefix, conf, port, path.join(prefix, 'access.log'));
    expect(pathsIn(log)).toEqual(logged);
    for (const secret of secrets) expect(log).not.toContain(secret);
  });

  it('in deploy/nginx.conf, likewise', async () => {
    const prefix = path.join(scratch, 'deploy');
    const port = await freePort();
    // The file as a host includes it inside `http`, with this machine's addresses and folders in place of the compose ones.
    const site = fs
      .readFileSync(deployConf, 'utf8')
      .replace(/server app\d:3000 [^;]*;\n/g, '')
      .replace(/(upstream lms \{\n)/, `$1    server 127.0.0.1:${upstreamPort};\n`)
      .replace('listen 80;', `listen 127.0.0.1:${port};`)
      .replaceAll('/var/log/nginx/', `${prefix}/`);
    expect(site).toContain(`access_log ${prefix}/access.log lms;`);
    const conf = `pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 64; }
http {
  access_log ${prefix}/inherited.log;
  client_body_temp_path ${prefix}/temp/body;
  proxy_temp_path ${prefix}/temp/proxy;
  fastcgi_temp_path ${prefix}/temp/fastcgi;
  uwsgi_temp_path ${prefix}/temp/uwsgi;
  scgi_temp_path ${prefix}/temp/scgi;
${site}
}
`;
    const log = await accessLogOf(prefix, conf, port, path.join(prefix, 'access.log'));
    expect(pathsIn(log)).toEqual(logged);
    for (const secret of secrets) expect(log).not.toContain(secret);
    // The log an nginx.conf sets for every site (Debian's, the image's) gets none of ours.
    expect(fs.existsSync(path.join(prefix, 'inherited.log')) ? fs.readFileSync(path.join(prefix, 'inherited.log'), 'utf8') : '').toBe('');
  });
});
