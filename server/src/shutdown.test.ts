import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './test/app.ts';
import { multipart, newSignup, pngImage } from './test/http.ts';
import { killAllServers, refusesConnections, startServer } from './test/server-process.ts';

/** A first start creates the embedded database and the demo courses. */
const START_TIMEOUT_MS = 2 * 60_000;

/** The server as main.ts runs it, its port, and its exit code once it has exited. */
async function startWatchedServer(dataDir: string, env: Record<string, string> = {}) {
  // No transcoding of the demo videos, which would only slow the start; the stop's and the metrics' variables at their defaults unless a test sets them.
  const server = await startServer(dataDir, { VIDEO_PROCESSING: 'off', SHUTDOWN_GRACE_SECONDS: '', METRICS_PORT: '', METRICS_TOKEN: '', ...env });
  const exited = new Promise<number | null>((resolve) => {
    if (server.process.exitCode !== null) resolve(server.process.exitCode);
    else server.process.once('exit', (code) => resolve(code));
  });
  return { ...server, port: Number(new URL(server.origin).port), exited };
}

/** A sign-up with an avatar, as a browser would send it, whose body is sent only when `finish` is called. */
async function slowSignup(port: number) {
  const { payload, headers } = await multipart({ ...newSignup(), avatar: { bytes: await pngImage(), filename: 'me.png', type: 'image/png' } });
  // A keep-alive connection, as browsers and balancers keep them: it must not hold the stop.
  const agent = new http.Agent({ keepAlive: true });
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/v1/user/register',
    agent,
    // The server answers 100 Continue once it has the request in hand: from then on it is in flight.
    headers: { ...headers, 'content-length': payload.length, expect: '100-continue' },
  });
  const answer = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, body: Buffer.concat(chunks).toString() }));
    });
    request.once('error', reject);
  });
  // Not left unhandled when a test expects the request to fail.
  answer.catch(() => undefined);
  const half = Math.floor(payload.length / 2);
  await new Promise<void>((resolve, reject) => {
    request.once('continue', resolve);
    request.once('error', reject);
  });
  request.write(payload.subarray(0, half));
  return {
    answer,
    finish() {
      request.end(payload.subarray(half));
      return answer.finally(() => agent.destroy());
    },
    abandon: () => agent.destroy(),
  };
}

async function refusedWithin(port: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await refusesConnections(port))) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

// With the embedded database: nothing here depends on the test database.
describe.skipIf(testDatabaseKind === 'postgres')('stopping the server', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-shutdown-'));
  });
  afterAll(async () => {
    killAllServers();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(
    'on SIGTERM refuses new connections at once, lets an upload in flight finish with its usual answer, then exits 0',
    async () => {
      const server = await startWatchedServer(dataDir);
      const signup = await slowSignup(server.port);

      server.process.kill('SIGTERM');
      expect(await refusedWithin(server.port, 5000), 'new connections refused after SIGTERM').toBe(true);
      await sleep(300);
      expect(server.process.exitCode, `still running for the upload:\n${server.output.join('')}`).toBe(null);

      const answer = await signup.finish();
      expect(answer.status, answer.body).toBe(201);
      expect(JSON.parse(answer.body)).toMatchObject({ success: true });
      // The client is told not to reuse the connection, so it does not hold the stop.
      expect(answer.connection).toBe('close');
      expect(await server.exited, server.output.join('')).toBe(0);
    },
    START_TIMEOUT_MS + 30_000,
  );

  it(
    'exits 1 without a request still in flight once SHUTDOWN_GRACE_SECONDS have passed',
    async () => {
      const server = await startWatchedServer(dataDir, { SHUTDOWN_GRACE_SECONDS: '1' });
      const signup = await slowSignup(server.port);
      const signalled = Date.now();
      server.process.kill('SIGTERM');
      try {
        expect(await server.exited).toBe(1);
        expect(Date.now() - signalled).toBeLessThan(10_000);
        await expect(signup.answer).rejects.toThrow();
        expect(server.output.join('')).toContain('requests still running 1 s after SIGTERM');
      } finally {
        signup.abandon();
      }
    },
    START_TIMEOUT_MS + 30_000,
  );
});
