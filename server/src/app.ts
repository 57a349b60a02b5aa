import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { answers } from '@lms/contract/answers';
import type { Config } from './config.ts';
import type { Context } from './context.ts';
import { databaseTargetOf, openDatabase, type Database } from './db/client.ts';
import { AppError } from './errors.ts';
import { createPasswordHasher } from './features/auth/password.ts';
import { createCatalogueCache } from './features/courses/catalogue-cache.ts';
import { createSessionCache } from './features/auth/session-cache.ts';
import { followChanges } from './changes.ts';
import { hlsRoutes } from './features/media/hls.routes.ts';
import { privateMediaRoutes } from './features/media/media.routes.ts';
import { createHeldSaves } from './features/progress/held-saves.ts';
import { createPreviewVideos } from './features/media/preview-videos.ts';
import { createStorage, mediaRoot, PUBLIC_MEDIA_FOLDERS, PUBLIC_MEDIA_PREFIX } from './features/media/storage.ts';
import { createRazorpayClient, inProcessFetch } from './features/payments/razorpay-client.ts';
import { sandboxRoutes } from './features/sandbox/sandbox.routes.ts';
import { startJobQueue, type JobQueueOptions } from './job-queue.ts';
import { QUEUE_RULES, startWorkers, type Jobs } from './jobs.ts';
import { ensureDefaultPlan } from './features/plans/plans.service.ts';
import { findVideoTools } from './features/video/ffmpeg.ts';
import { refuseForeignOrigins } from './cross-site.ts';
import { healthRoutes } from './health.ts';
import { createMailer } from './mail.ts';
import { mountMetrics } from './metrics.ts';
import { createRateLimits } from './rate-limit.ts';
import { paths } from './paths.ts';
import { apiRoutes, siteRoutes } from './routes.ts';
import { defaultHead } from './features/storefront/storefront.service.ts';
import { serveWebApp } from './web-app.ts';
import type { RuntimeConfig } from './secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Context;
  }
}

export interface AppOptions {
  /** An open database to use (tests); otherwise one is opened from the config and closed with the app. */
  database?: Database;
  /** Where logs go (tests read them); standard output otherwise. */
  logStream?: Writable;
  /** Keeps the rate-limit counters of parallel test runs apart in a shared Redis. */
  rateLimitPrefix?: string;
  /** Retry timing of the job queue (tests shorten it). */
  jobs?: Pick<JobQueueOptions, 'retryDelaySeconds' | 'pollingIntervalSeconds' | 'rules'>;
  /** The built web app; defaults to web/dist of this checkout. */
  webRoot?: string;
  /** How often held progress saves are written (tests lengthen it to see them held). */
  heldSavesFlushMs?: number;
  /**
   * Tests write to the database behind the app's back, as another instance would, and expect the
   * next request to see it: on PostgreSQL every request, not only a write, then waits to have
   * heard every change made before it (a moment's wait in production).
   */
  catchUpOnEveryRequest?: boolean;
}

export const API_PREFIX = '/api/v1';
export const SANDBOX_API_PREFIX = '/sandbox/v1';
const JSON_BODY_LIMIT = 256 * 1024;
/** Methods that change nothing (RFC 9110 §9.2.1). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Secrets masked wherever they appear in a logged object: at its top level, in a logged
 * `body`, or in logged `headers`. Named paths rather than wildcards (`*.password`):
 * pino copies every value a wildcard could reach on every line, which made each
 * access-log line 70 % dearer (4.0 µs against 2.4 µs, pino measured alone).
 */
const SECRET_FIELDS = ['password', 'oldPassword', 'newPassword', 'token', 'cookie', 'authorization'];
const SECRET_LOG_PATHS = ['', 'body.', 'headers.'].flatMap((parent) => SECRET_FIELDS.map((field) => parent + field));

