import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WebAppPage } from '../../web-app.ts';
import { sendCataloguePage } from '../courses/catalogue-cache.ts';
import { buildSitemap, COURSE_PAGE_PATH, coursePageHead, robotsTxt } from './storefront.service.ts';

const XML = 'application/xml; charset=utf-8';
/** Crawlers may keep robots.txt and the sitemap a while; a course added meanwhile waits at most this long. */
const CRAWLER_CACHE = 'public, max-age=3600';

/**
 * At the site's root, beside the web app: what search engines and link previews read.
 * robots.txt and the sitemap work with or without a web build; a course page's own
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

  if (!webApp) return;
  // The app's page as every page path gets it, with the course's title, description and
  // thumbnail in its head: link previews and search engines read it without running the app.
  app.get(COURSE_PAGE_PATH, { schema: { hide: true } }, async (request, reply) => {
    // Read by hand: a page answers any query string with a page, never with a 400.
    const id = (request.query as Record<string, unknown>).id;
    if (typeof id !== 'string') return webApp.send(request, reply);
    // Every malformed id shares one cache entry (the page of a course not found).
    const key = /^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : 'malformed';
    const cached = await ctx.catalogue.page(`course-page:${key}`, async () => webApp.render(await coursePageHead(ctx, key)));
    reply.header('cache-control', 'no-cache');
    return sendCataloguePage(request, reply, cached, 'text/html; charset=utf-8');
  });
};
