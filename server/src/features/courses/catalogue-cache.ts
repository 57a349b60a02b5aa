import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { SESSION_COOKIE } from '../auth/sessions.ts';

/**
 * The catalogue (GET /courses) is the hottest read and the same for every visitor, and it
 * changes only when an administrator edits it. Its pages are kept here serialized, and
 * compressed once for the browsers that accept it: a page of 50 courses is about 23 KB of
 * JSON and 2.7 KB of Brotli. Any change to courses or lectures, made on any instance of a
 * scaled-out deployment (decision 0019), empties it on every instance (changes.ts); pages are also
 * computed again after CATALOGUE_FRESH_MS, for what they show from elsewhere: meanwhile the
 * page that has aged is still served, so that no visitor waits for the query (on PGlite it
 * runs on this thread and held every request behind it).
 * Each page has an ETag made from its bytes, so every instance gives the same page the same
 * ETag, and a browser that already has it is answered 304 without the body.
 * What is built from the catalogue alone is kept here too, so the same writes refresh it:
 * a course's public curriculum, its page's HTML head, the sitemap; and, unserialized (`value`),
 * a course's contents as learners see them, which each request turns into its viewer's answer.
 * The answer given to a visitor (no session) is kept whole, by URL and Accept-Encoding, and
 * given again while its page is current: by the HTTP server's listener before Fastify
 * (kept-answers-first.ts), or from the request's first hooks (`answerFromCatalogue`).
 */
export const CATALOGUE_FRESH_MS = 5000;
/** Searches make many distinct pages (and courses many contents); past this many the cache starts over rather than grow. */
const MAX_PAGES = 500;
/** Distinct URLs whose answers are kept; past this many they start over rather than grow (any query string is a URL). */
const MAX_KEPT_URLS = 1000;
/** Distinct Accept-Encoding headers kept per URL: browsers send a handful. */
const MAX_KEPT_ENCODINGS = 8;
/** Below this a page is sent as it is: compressing saves less than the header costs. */
export const COMPRESS_MIN_BYTES = 1024;

