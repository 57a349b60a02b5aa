import type { FastifyInstance } from 'fastify';
import type { Database } from './db/client.ts';

/** Methods that change nothing (RFC 9110 §9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A write is answered once this instance has heard what it changed, so that the writer's next
 * request, here, never meets a copy from before it; a route that holds its write for later
 * (`writesLater`) is answered at once. PGlite delivers before the commit returns.
 * With `everyRequest` (tests that write behind the app's back, as another instance would), every
 * request first waits to have heard every change made before it.
 */
export function answerWhenCaughtUp(app: FastifyInstance, database: Pick<Database, 'kind'>, { everyRequest = false } = {}): void {
  if (database.kind !== 'postgres') return;
  // A callback hook: a read, nearly every request, passes without a promise of its own.
  app.addHook('onSend', (request, _reply, payload, done) => {
    // A held write (a progress save) has changed nothing yet: its writer's next request cannot meet a copy from before it.
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config.writesLater) return done(null, payload);
    app.ctx.changes.caughtUp().then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
  if (everyRequest) app.addHook('onRequest', () => app.ctx.changes.caughtUp());
}
