import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageSiteOf, type WebAppPage } from '../../web-app.ts';
import { sendCataloguePage } from '../courses/catalogue-cache.ts';
import { byAddress, consume } from '../../rate-limit.ts';
import { buildSitemap, CERTIFICATE_PAGE_PATH, certificatePageHead, COURSE_PAGE_PATH, coursePageHead, robotsTxt } from './storefront.service.ts';
import { webManifest } from './web-manifest.ts';

const XML = 'application/xml; charset=utf-8';
/** Crawlers may keep robots.txt and the sitemap a while; a course added meanwhile waits at most this long. */
const CRAWLER_CACHE = 'public, max-age=3600';
/** Browsers read the manifest again now and then; a renamed site or a new logo reaches them within minutes. */
const MANIFEST_CACHE = 'public, max-age=300';

/**
 * At the site's root, beside the web app: what search engines, link previews and phones read.
 * robots.txt, the sitemap and the manifest work with or without a web build; a course page's own
 * head needs the build (`webApp`), since it is the app's page with that head written in.
 */
export const storefrontRoutes: FastifyPluginAsyncZod<{ webApp?: WebAppPage }> = async (app, { webApp }) => {
  const { ctx } = app;

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', CRAWLER_CACHE).send(robotsTxt(ctx)),
  );

  app.get('/sitemap.xml', { schema: { hide: true } }, async (request, reply) => {
    const cached = await ctx.catalogue.page('sitemap', () => buildSitemap(ctx));
    reply.header('cache-control', CRAWLER_CACHE);
    return sendCataloguePage(request, reply, cached, XML);
  });

  app.get('/sitemap-:part.xml', { schema: { hide: true, params: z.object({ part: z.string() }) } }, async (request, reply) => {
    const { part } = request.params;
    // Anything but a plain number names no file: the same 404 as a number past the last.
    const number = /^[1-9]\d{0,5}$/.test(part) ? Number(part) : 0;
    const cached = await ctx.catalogue.page(`sitemap:${number}`, () => buildSitemap(ctx, { part: number }));
    reply.header('cache-control', CRAWLER_CACHE);
    return sendCataloguePage(request, reply, cached, XML);
  });

  app.get('/manifest.webmanifest', { schema: { hide: true } }, async (_request, reply) => {
    const manifest = webManifest(pageSiteOf(ctx.media, await ctx.settings.current()));
    return reply.type('application/manifest+json; charset=utf-8').header('cache-control', MANIFEST_CACHE).send(JSON.stringify(manifest));
  });

  if (!webApp) return;
  // The app's page as every page path gets it, with the course's title, description and
  // thumbnail in its head: link previews and search engines read it without running the app.
  app.get(COURSE_PAGE_PATH, { schema: { hide: true } }, async (request, reply) => {
    // Read by hand: a page answers any query string with a page, never with a 400.
    const id = (request.query as Record<string, unknown>).id;
    if (typeof id !== 'string') return webApp.send(request, reply);
    // Every malformed id shares one cache entry (the page of a course not found).
    const key = /^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : 'malformed';
    // Every change of the settings empties the catalogue cache, so a cached page carries the site as it is.
    const cached = await ctx.catalogue.page(`course-page:${key}`, async () => {
      const snapshot = await ctx.settings.current();
      return webApp.render(await coursePageHead(ctx, key, snapshot.site), pageSiteOf(ctx.media, snapshot));
    });
    reply.header('cache-control', 'no-cache');
    return sendCataloguePage(request, reply, cached, 'text/html; charset=utf-8');
  });

  // A certificate's public page: the app's page with the certificate in its head, so that a shared
  // link previews with the learner's name and course; 404 for a code no certificate has (an altered
  // link), which the app shows as "not found". Read each time, never cached: a revocation shows at once.
  app.get(CERTIFICATE_PAGE_PATH, { schema: { hide: true, params: z.object({ code: z.string() }) } }, async (request, reply) => {
    // Counted with the API's lookups by code: the page costs one as well.
    if (!(await consume(ctx.limits.certificateVerificationsPerAddress, byAddress(request)))) return webApp.send(request, reply.code(429));
    const snapshot = await ctx.settings.current();
    const { head, found } = await certificatePageHead(ctx, request.params.code, snapshot.site);
    return reply
      .code(found ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(webApp.render(head, pageSiteOf(ctx.media, snapshot)));
  });
};
