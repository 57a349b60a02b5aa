import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { answers } from '@lms/contract/answers';
import type { Config } from './config.ts';
import { AppError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A test of whether a browser sent a request on behalf of another site, with the origins
 * that count as ours worked out once. Browsers send Origin with every state-changing request,
 * and Sec-Fetch-Site with nearly every request; a Referer from elsewhere (older browsers, a
 * plain link) tells the same.
 */
export function crossSiteTest(config: Pick<Config, 'publicUrl' | 'allowedOrigins'>): (request: FastifyRequest) => boolean {
  const configured = new Set([new URL(config.publicUrl).origin, ...config.allowedOrigins]);
  return (request) => {
    const isOurs = (origin: string) => configured.has(origin) || origin === `${request.protocol}://${request.host}`;
    if (request.headers['sec-fetch-site'] === 'cross-site') return true;
    const { origin, referer } = request.headers;
    if (origin !== undefined) return !isOurs(origin);
    if (referer !== undefined) return !isOurs(originOf(referer));
    return false;
  };
}

/** The origin of a URL, or the text itself when it is none (and so matches no origin of ours). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Cross-site request forgery guard: a state-changing request that a browser sent from another site is refused. */
export function refuseForeignOrigins(config: Pick<Config, 'publicUrl' | 'allowedOrigins'>): onRequestHookHandler {
  const isCrossSite = crossSiteTest(config);
  // A callback hook: a read, nearly every request, passes without a promise of its own.
  return (request, _reply, done) => {
    if (!SAFE_METHODS.has(request.method) && isCrossSite(request)) return done(new AppError(403, answers.foreignOrigin));
    done();
  };
}
