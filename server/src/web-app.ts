import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answers } from '@lms/contract/answers';
import { IMAGE_MAX_BYTES_META } from '@lms/contract/media';
import { isPagePath } from '@lms/contract/pages';
import { headTags, splitAtHead, type PageHead } from './features/storefront/page-head.ts';

/** The built web app's one page, as every page path gets it. */
export interface WebAppPage {
  /** The page with the default head (the site's name and description), from memory. */
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  /**
   * The page at a path no route of the server took: with 200 where the app has a page
   * (contract/src/pages.ts), and with 404 anywhere else, where the app shows its 404 page.
   */
  sendAt(path: string, request: FastifyRequest, reply: FastifyReply): FastifyReply;
  /** The page with `head` instead (a course page): a string to cache, built without touching the disk. */
  render(head: PageHead): string;
}

/**
 * Serves the built web app (web/dist): its hashed assets from disk, and its page from memory. The
 * page is index.html with what this server knows at start written into it: in sandbox mode, the
 * "Test mode" ribbon (payments are imitated, and every page must say so), present from the first
 * paint on every page, without a request of its own; the largest picture it takes, which the forms
 * check a picked file against; and the head tags of `defaultHead` (title, description, link
 * preview), which pages with a head of their own (storefront.routes.ts) replace. Answers undefined
 * when there is no build.
 */
export async function serveWebApp(
  app: FastifyInstance,
  { webRoot, testMode, imageMaxBytes, defaultHead }: { webRoot: string; testMode: boolean; imageMaxBytes: number; defaultHead: PageHead },
): Promise<WebAppPage | undefined> {
  const indexFile = path.join(webRoot, 'index.html');
  if (!fs.existsSync(indexFile)) return undefined;
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    // The build writes name.br and name.gz beside each text file (web/vite.config.ts); they are
    // sent with Content-Encoding to browsers that accept them, and are not URLs of their own.
    preCompressed: true,
    // The page is served from memory, below.
    globIgnore: ['**/*.br', '**/*.gz', 'index.html'],
    // Built assets carry a content hash in their names; anything else must be checked every time.
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  const template = splitAtHead(renderPage(fs.readFileSync(indexFile, 'utf8'), { testMode, imageMaxBytes }));
  const render = (head: PageHead) => `${template.before}${headTags(head)}  ${template.after}`;
  const html = Buffer.from(render(defaultHead));
  // Compressed once, at the best settings: the page is small and sent on every first visit.
  const encoded = {
    br: zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } }),
    gzip: zlib.gzipSync(html, { level: zlib.constants.Z_BEST_COMPRESSION }),
  };
  const page: WebAppPage = {
    send(request, reply) {
      const accepted = request.headers['accept-encoding'];
      const encoding = accepted ? negotiate(accepted, ['br', 'gzip']) : null;
      reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
      if (encoding === 'br' || encoding === 'gzip') return reply.header('content-encoding', encoding).send(encoded[encoding]);
      return reply.send(html);
    },
    sendAt(path, request, reply) {
      return page.send(request, reply.code(isPagePath(path) ? 200 : 404));
    },
    render,
  };
  app.get('/index.html', { schema: { hide: true } }, (request, reply) => page.send(request, reply));
  return page;
}

/** index.html with the picture limit last in its head, and the sandbox's ribbon as the first thing in its body. */
export function renderPage(indexHtml: string, { testMode, imageMaxBytes }: { testMode: boolean; imageMaxBytes: number }): string {
  const head = indexHtml.indexOf('</head>');
  if (head < 0) throw new Error('web/dist/index.html has no </head> to put the picture limit in');
  const limit = `  <meta name="${IMAGE_MAX_BYTES_META}" content="${imageMaxBytes}" />\n  `;
  const withLimit = `${indexHtml.slice(0, head)}${limit}${indexHtml.slice(head)}`;
  if (!testMode) return withLimit;
  const ribbon = `<div class="test-mode-ribbon" role="note">${answers.testModeRibbon}</div>`;
  const body = withLimit.indexOf('<body>');
  if (body < 0) throw new Error('web/dist/index.html has no <body> to put the test-mode ribbon in');
  const at = body + '<body>'.length;
  return `${withLimit.slice(0, at)}\n    ${ribbon}${withLimit.slice(at)}`;
}
