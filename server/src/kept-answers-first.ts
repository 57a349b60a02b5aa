import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { all as forwardedAddresses, compile as compileProxyList } from '@fastify/proxy-addr';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import { isVisitor, matchesEtag, type CatalogueCache } from './features/courses/catalogue-cache.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Told of every answer the server's listener gave before Fastify (the metrics count them as their own). */
    answeredFirst: AnswerObserver[];
  }
}

/** What metrics.ts's onResponse hook is told of a request Fastify answered. */
export type AnswerObserver = (method: string, route: string | undefined, statusCode: number, seconds: number) => void;

/** What the listener needs of the app, once it is built: until then every request goes to Fastify. */
export interface KeptAnswersFirstOptions {
  cache: Pick<CatalogueCache, 'kept'>;
  log: FastifyBaseLogger;
  /** True once the app stops: its answers then close their connections, which Fastify's hooks do. */
  draining: () => boolean;
  observers: AnswerObserver[];
  /** The client's address as Fastify's `request.ip` gives it, for the access log line. */
  trustProxy: false | string[] | ((address: string, hop: number) => boolean);
}

/**
 * Request ids as Fastify makes them by default (`req-1`, `req-2`, … in base 36), from one counter
 * shared by Fastify (its `genReqId`) and the listener, so that no two log lines share an id.
 */
export function requestIds(): () => string {
  let next = 0;
  // Fastify's bound: the largest small integer, past which it starts again.
  return () => `req-${(next = (next + 1) & 0x7fffffff).toString(36)}`;
}

/**
 * A visitor's catalogue page, curriculum or card, answered by the HTTP server's request listener
 * from the answer the route gave last (catalogue-cache.ts keeps it) before Fastify makes its
 * request and reply, routes the URL and runs its hooks: these were most of such a request's CPU
 * time. Everything else goes to Fastify, unchanged. What Fastify's way does for such a request is
 * done here too: the same status, headers (in the same order, written by the same writeHead) and
 * body, the 304 to a client that holds the page, the access log line (logger.ts: the same fields,
 * a request id from Fastify's counter; at debug, not info), the metrics (the route's pattern, the
 * cache's hit). The hooks before the route's own change nothing else for a visitor's GET: the
 * security headers are in the kept headers, the cross-site check passes every GET, cookies are only
 * parsed. While the app stops (answers close their connections), and with `catchUpOnEveryRequest` (tests), every
 * request goes Fastify's way (answerFromCatalogue still answers it from the onRequest hooks).
 * Fastify knows it is closing a moment before its preClose hooks set `draining`: a kept page asked
 * for within that moment is answered as if it had come just before the close began.
 */
export function keptAnswersFirst(requestId: () => string) {
  let options: KeptAnswersFirstOptions | undefined;
  let ipOf: (request: IncomingMessage) => string | undefined = (request) => request.socket.remoteAddress;

  const answer = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (options === undefined || request.method !== 'GET' || !isVisitor(request.headers.cookie) || options.draining()) return false;
    const kept = options.cache.kept(request.url!, request.headers['accept-encoding']);
    if (!kept) return false;
    const started = performance.now();
    const ifNoneMatch = request.headers['if-none-match'];
    const notModified = ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, kept.page.etag);
    const statusCode = notModified ? 304 : kept.statusCode;
    const { log, observers } = options;
    const reqId = requestId();
    const done = (error?: Error) => {
      response.removeListener('finish', done);
      response.removeListener('error', done);
      const responseTime = performance.now() - started;
      // logger.ts's line, with the request id Fastify's child logger would have bound first. A kept page is the
      // cache's copy of a public read, as a static file is: its line is at debug, since at info it cost a quarter
      // to two fifths of such a request's throughput (decision 0051); the metrics count it either way.
      const line = { reqId, req: { method: 'GET', url: request.url!, ip: ipOf(request) }, statusCode, responseTime };
      if (error) log.error({ ...line, err: error }, 'request errored');
      else log.debug(line, 'request completed');
      for (const observe of observers) observe('GET', kept.route, statusCode, responseTime / 1000);
    };
    response.on('finish', done);
    response.on('error', done);
    if (notModified) response.writeHead(304, kept.notModifiedHeaders).end();
    else response.writeHead(kept.statusCode, kept.rawHeaders).end(kept.body);
    return true;
  };

  return {
    /** Fastify's `serverFactory`: its own HTTP server, with the listener above in front of its handler. */
    serverFactory: ((handler, given) => {
      // Fastify's options, its defaults filled in.
      const fastifyOptions = given as {
        http?: http.ServerOptions;
        keepAliveTimeout: number;
        requestTimeout: number;
        connectionTimeout: number;
        maxRequestsPerSocket: number;
      };
      const server = http.createServer(fastifyOptions.http ?? {}, (request, response) => {
        if (!answer(request, response)) handler(request, response);
      });
      // As Fastify sets up a server it makes itself.
      server.keepAliveTimeout = fastifyOptions.keepAliveTimeout;
      server.requestTimeout = fastifyOptions.requestTimeout;
      server.setTimeout(fastifyOptions.connectionTimeout);
      if (fastifyOptions.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = fastifyOptions.maxRequestsPerSocket;
      return server;
    }) satisfies FastifyServerFactory,
    /** From now on, kept answers are given here. */
    start(given: KeptAnswersFirstOptions) {
      options = given;
      const { trustProxy } = given;
      if (trustProxy !== false) {
        // Fastify's request.ip with a trustProxy: the furthest address the trusted proxies vouch for.
        const trusted = Array.isArray(trustProxy) ? compileProxyList(trustProxy) : trustProxy;
        ipOf = (request) => forwardedAddresses(request, trusted).at(-1);
      }
    },
  };
}
