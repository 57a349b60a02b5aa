import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { answers } from '@lms/contract/answers';
import { FailureSchema } from '@lms/contract/envelope';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once the instance begins to stop: /readyz answers 503, and every answer closes its connection. */
    draining: boolean;
  }
}

/** A dependency slower than this is taken for unreachable: a balancer's probe must not hang. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * The probes of a load balancer or an orchestrator (docs/decisions/0018). `/healthz` is liveness:
 * the process serves and its database answers; restart it otherwise. `/readyz` is readiness: send
 * this instance traffic only while its database and its media storage answer, and it is not stopping.
 */
export function healthRoutes(app: FastifyInstance): void {
  const { ctx } = app;
  app.decorate('draining', false);
  app.addHook('preClose', async () => {
    app.draining = true;
  });
  // Fastify closes idle connections when it closes, and answers 503 to requests arriving on them
  // afterwards; a keep-alive connection whose request was in flight would stay open after its answer
  // (72 s, keepAliveTimeout) and hold the close with it. Connection: close ends it with the answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  app.get('/healthz', { schema: { hide: true } }, async () => {
    await ctx.db.execute(sql`select 1`);
    return { status: 'ok' };
  });

  app.get('/readyz', { schema: { hide: true, response: { 200: z.object({ status: z.literal('ready') }), 503: FailureSchema } } }, async (request, reply) => {
    if (app.draining) return reply.code(503).send({ success: false, message: answers.serverDraining });
    const failures = await Promise.all([
      failureOf('database', async () => void (await ctx.db.execute(sql`select 1`))),
      failureOf('media storage', (signal) => ctx.media.check(signal)),
    ]);
    for (const failure of failures)
      if (failure) request.log.warn({ err: failure.error, dependency: failure.dependency }, 'not ready: a dependency does not answer');
    if (failures.some(Boolean)) return reply.code(503).send({ success: false, message: answers.serverNotReady });
    return { status: 'ready' as const };
  });
}

/** What went wrong when `probe` failed or took longer than CHECK_TIMEOUT_MS; undefined when it answered. */
async function failureOf(dependency: string, probe: (signal: AbortSignal) => Promise<void>): Promise<{ dependency: string; error: unknown } | undefined> {
  try {
    await withTimeout(CHECK_TIMEOUT_MS, probe);
    return undefined;
  } catch (error) {
    return { dependency, error };
  }
}

/** `probe`'s answer, or a TimeoutError after `ms`; `signal` lets the probe stop its own work then. */
export async function withTimeout<T>(ms: number, probe: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  // A probe that cannot be aborted (a query waiting for a connection) is left to finish on its own.
  const timedOut = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
  return Promise.race([probe(signal), timedOut]);
}
