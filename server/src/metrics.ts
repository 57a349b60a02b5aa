import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Context } from './context.ts';
import type { Database } from './db/client.ts';
import type { CacheStats } from './features/courses/catalogue-cache.ts';
import { withTimeout } from './health.ts';

/** This instance's caches whose lookups are counted, by the name they carry in the `cache` label: one line each. */
const CACHES: Record<string, (ctx: Context) => CacheStats> = {
  catalogue: (ctx) => ctx.catalogue.stats,
  sessions: (ctx) => ctx.sessions.stats,
};

/** The `route` of requests no route matched (unknown paths, the web app's pages): one label, whatever the URL. */
export const UNMATCHED_ROUTE = '(unmatched)';

const HTTP_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A scrape answers without the database's figures rather than not at all. */
const QUERY_TIMEOUT_MS = 2000;
/** From a mail (tens of milliseconds) to a lecture's transcode (up to hours). */
const JOB_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800, 7200];

/** Where a metrics port without a token listens: only this machine reaches it. */
export const METRICS_LOOPBACK = '127.0.0.1';

/**
 * Prometheus metrics (docs/decisions/0018), off unless METRICS_PORT or METRICS_TOKEN is set: on a
 * port of their own, or at /metrics on the public port for the bearer of the token (and to anyone
 * else, nothing there). Each app has its own registry: tests build many in one process.
 */
export function mountMetrics(app: FastifyInstance, database: Pick<Database, 'poolStats'>): void {
  const { config } = app.ctx;
  const { port, token } = config.metrics;
  if (port === undefined && token === undefined) return;
  const registry = createRegistry(app, database);
  const allowed = token === undefined ? () => true : bearerTest(token);
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!allowed(request.headers.authorization)) return reply.callNotFound();
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  };

  if (port === undefined) {
    app.get('/metrics', { schema: { hide: true } }, serve);
    return;
  }
  // Its own listener: whatever reaches the public port, the metrics are not there. A scrape cut off
  // at shutdown is harmless, so open connections are closed rather than waited for.
  const server = Fastify({ loggerInstance: app.log, logController: new LogController({ disableRequestLogging: true }), forceCloseConnections: true });
  server.get('/metrics', serve);
  // Without a token anyone who reaches the port reads them, and HOST may be every interface
  // (0.0.0.0 in a container): only this machine, then. A scraper elsewhere presents the token.
  const host = token === undefined ? METRICS_LOOPBACK : config.host;
  app.addHook('onListen', async () => {
    try {
      await server.listen({ port, host });
      app.log.info({ port, host }, 'metrics served on a port of their own');
    } catch (error) {
      // Metrics are not worth refusing traffic for: Prometheus shows the target down instead.
      app.log.error({ err: error, port }, 'metrics could not listen on METRICS_PORT; serving without them');
    }
  });
  app.addHook('preClose', () => server.close());
}

/** Whether an Authorization header carries the token; compared in constant time (digests are of one length). */
function bearerTest(token: string): (header: string | undefined) => boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  const expected = digest(`Bearer ${token}`);
  return (header) => header !== undefined && timingSafeEqual(digest(header), expected);
}

function createRegistry(app: FastifyInstance, database: Pick<Database, 'poolStats'>): Registry {
  const { ctx } = app;
  const registry = new Registry();
  const registers = [registry];
  // The process: CPU, memory, heap, garbage collection, handles, and the event loop's delay (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });

  // By route pattern, never the URL: ids and searches would make a series of each.
  const httpLabels = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: httpLabels,
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer sent, by method, route pattern and status code.',
    labelNames: httpLabels,
    buckets: HTTP_SECONDS,
    registers,
  });
  const observe = (method: string, route: string | undefined, statusCode: number, seconds: number) => {
    const labels = { method, route: route ?? UNMATCHED_ROUTE, status_code: statusCode };
    requests.inc(labels);
    requestSeconds.observe(labels, seconds);
  };
  app.addHook('onResponse', (request, reply, done) => {
    observe(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // The kept pages answered before Fastify (kept-answers-first.ts) are counted as Fastify's are.
  app.answeredFirst.push(observe);

  const jobLabels = ['queue', 'outcome'] as const;
  const jobs = new Counter({
    name: 'lms_jobs_total',
    help: "Tries of jobs this instance's workers ended, by queue and outcome: completed, retry (failed, to be tried again) or failed (for good).",
    labelNames: jobLabels,
    registers,
  });
  const jobSeconds = new Histogram({
    name: 'lms_job_duration_seconds',
    help: 'How long tries of jobs ran on this instance, by queue and outcome.',
    labelNames: jobLabels,
    buckets: JOB_SECONDS,
    registers,
  });
  ctx.jobs.onJobDone(({ name, seconds, outcome }) => {
    jobs.inc({ queue: name, outcome });
    jobSeconds.observe({ queue: name, outcome }, seconds);
  });
  new Gauge({
    name: 'lms_job_queue_waiting',
    help: 'Jobs waiting in each queue, sent and not yet taken or waiting for a retry; the same on every instance (one database).',
    labelNames: ['queue'],
    registers,
    async collect() {
      this.reset();
      // Metrics matter most when the database is in trouble: without it, these series are left out, the others served.
      const waiting = await withTimeout(QUERY_TIMEOUT_MS, () => ctx.jobs.waiting()).catch((error: unknown) => {
        app.log.warn({ err: error }, 'metrics: the job queue could not be counted');
        return {};
      });
      for (const [queue, count] of Object.entries(waiting)) this.set({ queue }, count);
    },
  });

  new Counter({
    name: 'lms_cache_lookups_total',
    help: "Lookups in this instance's caches, by cache and result (hit or miss).",
    labelNames: ['cache', 'result'],
    registers,
    collect() {
      this.reset();
      for (const [cache, statsOf] of Object.entries(CACHES)) {
        const { hits, misses } = statsOf(ctx);
        this.inc({ cache, result: 'hit' }, hits);
        this.inc({ cache, result: 'miss' }, misses);
      }
    },
  });

  // PostgreSQL only: PGlite is one connection inside this process, with nothing to wait for but itself.
  const { poolStats } = database;
  if (poolStats) {
    new Gauge({
      name: 'lms_db_pool_connections',
      help: 'Open connections of the PostgreSQL pool, by state (idle or busy).',
      labelNames: ['state'],
      registers,
      collect() {
        const { total, idle } = poolStats();
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'busy' }, total - idle);
      },
    });
    new Gauge({
      name: 'lms_db_pool_max_connections',
      help: 'The most connections the PostgreSQL pool opens.',
      registers,
      collect() {
        this.set(poolStats().max);
      },
    });
    new Gauge({
      name: 'lms_db_pool_waiting',
      help: 'Queries waiting for a connection of the PostgreSQL pool.',
      registers,
      collect() {
        this.set(poolStats().waiting);
      },
    });
  }
  return registry;
}
