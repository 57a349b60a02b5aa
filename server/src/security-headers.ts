import type { IncomingMessage, ServerResponse } from 'node:http';
import type { onRequestHookHandler } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { API_PREFIX } from '@lms/contract/http';
import { mediaOrigins } from './features/media/storage-factory.ts';
import type { RuntimeConfig } from './secrets.ts';

/**
 * The security headers of every answer, as an onRequest hook: pages get a content security
 * policy that allows what they load (Razorpay's Checkout, media from the bucket), the API
 * only what keeps JSON from being framed, sniffed, read by another origin or cached.
 */
export async function securityHeaders(config: Pick<RuntimeConfig, 'publicUrl' | 'payments' | 'storage'>): Promise<onRequestHookHandler> {
  const isHttps = config.publicUrl.startsWith('https:');
  const razorpay =
    config.payments.mode === 'razorpay'
      ? {
          scripts: ['https://checkout.razorpay.com'],
          frames: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
          connect: ['https://lumberjack.razorpay.com'],
        }
      : { scripts: [], frames: [], connect: [] };
  // Images and videos come from our own origin, or from the bucket (and its CDN) with S3 storage.
  const media = await mediaOrigins(config);
  const pageHeaders = securityHeadersOf({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Razorpay's Checkout runs its own script and frames; the sandbox's is ours.
        scriptSrc: ["'self'", ...razorpay.scripts],
        frameSrc: razorpay.frames.length > 0 ? razorpay.frames : ["'none'"],
        // Inline styles stay allowed (scripts never are): the brand's colours are a <style> each page
        // carries and the settings page repaints in place, toasts (goober) write a <style> of their own,
        // and React sets style attributes. A hash would switch 'unsafe-inline' off for all of them.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...media],
        // data: for hls.js's subtitle <track>s, each given an empty WebVTT (data:,WEBVTT) so the browser keeps its
        // cues: refused, Chromium never shows a language again once it has been switched off.
        mediaSrc: ["'self'", 'blob:', 'data:', ...media],
        // hls.js fetches playlists and segments itself (from the bucket too, with S3) and may parse them in a blob: worker.
        connectSrc: ["'self'", ...razorpay.connect, ...media],
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
  const apiHeaders = securityHeadersOf({
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
  apiHeaders['cache-control'] = 'no-store';
  return (request, reply, done) => {
    reply.headers(request.url.startsWith(`${API_PREFIX}/`) ? apiHeaders : pageHeaders);
    done();
  };
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
