/**
 * The catalogue (GET /courses) is the hottest read and the same for every visitor, and it
 * changes only when an administrator edits it. Its pages are kept here serialized:
 * a change made through this instance empties the cache at once, and other instances
 * of a scaled-out deployment (DESIGN §9) show it within CATALOGUE_FRESH_MS.
 */
export const CATALOGUE_FRESH_MS = 5000;
/** Searches make many distinct pages; past this many the cache starts over rather than grow. */
const MAX_PAGES = 500;

export interface CatalogueCache {
  /** The JSON of `key`'s page; concurrent callers of a missing page share one `compute`. */
  page(key: string, compute: () => Promise<unknown>): Promise<Buffer>;
  /** Called by every write to courses or lectures. */
  invalidate(): void;
}

export function createCatalogueCache({ freshMs = CATALOGUE_FRESH_MS, now = Date.now } = {}): CatalogueCache {
  const pages = new Map<string, { until: number; body: Promise<Buffer> }>();
  return {
    page(key, compute) {
      const cached = pages.get(key);
      if (cached && cached.until > now()) return cached.body;
      if (pages.size >= MAX_PAGES) pages.clear();
      const entry = { until: now() + freshMs, body: compute().then((value) => Buffer.from(JSON.stringify(value))) };
      pages.set(key, entry);
      // A failure is not kept: the next request tries again.
      entry.body.catch(() => pages.get(key) === entry && pages.delete(key));
      return entry.body;
    },
    invalidate: () => pages.clear(),
  };
}
