import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answers } from '@lms/contract/answers';
import { endpoints } from '@lms/contract/endpoints';
import { API_PREFIX, urlOf } from '@lms/contract/http';
import { IMAGE_MAX_BYTES_META } from '@lms/contract/media';
import { isPagePath, isPathOf, PAGE_ANSWERS_ID, pagePaths } from '@lms/contract/pages';
import { DEFAULT_SITE } from '@lms/contract/site';
import { SESSION_COOKIE } from './features/auth/sessions.ts';
import type { MediaStorage } from './features/media/storage.ts';
import { ICON_SIZES, type IconSize, type SiteSnapshot } from './features/settings/site-settings.ts';
import { escapeMarkup, headTags, siteTags, splitAtHead, withoutIconLinks, type PageHead, type PageSite } from './features/storefront/page-head.ts';

/** The built web app's one page, as every page path gets it. */
export interface WebAppPage {
  /** The page with the default head (the site's name and description), rendered once per change of the settings. */
  send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /**
   * The page at a path no route of the server took: with 200 where the app has a page
   * (contract/src/pages.ts), and with 404 anywhere else, where the app shows its 404 page.
   */
  sendAt(path: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /** The page with `head` instead (a course page), carrying `site`: a string to cache, built without touching the disk. */
  render(head: PageHead, site: PageSite): string;
}

/** What a page carries of the settings `snapshot`: the public site, and the URLs of the logo's icons. */
export function pageSiteOf(media: Pick<MediaStorage, 'publicUrl'>, snapshot: Pick<SiteSnapshot, 'site' | 'logo'>): PageSite {
  const { logo } = snapshot;
  const icons = logo && (Object.fromEntries(ICON_SIZES.map((size) => [size, media.publicUrl(logo.icons[size])])) as Record<IconSize, string>);
  return { site: snapshot.site, icons };
}

/** The page's bytes as they are, and compressed once for the browsers that accept it. */
interface EncodedPage {
  html: Buffer;
  br: Buffer;
  gzip: Buffer;
}
/**
 * The modules a page needs beyond the entry's, by their sources in the build. The router asks for a
 * page's chunk only once the entry has run, and the page for what it loads next (a lecture's
 * player, hls.js) only once it has rendered: named in the page's head as modulepreload links, they
 * are fetched beside the entry instead of one after the other.
 */
export const PAGE_MODULES: { path: string; sources: string[] }[] = [
  // A lecture page's first frame waits for the page's chunk. Not hls.js: a module preloaded is compiled
  // as it arrives, and its 578 KB were compiled on the main thread just as the page was to render (an MP4
  // lecture never runs it). The page asks for it with its first render, and it is fetched and compiled
  // while the lease is on its way.
  { path: pagePaths.courseLecture, sources: ['src/features/lectures/LecturePage.tsx'] },
];

interface PageReads {
  path: string;
  reads: (search: URLSearchParams) => string[];
  /**
   * The modules the page will import once it has rendered, as the reads' answers (raw JSON by URL)
   * show, by their sources in the build: written with the answers as `<link rel="preload">`, so they
   * are fetched from then on and compiled only when imported.
   */
  fetches?: (answers: ReadonlyMap<string, string>, search: URLSearchParams) => string[];
}

/**
 * The API's reads a page makes first, by page (URLs below the API root, from the page's address),
 * beside `GET /user/me`, which every signed-in page makes. For a signed-in session they are asked
 * of the API itself as the page is sent, and their answers written into it (`answersScript`): the
 * page renders with them instead of asking once its code has run, and a lecture's lease, which
 * waits for the lecture list, leaves that much sooner.
 */
export const PAGE_READS: PageReads[] = [
  {
    // The course, its lectures and the learner's progress in it: what the lecture page shows, and the lease waits for.
    path: pagePaths.courseLecture,
    reads: (search) => {
      const id = search.get('id');
      if (!id) return [];
      return [urlOf(endpoints.courses.list, undefined, { id }), urlOf(endpoints.lectures.list, { id }), urlOf(endpoints.progress.course, { id })];
    },
    // hls.js, for a lecture with a ladder only: the lecture the page plays first,
    // picked as the page picks it (the list's lecture named by `?lecture=`, else the first). Fetched
    // for every lecture page, it made HLS views sooner and MP4 views, which never use it, later
    // (decision 0049).
    fetches: (answers, search) => {
      const id = search.get('id');
      const list = id ? answers.get(urlOf(endpoints.lectures.list, { id })) : undefined;
      if (!list) return [];
      const { lectures } = JSON.parse(list) as { lectures?: { _id: string; hls_url?: string | null }[] };
      const played = lectures?.find((lecture) => lecture._id === search.get('lecture')) ?? lectures?.[0];
      return played?.hls_url ? [HLS_SOURCE] : [];
    },
  },
];

/** hls.js in the build: the end of the manifest's key of the package's module (`manifestKeyOf`). */
const HLS_SOURCE = 'hls.js/dist/hls.mjs';

/**
 * The script that carries `answers` (raw JSON bodies by URL) in a page. Every `<` is escaped: a
 * title with `</script>` in it stays inside the script's text.
 */
export function answersScript(answers: [url: string, body: string][]): string {
  const json = `{${answers.map(([url, body]) => `${JSON.stringify(url)}:${body}`).join(',')}}`;
  return `<script type="application/json" id="${PAGE_ANSWERS_ID}">${json.replace(/</g, '\\u003c')}</script>`;
}

/** Vite's build manifest (web/dist/.vite/manifest.json): each source's chunk and the chunks it imports. */
type BuildManifest = Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;

/**
 * The manifest's key of `source`, found by the end of the key: the manifest names an installed
 * package by its path from web/, which depends on where node_modules is.
 */
function manifestKeyOf(manifest: BuildManifest, source: string): string | undefined {
  return Object.keys(manifest).find((candidate) => candidate === source || candidate.endsWith(`/${source}`));
}

/**
 * The modulepreload links of `sources` and every chunk they import, except what the entry already
 * loads (index.html names those itself).
 */
export function modulePreloadTags(manifest: BuildManifest, sources: string[]): string {
  const loadedByEntry = new Set<string>();
  const files: string[] = [];
  const walk = (key: string, into: (key: string) => void, seen: Set<string>) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    into(key);
    for (const imported of manifest[key].imports ?? []) walk(imported, into, seen);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key, () => undefined, loadedByEntry);
  const seen = new Set(loadedByEntry);
  for (const source of sources) {
    const key = manifestKeyOf(manifest, source);
    if (key) walk(key, (found) => files.push(manifest[found]!.file), seen);
  }
  return files.map((file) => `    <link rel="modulepreload" crossorigin href="/${escapeMarkup(file)}" />\n`).join('');
}