export type ContentEncoding = 'br' | 'gzip';
const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const compressors: Record<ContentEncoding, (json: Buffer) => Promise<Buffer>> = {
  // Quality 5 compresses a 23 KB page in 0.5 ms; the best, 11, is 14 % smaller but takes 35 ms.
  br: (json) => brotliCompress(json, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (json) => gzip(json),
};
// Brotli first: it is smaller, and every browser that sends `br` prefers it.
const ENCODINGS: ContentEncoding[] = ['br', 'gzip'];

/** One cached page: its JSON (or text), and each compression of it once a client has asked for it. */
export interface CataloguePage {
  /** The cache's key of the page. */
  key: string;
  /** The bytes as they are: the value as JSON, or the text itself when the value is a string. */
  json: Buffer;
  /** A weak validator of the content (any encoding of it): a digest of `json`. */
  etag: string;
  /** The bytes to send to a client whose Accept-Encoding is `acceptEncoding`, and their encoding. */
  bodyFor(acceptEncoding: string | undefined): Promise<{ body: Buffer; encoding?: ContentEncoding }>;
}

export interface CatalogueCache {
  /** `key`'s page; concurrent callers of a missing page share one `compute`. A string is kept as it is, anything else as JSON. */
  page(key: string, compute: () => Promise<unknown>): Promise<CataloguePage>;
  /**
   * `key`'s value, kept as `compute` made it, under the pages' rules (shared compute, freshness,
   * emptied by every write), apart from them. It is frozen: every caller gets the same object.
   */
  value<T>(key: string, compute: () => Promise<T>): Promise<Readonly<T>>;
  /** Called by every write to courses or lectures. */
  invalidate(): void;
  /** Keeps the answer sendCataloguePage gave a visitor for `url`, to be given again while its page is current. */
  keep(url: string, acceptEncoding: string | undefined, answer: KeptAnswer): void;
  /** The answer kept for `url` and this Accept-Encoding, while its page is still the fresh page of its key. */
  kept(url: string, acceptEncoding: string | undefined): KeptAnswer | undefined;
  /** Pages and values served from the cache, and computed, since the start (the metrics read them). */
  readonly stats: CacheStats;
}

type HeaderValues = Record<string, string | number | string[] | undefined>;

/** An answer as sendCataloguePage gave it: its status, every header set before the body, and the body; and its 304's headers. */
export interface KeptAnswer {
  page: CataloguePage;
  /** The route's pattern, the metrics' label. */
  route: string | undefined;
  statusCode: number;
  headers: HeaderValues;
  body: Buffer;
  /** The headers of the 304 to a client that holds the page (If-None-Match). */
  notModifiedHeaders: HeaderValues;
  /** The headers as Fastify hands them to writeHead with the body: `headers` and the body's Content-Length (a 304 has none: its headers go as they are). */
  rawHeaders: HeaderValues;
}

export interface CacheStats {
  hits: number;
  misses: number;
}

/**
 * The page of `value`; `previous` itself when its bytes are the same, so that a page computed
 * again unchanged (every CATALOGUE_FRESH_MS) keeps its compressions and the answers kept from it.
 */
function cataloguePage(key: string, value: unknown, previous?: CataloguePage): CataloguePage {
  const json = Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
  if (previous?.json.equals(json)) return previous;
  const compressed = new Map<ContentEncoding, Promise<Buffer>>();
  return {
    key,
    json,
    etag: `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`,
    async bodyFor(acceptEncoding) {
      const encoding = json.length >= COMPRESS_MIN_BYTES && acceptEncoding ? negotiate(acceptEncoding, ENCODINGS) : null;
      if (!encoding) return { body: json };
      let body = compressed.get(encoding);
      if (!body) compressed.set(encoding, (body = compressors[encoding](json)));
      return { body: await body, encoding };
    },
  };
}

interface CacheEntry<V> {
  until: number;
  value: Promise<V>;
  /** The value once computed: what is served, past `until`, while `refresh` computes the next one. */
  ready?: V;
  refresh?: Promise<void>;
}

/**
 * Values by key: one compute shared by concurrent callers; fresh for `freshMs`, then served aged while
 * one compute makes the next; a failure is not kept. `make` turns what a compute gave into what is kept.
 */
function keptValues<V>(
  { freshMs, now, stats }: { freshMs: number; now: () => number; stats: CacheStats },
  make: (key: string, computed: unknown, previous?: V) => V,
) {
  const entries = new Map<string, CacheEntry<V>>();
  const computed = (key: string, compute: () => Promise<unknown>, previous?: V): CacheEntry<V> => {
    const entry: CacheEntry<V> = { until: now() + freshMs, value: compute().then((value) => make(key, value, previous)) };
    entry.value.then(
      (value) => void (entry.ready = value),
      // A failure is not kept: the next request tries again.
      () => entries.get(key) === entry && entries.delete(key),
    );
    return entry;
  };
  return {
    entries,
    get(key: string, compute: () => Promise<unknown>): Promise<V> {
      const cached = entries.get(key);
      if (cached && (cached.until > now() || cached.ready)) {
        stats.hits++;
        // Aged, not invalidated (a write empties the map): one compute replaces it, as it finishes.
        if (cached.until <= now() && !cached.refresh) {
          stats.misses++;
          const next = computed(key, compute, cached.ready);
          cached.refresh = next.value.then(
            () => void (entries.get(key) === cached && entries.set(key, next)),
            () => void (entries.get(key) === cached && entries.delete(key)),
          );
        }
        return cached.value;
      }
      stats.misses++;
      if (entries.size >= MAX_PAGES) entries.clear();
      const entry = computed(key, compute);
      entries.set(key, entry);
      return entry.value;
    },
  };
}

/** `value` and everything in it made read-only: a kept value is shared by every request. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) frozen(inner);
  }
  return value;
}

export function createCatalogueCache({ freshMs = CATALOGUE_FRESH_MS, now = Date.now } = {}): CatalogueCache {
  const stats: CacheStats = { hits: 0, misses: 0 };
  const pages = keptValues<CataloguePage>({ freshMs, now, stats }, cataloguePage);
  const values = keptValues<unknown>({ freshMs, now, stats }, (_key, value) => frozen(value));
  const answers = new Map<string, Map<string, KeptAnswer>>();
  return {
    stats,
    page: (key, compute) => pages.get(key, compute),
    value: <T>(key: string, compute: () => Promise<T>) => values.get(key, compute) as Promise<Readonly<T>>,
    invalidate: () => {
      pages.entries.clear();
      values.entries.clear();
      answers.clear();
    },
    keep(url, acceptEncoding = '', answer) {
      let byEncoding = answers.get(url);
      if (!byEncoding) {
        if (answers.size >= MAX_KEPT_URLS) answers.clear();
        answers.set(url, (byEncoding = new Map()));
      }
      if (byEncoding.size < MAX_KEPT_ENCODINGS || byEncoding.has(acceptEncoding)) byEncoding.set(acceptEncoding, answer);
    },
    kept(url, acceptEncoding = '') {
      const answer = answers.get(url)?.get(acceptEncoding);
      if (!answer) return undefined;
      // Only while it is the fresh page of its key: an aged one goes the route's way, which computes the next.
      const entry = pages.entries.get(answer.page.key);
      if (entry?.ready !== answer.page || entry.until <= now()) return undefined;
      stats.hits++;
      return answer;
    },
  };
}

/** A request whose Cookie header does not name the session cookie: a visitor, who gets the public pages (a session may be an administrator's). */
export const isVisitor = (cookie: string | undefined) => !cookie?.includes(SESSION_COOKIE);

/**
 * Answers a visitor's GET from the answers sendCataloguePage kept, byte for byte as the route
 * would (the same status, headers and body), before the hooks and the handler the route would
 * run: the catalogue and the curriculum are most of the server's traffic; a visitor that holds the
 * page (If-None-Match) gets the route's 304. A request with a session cookie, or for a page that
 * aged or changed, goes the route's way.
 * Later hooks (onSend, onResponse: the access log, the metrics) run as for any answer.
 */
export function answerFromCatalogue(cache: Pick<CatalogueCache, 'kept'>): onRequestHookHandler {
  return (request, reply, done) => {
    if (request.method !== 'GET' || !isVisitor(request.headers.cookie)) return done();
    const answer = cache.kept(request.url, request.headers['accept-encoding']);
    if (!answer) return done();
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, answer.page.etag)) return void reply.code(304).headers(answer.notModifiedHeaders).send();
    void reply.code(answer.statusCode).headers(answer.headers).send(answer.body);
  };
}

