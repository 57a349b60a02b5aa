import type { Writable } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import Fastify from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { answerWhenCaughtUp } from './caught-up.ts';
import type { Config } from './config.ts';
import { createContext, type ContextOptions } from './create-context.ts';
import { refuseForeignOrigins } from './cross-site.ts';
import { handleErrors } from './error-handler.ts';
import { keptAnswersFirst, requestIds } from './kept-answers-first.ts';
import { answerFromCatalogue } from './features/courses/catalogue-cache.ts';
import { ensureDefaultPlan } from './features/plans/plans.service.ts';
import { loggingOptions } from './logger.ts';
import { paths } from './paths.ts';
import { mountRoutes } from './routes.ts';
import type { RuntimeConfig } from './secrets.ts';
import { securityHeaders } from './security-headers.ts';
import { startWorkers } from './workers.ts';

export interface AppOptions extends ContextOptions {
  /** Where logs go (tests read them); standard output otherwise. */
  logStream?: Writable;
  /** The built web app; defaults to web/dist of this checkout. */
  webRoot?: string;
  /**
   * Tests write to the database behind the app's back, as another instance would, and expect the
   * next request to see it: on PostgreSQL every request, not only a write, then waits to have
   * heard every change made before it (a moment's wait in production).
   */
  catchUpOnEveryRequest?: boolean;
}

const JSON_BODY_LIMIT = 256 * 1024;

/**
 * The server, ready to listen (main.ts) or to be called with `inject` (tests): its plugins are
 * assembled here, in order, and every URL it answers is mounted by routes.ts.
 */
export async function buildApp(config: RuntimeConfig, options: AppOptions = {}) {
  const trustProxy = trustedProxies(config.trustProxy);
  const requestId = requestIds();
  // A visitor's kept catalogue page is answered by the server's listener, before Fastify (once built, below).
  const keptFirst = keptAnswersFirst(requestId);
  const app = Fastify({
    ...loggingOptions(config, options.logStream),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy,
    routerOptions: { maxParamLength: 200 },
    genReqId: requestId,
    serverFactory: keptFirst.serverFactory,
  });
  app.decorate('answeredFirst', []);
  // JSON and multipart only: text/plain is a body a foreign page may send without asking the browser first.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const { ctx, database, close } = await createContext(app, config, options);
  app.decorate('ctx', ctx);
  // The spec's bundle as the default plan, made on the first start (features/plans).
  await ensureDefaultPlan(ctx);
  if (!options.jobsAfterListen) await startWorkers(ctx, { log: app.log });
  app.decorateRequest('user', null);
  app.decorateRequest('session', null);
  app.addHook('onClose', close);

  handleErrors(app);
  app.addHook('onRequest', await securityHeaders(config));
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { files: 2, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
  app.addHook('onRequest', refuseForeignOrigins(config));
  answerWhenCaughtUp(app, database, { everyRequest: options.catchUpOnEveryRequest });
  // A visitor's catalogue or curriculum, as the route answered it last, while it is current: after
  // the hooks above (every answer's headers, the wait for changes), before the route's own.
  app.addHook('onRequest', answerFromCatalogue(ctx.catalogue));
  // Collects the schemas of the routes mounted after it into the OpenAPI document served at /api/docs.
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'LMS API', version: '1.0.0' }, servers: [] },
    transform: jsonSchemaTransform,
  });

  await mountRoutes(app, { database, webRoot: options.webRoot ?? paths.webApp });
  // Not while every request must first wait for changes (tests): that wait is an onRequest hook's.
  if (!(options.catchUpOnEveryRequest && database.kind === 'postgres')) {
    keptFirst.start({ cache: ctx.catalogue, log: app.log, draining: () => app.draining, observers: app.answeredFirst, trustProxy });
  }
  return app;
}

/**
 * TRUST_PROXY as Fastify applies it. A hop count becomes "the nearest N hops are our proxies":
 * Fastify 5 reads a bare number as "trust nobody", which would give every client behind the
 * load balancer the balancer's address. With N = 1 the address is the one nginx appended last,
 * whatever a client wrote into X-Forwarded-For before it.
 */
function trustedProxies(setting: Config['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}