/** The `<link rel="preload">` of each of `sources`' own chunk: fetched, not compiled, until the page imports it. */
function fetchTags(manifest: BuildManifest, sources: string[]): string {
  const files = sources.flatMap((source) => {
    const key = manifestKeyOf(manifest, source);
    return key ? [manifest[key]!.file] : [];
  });
  return files.map((file) => `<link rel="preload" as="script" crossorigin href="/${escapeMarkup(file)}" />\n  `).join('');
}

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Serves the built web app (web/dist): its hashed assets from disk, and its page from memory. The
 * page is index.html with what this server knows written into it: in sandbox mode, the
 * "Test mode" ribbon (payments are imitated, and every page must say so), present from the first
 * paint on every page, without a request of its own; the largest picture it takes, which the forms
 * check a picked file against; the head tags of `defaultHead` (title, description, link preview),
 * which pages with a head of their own (storefront.routes.ts) replace; and the site's settings
 * (page-head.ts `siteTags`). The page follows the settings: it is rendered and compressed again
 * the first time it is asked for after any instance saved them, and kept until the next change.
 * Answers undefined when there is no build.
 */
export async function serveWebApp(
  app: FastifyInstance,
  {
    webRoot,
    testMode,
    imageMaxBytes,
    defaultHead,
  }: { webRoot: string; testMode: boolean; imageMaxBytes: number; defaultHead: (site: PageSite['site']) => PageHead },
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

  const { ctx } = app;
  const template = splitAtHead(renderPage(fs.readFileSync(indexFile, 'utf8'), { testMode, imageMaxBytes }));
  // With a logo, its icons take the place of the build's own.
  const templateWithoutIcons = { ...template, before: withoutIconLinks(template.before) };
  const render = (head: PageHead, site: PageSite, preloads = '') => {
    const { before, after } = site.icons ? templateWithoutIcons : template;
    return `${before}${preloads}${headTags(head)}${siteTags(site)}  ${after}`;
  };
  const manifestFile = path.join(webRoot, '.vite', 'manifest.json');
  const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BuildManifest) : undefined;
  const preloadsByPath = PAGE_MODULES.map(({ path: pagePath, sources }) => ({ pagePath, tags: manifest ? modulePreloadTags(manifest, sources) : '' }));
  /** The modulepreload links of the page at `pathname`: empty for most pages. */
  const preloadsAt = (pathname: string) => preloadsByPath.find(({ pagePath }) => isPathOf(pathname, pagePath))?.tags ?? '';
  const build = async (snapshot: Pick<SiteSnapshot, 'site' | 'logo'>, preloads: string): Promise<EncodedPage> => {
    const html = Buffer.from(render(defaultHead(snapshot.site), pageSiteOf(ctx.media, snapshot), preloads));
    // At the best settings: the page is small, sent on every first visit, and compressed once per change of the settings.
    const [br, gzipped] = await Promise.all([
      brotliCompress(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } }),
      gzip(html, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    return { html, br, gzip: gzipped };
  };
  // The last renders (one for each set of preloads), and the settings they were made from: a save on any instance makes a new snapshot.
  let last: { snapshot: SiteSnapshot; pages: Map<string, Promise<EncodedPage>> } | undefined;
  const freshSite = new Map<string, Promise<EncodedPage>>();
  const current = async (preloads: string): Promise<EncodedPage> => {
    let snapshot: SiteSnapshot;
    try {
      snapshot = await ctx.settings.current();
    } catch (error) {
      // The app still loads while the settings cannot be read (the database is away): as last rendered, else as a fresh site.
      app.log.warn({ err: error }, 'could not read the site settings: the page is sent as last rendered');
      const rendered = last?.pages.get(preloads);
      if (rendered) return rendered;
      if (!freshSite.has(preloads)) freshSite.set(preloads, build({ site: DEFAULT_SITE, logo: null }, preloads));
      return freshSite.get(preloads)!;
    }
    if (last?.snapshot !== snapshot) last = { snapshot, pages: new Map() };
    const { pages } = last;
    let page = pages.get(preloads);
    if (!page) {
      const made = build(snapshot, preloads);
      pages.set(preloads, made);
      // A render that failed is not kept: the next request renders again.
      made.catch(() => {
        if (pages.get(preloads) === made) pages.delete(preloads);
      });
      page = made;
    }
    return page;
  };

  /** The compression the browser takes that the page is sent with, if any. */
  const encodingFor = (request: FastifyRequest) => {
    const accepted = request.headers['accept-encoding'];
    return accepted ? negotiate(accepted, ['br', 'gzip']) : null;
  };

  const sendPage = async (preloads: string, request: FastifyRequest, reply: FastifyReply, vary = 'accept-encoding') => {
    const encoded = await current(preloads);
    const encoding = encodingFor(request);
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', vary);
    if (encoding === 'br' || encoding === 'gzip') return reply.header('content-encoding', encoding).send(encoded[encoding]);
    return reply.send(encoded.html);
  };

  /**
   * The reads of `urls` as the API answers them to the session of `request`: asked of the API in
   * this process, with the request's cookie, user agent and address, so that each answer is the
   * one the page would get (the same guards, the same rows). None unless the session is signed in,
   * and only the answers of 200: a refusal is left for the page to ask for and show as it does.
   */
  const answersFor = async (request: FastifyRequest, urls: string[]): Promise<[string, string][] | undefined> => {
    const { cookie } = request.headers;
    if (!cookie || !request.cookies[SESSION_COOKIE]) return undefined;
    const headers: Record<string, string> = { cookie };
    if (request.headers['user-agent']) headers['user-agent'] = request.headers['user-agent'];
    const ask = (url: string) => app.inject({ method: 'GET', url: `${API_PREFIX}${url}`, headers, remoteAddress: request.ip });
    const me = urlOf(endpoints.users.me);
    const asked = [me, ...urls];
    const answered = await Promise.all(asked.map(ask));
    if (answered[0]!.statusCode !== 200) return undefined;
    return asked.flatMap((url, index) => {
      const answer = answered[index]!;
      return answer.statusCode === 200 && /^application\/json/.test(String(answer.headers['content-type'] ?? ''))
        ? [[url, answer.body] as [string, string]]
        : [];
    });
  };

  /** The preload links of the modules `reads` says the page will import, given the answers sent with it. */
  const fetchesFor = (reads: PageReads, sent: [string, string][], search: URLSearchParams, request: FastifyRequest) => {
    if (!manifest || !reads.fetches) return '';
    try {
      return fetchTags(manifest, reads.fetches(new Map(sent), search));
    } catch (error) {
      request.log.warn({ err: error }, 'could not tell which modules the page will import: it fetches them itself');
      return '';
    }
  };

  /**
   * The page for a request with a session cookie, with the answers of its first reads (`answersFor`)
   * in it: everything before `</body>` is sent at once (the browser fetches the modules it names while
   * the reads are made), then the links of what the answers show it will import (`fetches`), the
   * answers and the rest. Its module scripts run once the document has ended, so they find the
   * answers there. For one session: never kept by any cache, and compressed for this response
   * alone, at a quicker setting than the shared page's.
   */
  const sendWithAnswers = async (preloads: string, reads: PageReads, search: URLSearchParams, request: FastifyRequest, reply: FastifyReply) => {
    const urls = reads.reads(search);
    const shared = (await current(preloads)).html.toString();
    const end = shared.lastIndexOf('</body>');
    const [first, rest] = end < 0 ? [shared, ''] : [shared.slice(0, end), shared.slice(end)];
    const encoding = encodingFor(request);
    const body =
      encoding === 'br'
        ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
        : encoding === 'gzip'
          ? zlib.createGzip()
          : new PassThrough();
    const answerTheReads = () =>
      answersFor(request, urls).then(
        (sent) => body.end(sent ? `${fetchesFor(reads, sent, search, request)}${answersScript(sent)}\n  ${rest}` : rest),
        (error: unknown) => {
          request.log.warn({ err: error }, "could not read the page's first answers: the page is sent without them");
          body.end(rest);
        },
      );
    // The reads start once the first part is on the socket. The embedded database answers them on
    // this thread, promise after promise, and nothing is written while they run: started at once,
    // they held the first part back until the last. So: the compressor's flush (made in the thread
    // pool), then a turn of the event loop for the reply's pipe to write it.
    body.write(first);
    const onceWritten = () => setImmediate(() => void answerTheReads());
    if (body instanceof PassThrough) onceWritten();
    else body.flush(onceWritten);
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'private, no-store').header('vary', 'accept-encoding, cookie');
    if (encoding === 'br' || encoding === 'gzip') reply.header('content-encoding', encoding);
    return reply.send(body);
  };

  const page: WebAppPage = {
    send: (request, reply) => sendPage('', request, reply),
    async sendAt(pathname, request, reply) {
      reply.code(isPagePath(pathname) ? 200 : 404);
      const preloads = preloadsAt(pathname);
      const reads = PAGE_READS.find(({ path: pagePath }) => isPathOf(pathname, pagePath));
      if (!reads) return sendPage(preloads, request, reply);
      // The same address answers a signed-in viewer with their own page: a cache keeps a visitor's for visitors only.
      if (!request.cookies[SESSION_COOKIE] || request.method !== 'GET') return sendPage(preloads, request, reply, 'accept-encoding, cookie');
      const query = request.url.indexOf('?');
      return sendWithAnswers(preloads, reads, new URLSearchParams(query < 0 ? '' : request.url.slice(query + 1)), request, reply);
    },
    render: (head, site) => render(head, site),
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
