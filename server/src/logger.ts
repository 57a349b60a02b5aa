import type { Writable } from 'node:stream';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';

/**
 * Secrets masked wherever they appear in a logged object: at its top level, in a logged
 * `body`, or in logged `headers`. Named paths rather than wildcards (`*.password`):
 * pino copies every value a wildcard could reach on every line, which made each
 * access-log line 70 % dearer (4.0 µs against 2.4 µs, pino measured alone).
 */
const SECRET_FIELDS = ['password', 'oldPassword', 'newPassword', 'token', 'cookie', 'authorization'];
const SECRET_LOG_PATHS = ['', 'body.', 'headers.'].flatMap((parent) => SECRET_FIELDS.map((field) => parent + field));

/**
 * The server's logging: pino at the configured level, secrets masked, one line per request (at debug
 * for a visitor's kept catalogue page, answered before Fastify: kept-answers-first.ts).
 * Written to standard output without waiting: lines logged while a write is under way go out
 * together in the next, where a blocking write of each cost a tenth of a busy server's time. pino
 * writes what is left when the process exits; a process killed outright may lose its last lines.
 */
export function loggingOptions(config: Pick<Config, 'logLevel'>, stream?: Writable): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  return {
    logger: {
      level: config.logLevel,
      stream: stream ?? linesOfATurnTogether(pino.destination({ dest: 1, sync: false })),
      // Headers are never logged whole: cookies and tokens stay out of the logs.
      serializers: { req: describeRequest },
      redact: { paths: SECRET_LOG_PATHS, censor: '[redacted]' },
    },
    logController: new OneLinePerRequest(),
  };
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
  const query = url.indexOf('?');
  return (query === -1 ? url : url.slice(0, query)).replace(SECRET_PATH_SEGMENTS, '/$1/[redacted]');
}

/**
 * The lines logged in one turn of the event loop, handed to `destination` as one: on every write,
 * pino's destination measures the bytes of the last chunk it holds, up to 16 KB, which a busy
 * server's stream of access log lines made a few percent of its time. Lines still here when the
 * process exits are written then, as the destination writes what it holds; the exit listener is
 * there only while lines wait, so that many apps in one process (tests) do not pile listeners up.
 */
function linesOfATurnTogether(destination: pino.DestinationStream & { flushSync(): void }): pino.DestinationStream {
  let pending = '';
  const handOver = () => {
    process.removeListener('exit', writeAtExit);
    const lines = pending;
    pending = '';
    if (lines !== '') destination.write(lines);
  };
  function writeAtExit() {
    handOver();
    destination.flushSync();
  }
  return {
    write(line: string) {
      if (pending === '') {
        setImmediate(handOver);
        process.once('exit', writeAtExit);
      }
      pending += line;
    },
  };
}