/**
 * Sends a cached page, compressed when the client accepts it; JSON unless `type` says otherwise.
 * A client that holds this very page (If-None-Match) gets 304 and no body; whether a browser may
 * keep a copy to ask about is the caller's Cache-Control.
 */
export async function sendCataloguePage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: CataloguePage,
  type = 'application/json; charset=utf-8',
): Promise<FastifyReply> {
  reply.header('vary', 'accept-encoding').header('etag', page.etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, page.etag)) return reply.code(304).send();
  // What answerFromCatalogue may give the next visitor who asks for this URL.
  const keep = request.method === 'GET' && ifNoneMatch === undefined && isVisitor(request.headers.cookie);
  const notModifiedHeaders = keep ? { ...reply.getHeaders() } : {};
  const acceptEncoding = request.headers['accept-encoding'];
  const { body, encoding } = await page.bodyFor(acceptEncoding);
  // Already serialized, sent as it is: a route's response schema describes what is inside the bytes.
  reply.type(type);
  if (encoding) reply.header('content-encoding', encoding);
  if (keep) {
    const headers = { ...reply.getHeaders() };
    request.server.ctx.catalogue.keep(request.url, acceptEncoding, {
      page,
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      headers,
      body,
      notModifiedHeaders,
      // What Fastify's reply adds before writeHead: the length of a body it is given as bytes.
      rawHeaders: { ...headers, 'content-length': String(body.length) },
    });
  }
  return reply.send(body as never);
}

/** If-None-Match's weak comparison (RFC 9110 §13.1.2): any listed tag, W/ or not, or `*`. */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((listed) => {
    const tag = listed.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}
