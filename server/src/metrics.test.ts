import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNMATCHED_ROUTE } from './metrics.ts';
import { createTestApp, testDatabaseKind, type TestApp } from './test/app.ts';
import { freePort } from './test/server-process.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one series in a scrape, e.g. `lms_jobs_total{queue="mail",outcome="completed"}`; 0 when absent. */
function valueOf(scrape: string, series: string): number {
  const line = scrape.split('\n').find((text) => text.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * What a path no route serves answers: a JSON 404, or the web app's page when web/dist is built.
 * Refused metrics answer exactly this, so that nobody can tell they are there.
 */
async function unknownPathAnswer(t: TestApp) {
  const response = await t.app.inject({ url: `/no-such-page-${randomUUID()}` });
  return { statusCode: response.statusCode, body: response.body };
}

describe('metrics, by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('are off: /metrics is an unknown path like any other', async () => {
    await t.app.inject({ url: '/api/v1/courses' });
    const response = await t.app.inject({ url: '/metrics' });
    expect({ statusCode: response.statusCode, body: response.body }).toEqual(await unknownPathAnswer(t));
    expect(response.body).not.toContain('http_requests_total');
  });
});

describe('metrics with METRICS_TOKEN, on the public port', () => {
  let t: TestApp;
  const scrape = async () => {
    const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    return response.body;
  };
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t?.close());

  it('are invisible without the token, or with another one', async () => {
    const unknown = await unknownPathAnswer(t);
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const response = await t.app.inject({ url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect({ statusCode: response.statusCode, body: response.body }, authorization).toEqual(unknown);
    }
  });

  it("count requests by route pattern, never by the URL asked for, and the process's event-loop delay", async () => {
    const id = randomUUID();
    const answered = await t.app.inject({ url: `/api/v1/courses/${id}/curriculum` });
    await t.app.inject({ url: `/api/v1/no-such-thing/${id}` });

    const response = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = response.body;
    expect(valueOf(body, `http_requests_total{method="GET",route="/api/v1/courses/:id/curriculum",status_code="${answered.statusCode}"}`)).toBe(1);
    expect(valueOf(body, `http_request_duration_seconds_count{method="GET",route="/api/v1/courses/:id/curriculum",status_code="${answered.statusCode}"}`)).toBe(
      1,
    );
    expect(valueOf(body, `http_requests_total{method="GET",route="${UNMATCHED_ROUTE}",status_code="404"}`)).toBeGreaterThanOrEqual(1);
    expect(body).not.toContain(id);
    expect(body).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
  });

  it('count catalogue cache hits and misses', async () => {
    const before = await scrape();
    await t.app.inject({ url: '/api/v1/courses?search=metrics' });
    await t.app.inject({ url: '/api/v1/courses?search=metrics' });
    const after = await scrape();
    const hits = (scrape: string) => valueOf(scrape, 'lms_cache_lookups_total{cache="catalogue",result="hit"}');
    const misses = (scrape: string) => valueOf(scrape, 'lms_cache_lookups_total{cache="catalogue",result="miss"}');
    // The first asks the database (a page not seen before), the second is served from the cache.
    expect(misses(after) - misses(before)).toBe(1);
    expect(hits(after) - hits(before)).toBe(1);
  });

  it('time every job this instance runs, by queue and outcome, and count what waits in each queue', async () => {
    const series = 'lms_jobs_total{queue="password-reset",outcome="completed"}';
    const before = valueOf(await scrape(), series);
    // Sends a password-reset job; for an email nobody has, it finds nobody and completes.
    const sent = await t.app.inject({ method: 'POST', url: '/api/v1/user/reset', payload: { email: `nobody-${randomUUID()}@example.com` } });
    expect(sent.statusCode).toBe(200);
    let body = await scrape();
    for (let tries = 0; tries < 100 && valueOf(body, series) === before; tries++) {
      await sleep(100);
      body = await scrape();
    }
    expect(valueOf(body, series)).toBe(before + 1);
    expect(valueOf(body, 'lms_job_duration_seconds_count{queue="password-reset",outcome="completed"}')).toBe(before + 1);
    expect(body).toMatch(/^lms_job_queue_waiting\{queue="password-reset"\} \d+$/m);
  });

  it.runIf(testDatabaseKind === 'postgres')("show the PostgreSQL pool's connections", async () => {
    const body = await scrape();
    expect(valueOf(body, 'lms_db_pool_max_connections')).toBe(10);
    expect(valueOf(body, 'lms_db_pool_connections{state="idle"}') + valueOf(body, 'lms_db_pool_connections{state="busy"}')).toBeGreaterThan(0);
    expect(body).toMatch(/^lms_db_pool_waiting \d+$/m);
  });

  it.runIf(testDatabaseKind === 'pglite')('show no pool on the embedded database, which has none', async () => {
    expect(await scrape()).not.toContain('lms_db_pool');
  });
});

describe.each<{ name: string; env: Record<string, string>; headers: Record<string, string>; elsewhere: 'refused' | 'served' }>([
  // Every address of 127.0.0.0/8 reaches this machine on Linux, but a listener on 127.0.0.1 alone
  // answers only there: 127.0.0.2 stands for an address others reach, as 0.0.0.0 would be bound.
  { name: 'METRICS_PORT alone, even with HOST=0.0.0.0: on loopback only', env: {}, headers: {}, elsewhere: 'refused' },
  { name: 'METRICS_PORT and METRICS_TOKEN: on HOST', env: { METRICS_TOKEN: TOKEN }, headers: { authorization: `Bearer ${TOKEN}` }, elsewhere: 'served' },
])('metrics with $name', ({ env, headers, elsewhere }) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({ env: { ...env, HOST: '0.0.0.0', METRICS_PORT: String(port) } });
  });
  afterAll(() => t?.close());

  it(`are served on their own port once the app listens, never on the public one; at another address of this machine: ${elsewhere}`, async () => {
    const unknown = await unknownPathAnswer(t);
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const response = await t.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect({ statusCode: response.statusCode, body: response.body }).toEqual(unknown);
    }

    await t.app.inject({ url: '/api/v1/courses' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${port}/metrics`;
    let response = await fetch(url, { headers }).catch(() => undefined);
    for (let tries = 0; tries < 50 && !response; tries++) {
      await sleep(100);
      response = await fetch(url, { headers }).catch(() => undefined);
    }
    expect(response?.status).toBe(200);
    expect(await response!.text()).toContain('http_requests_total{method="GET",route="/api/v1/courses"');
    if ('authorization' in headers) expect((await fetch(url)).status).toBe(404);

    const fromElsewhere = await fetch(`http://127.0.0.2:${port}/metrics`, { headers }).catch(() => undefined);
    if (elsewhere === 'refused') expect(fromElsewhere?.status).toBeUndefined();
    else expect(fromElsewhere?.status).toBe(200);
  });
});