export async function buildApp(config: RuntimeConfig, options: AppOptions = {}) {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logStream && { stream: options.logStream }),
      // Headers are never logged whole: cookies and tokens stay out of the logs.
      serializers: { req: describeRequest },
      redact: { paths: SECRET_LOG_PATHS, censor: '[redacted]' },
    },
    logController: new OneLinePerRequest(),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: trustedProxies(config.trustProxy),
    routerOptions: { maxParamLength: 200 },
  });
  // JSON and multipart only: text/plain is a body a foreign page may send without asking the browser first.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Run ffmpeg -version while the database opens: a start waits for both, one after the other otherwise.
  const videoTools = config.video.processing ? findVideoTools(config.video) : undefined;
  const database =
    options.database ??
    (await openDatabase(databaseTargetOf(config), {
      onIdleConnectionError: (error) => app.log.warn({ err: error }, 'database connection lost while idle; the pool will reconnect'),
    }));
  // This instance's copies, which hear every change to what they copy (changes.ts, DESIGN §9).
  const catalogue = createCatalogueCache();
  const sessions = createSessionCache();
  const previewVideos = createPreviewVideos();
  const changes = await followChanges(database, {
    apply(change) {
      if (change.kind === 'user') return sessions.forgetUser(change.userId);
      if (change.kind === 'session') return sessions.forgetSession(change.tokenHash);
      if (change.kind === 'anything') sessions.forgetAll();
      catalogue.invalidate();
      previewVideos.forgetAll();
    },
    onListening(listening) {
      sessions.setTrusted(listening);
      if (!listening) app.log.warn('not hearing changes from the database: sessions are looked up on every request until it is back');
    },
  });
  const ctx: Context = {
    config,
    db: database.db,
    changes,
    jobs: await startJobQueue<Jobs>(database, { log: app.log, rules: QUEUE_RULES, ...options.jobs }),
    mailer: createMailer(config),
    media: await createStorage(config),
    passwords: createPasswordHasher(config.passwordCost),
    limits: await createRateLimits(config, options.rateLimitPrefix),
    // In sandbox mode the provider is the imitation mounted below, reached in-process.
    razorpay: createRazorpayClient({
      keyId: config.payments.keyId,
      keySecret: config.payments.keySecret,
      ...(config.payments.mode === 'sandbox'
        ? { baseUrl: SANDBOX_API_PREFIX, fetch: inProcessFetch((request) => app.inject(request)) }
        : { baseUrl: config.payments.baseUrl }),
    }),
    catalogue,
    sessions,
    previewVideos,
    // A held save the rules refuse (its lecture deleted, a position past the end) is dropped quietly.
    heldSaves: createHeldSaves({
      onError: (error) => void (error instanceof AppError || app.log.error({ err: error }, 'a held progress save failed')),
      flushMs: options.heldSavesFlushMs,
    }),
    video: videoTools ? await videoTools : { available: false, reason: 'it is turned off (VIDEO_PROCESSING=off)' },
  };
  app.decorate('ctx', ctx);
  // The spec's bundle as the default plan, made on the first start (features/plans).
  await ensureDefaultPlan(ctx);
  await startWorkers(ctx, app.log);
  app.decorateRequest('user', null);
  app.addHook('onClose', async () => {
    // Jobs in hand finish (or go back to the queue) before the database closes under them.
    await ctx.jobs.stop();
    await ctx.heldSaves.close();
    ctx.mailer.close();
    await ctx.limits.close();
    await changes.stop();
    if (!options.database) await database.close();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, message } = toHttpError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(status).send({ success: false, message });
  });

  const isHttps = config.publicUrl.startsWith('https:');
  const razorpay =
    config.payments.mode === 'razorpay'
      ? { scripts: ['https://checkout.razorpay.com'], frames: ['https://api.razorpay.com', 'https://checkout.razorpay.com'], connect: ['https://lumberjack.razorpay.com'] }
      : { scripts: [], frames: [], connect: [] };
  // Images and videos come from our own origin, or from the bucket (and its CDN) with S3 storage.
  const mediaOrigins = config.storage.kind === 's3' ? (await import('./features/media/s3-storage.ts')).s3Origins(config.storage) : [];
  const pageSecurityHeaders = securityHeadersOf({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Razorpay's Checkout runs its own script and frames; the sandbox's is ours.
        scriptSrc: ["'self'", ...razorpay.scripts],
        frameSrc: razorpay.frames.length > 0 ? razorpay.frames : ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...mediaOrigins],
        mediaSrc: ["'self'", 'blob:', ...mediaOrigins],
        // hls.js fetches playlists and segments itself (from the bucket too, with S3) and may parse them in a blob: worker.
        connectSrc: ["'self'", ...razorpay.connect, ...mediaOrigins],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: isHttps ? [] : null,
      },
    },
    // Images and videos are ours; other sites may not embed them.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    // Only a site served over HTTPS may pin browsers to it.
    strictTransportSecurity: isHttps,
  });
  // JSON is never rendered as a page: of helmet's headers it needs only those that stop it being
  // framed, sniffed as something else or read by another origin (OWASP's REST Security Cheat Sheet).
  // Six fewer headers, and a far shorter policy, made the cached catalogue about 15 % quicker (bench/README.md).
  const apiSecurityHeaders = securityHeadersOf({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: isHttps,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
  // API answers are about someone (a profile, their lectures, the sales figures) or change with every
  // write: no browser, proxy or CDN may keep a copy. The public catalogue is cached in this server instead.
  apiSecurityHeaders['cache-control'] = 'no-store';
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(`${API_PREFIX}/`) ? apiSecurityHeaders : pageSecurityHeaders);
    done();
  });
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { files: 2, fields: 20, fieldSize: 64 * 1024, parts: 30 } });
  app.addHook('onRequest', refuseForeignOrigins(config));
  // A write is answered once this instance has heard what it changed, so that the writer's next
  // request, here, never meets a copy from before it. PGlite delivers before the commit returns.
  if (database.kind === 'postgres') {
    app.addHook('onSend', async (request, _reply, payload) => {
      if (!SAFE_METHODS.has(request.method)) await ctx.changes.caughtUp();
      return payload;
    });
    if (options.catchUpOnEveryRequest) app.addHook('onRequest', () => ctx.changes.caughtUp());
  }

  // The probes, and metrics when configured: their hooks see every route mounted after them.
  healthRoutes(app);
  mountMetrics(app, database);

  await app.register(fastifySwagger, {
    openapi: { info: { title: 'LMS API', version: '1.0.0' }, servers: [] },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(apiRoutes, { prefix: API_PREFIX });
  // The offline imitation of Razorpay (DESIGN §6); never mounted when talking to Razorpay itself.
  if (config.payments.mode === 'sandbox') {
    app.log.warn('TEST MODE: payments go to the offline sandbox, test cards pay and nobody is charged. Set PAYMENTS_MODE=razorpay to take real payments.');
    await app.register(sandboxRoutes, { prefix: '/sandbox' });
  }

  fs.mkdirSync(mediaRoot(config.dataDir), { recursive: true });
  // Lecture videos (local storage): signed, expiring URLs bound to the viewer; registered before /media/*.
  await app.register(privateMediaRoutes);
  // Lectures' HLS ladders: the grant in the path, bound to the viewer as the MP4's is.
  await app.register(hlsRoutes);
  // Public media: every key is random and never reused, so a file at a URL never changes.
  await app.register(fastifyStatic, {
    root: mediaRoot(config.dataDir),
    prefix: PUBLIC_MEDIA_PREFIX,
    decorateReply: false,
    index: false,
    allowedPath: (pathName) => PUBLIC_MEDIA_FOLDERS.some((folder) => pathName.startsWith(`/${folder}/`)),
    immutable: true,
    maxAge: '365d',
  });
  const webApp = await serveWebApp(app, {
    webRoot: options.webRoot ?? paths.webApp,
    testMode: config.payments.mode === 'sandbox',
    imageMaxBytes: config.imageMaxBytes,
    defaultHead: defaultHead(),
  });
  await siteRoutes(app, { webApp });

  app.setNotFoundHandler((request, reply) => {
    // The web app routes its own pages (and shows its 404, sent with 404); the API answers JSON.
    const path = request.url.split('?')[0]!;
    // Pages are paths without a file extension outside the API, media and sandbox.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !/^\/(api|media|sandbox)\//.test(path) &&
      !/\.[a-z0-9]+$/i.test(path);
    if (webApp && isPage) return webApp.sendAt(path, request, reply);
    return reply.code(404).send({ success: false, message: answers.notFound });
  });

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

/** One log line per request, when it is answered; Fastify's default writes a second as it arrives. */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, statusCode: reply.statusCode, responseTime: reply.elapsedTime };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request completed');
  }
}

/**
 * Helmet's headers for `options`, worked out once: they are the same for every
 * response, and building them per request cost more than the rest of a cached read.
 * Helmet's middleware only sets (and removes) response headers, so it runs against a recorder.
 */
function securityHeadersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** A request as logged: never its headers, which carry cookies. */
function describeRequest(request: Pick<FastifyRequest, 'method' | 'url' | 'ip'>) {
  return { method: request.method, url: loggableUrl(request.url), ip: request.ip };
}

/**
 * Path segments that are secrets: the token of a reset or sign-in link, in the web app's page
 * (`/reset-password/<token>`, `/sign-in/<token>`) and in the API it posts to
 * (`/api/v1/user/reset/<token>`, `/api/v1/user/sign-in/<token>`), and the grant of a lecture's
 * HLS ladder (`/media/hls/<viewer>.<expires>.<signature>/…`). Matched anywhere in the path and in
 * any letter case, as the web app's router matches pages. nginx masks the same (docs/deploy.md).
 */
const SECRET_PATH_SEGMENTS = /\/(reset|reset-password|sign-in|media\/hls)\/[^/]+/gi;

/** The path of a request as logged: secret segments masked, query strings (signed media URLs' among them) left out. */
function loggableUrl(url: string): string {
  return url.split('?')[0]!.replace(SECRET_PATH_SEGMENTS, '/$1/[redacted]');
}

/** Known errors keep their status and a message fit for the user; anything else is a 500 that says nothing. */
function toHttpError(error: FastifyError): { status: number; message: string } {
  if (error instanceof AppError) return { status: error.statusCode, message: error.message };
  if (hasZodFastifySchemaValidationErrors(error)) {
    return { status: 400, message: error.validation[0]?.message ?? answers.invalidRequest };
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return { status, message: answers.requestTooLarge };
  if (status === 415) return { status, message: answers.unsupportedContentType };
  if (status === 429) return { status, message: answers.tooManyRequests };
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
    return { status: 400, message: answers.invalidJson };
  }
  if (status >= 400 && status < 500) return { status, message: answers.invalidRequest };
  return { status: 500, message: answers.internalError };
}
