import { describe, expect, it } from 'vitest';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { COMPRESS_MIN_BYTES, createCatalogueCache, matchesEtag, type CataloguePage } from './catalogue-cache.ts';

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

/** A compute that counts its calls and answers `value` with the call number, so each result can be told apart. */
function counting<T>(value: (call: number) => T) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    compute: async () => value(++calls),
  };
}

const json = (page: CataloguePage) => JSON.parse(page.json.toString('utf8'));
/** Lets every compute already resolved, and what waits on it, finish. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('createCatalogueCache', () => {
  it('shares one compute among concurrent callers of a missing page', async () => {
    const cache = createCatalogueCache({ freshMs: 5000 });
    let finish!: (value: unknown) => void;
    let calls = 0;
    const compute = () => {
      calls += 1;
      return new Promise<unknown>((resolve) => (finish = resolve));
    };
    const first = cache.page('all', compute);
    const second = cache.page('all', compute);
    expect(calls).toBe(1);
    finish({ courses: [{ title: 'Rust für Anfänger' }], total: 1 });
    const [a, b] = await Promise.all([first, second]);
    expect(calls).toBe(1);
    expect(b).toBe(a);
    expect(json(a)).toEqual({ courses: [{ title: 'Rust für Anfänger' }], total: 1 });
  });

  it('serves the cached bytes until freshMs has passed, then the aged page while one compute makes the next', async () => {
    const time = clock();
    const cache = createCatalogueCache({ freshMs: 5000, now: time.now });
    let finish!: () => void;
    let calls = 0;
    const compute = () => {
      const call = ++calls;
      return call === 1 ? Promise.resolve({ call }) : new Promise<unknown>((resolve) => (finish = () => resolve({ call })));
    };
    expect(json(await cache.page('all', compute))).toEqual({ call: 1 });
    time.advance(4999);
    expect(json(await cache.page('all', compute))).toEqual({ call: 1 });
    expect(calls).toBe(1);
    time.advance(1);
    // Aged: still answered at once, by the old page, while a single compute runs.
    expect(json(await cache.page('all', compute))).toEqual({ call: 1 });
    expect(json(await cache.page('all', compute))).toEqual({ call: 1 });
    expect(calls).toBe(2);
    finish();
    await settled();
    expect(json(await cache.page('all', compute))).toEqual({ call: 2 });
    // The new page is fresh for another freshMs from when it was asked for.
    time.advance(4999);
    expect(json(await cache.page('all', compute))).toEqual({ call: 2 });
    expect(calls).toBe(2);
  });

  it('never serves an aged page after invalidate(), nor lets its late compute back in', async () => {
    const time = clock();
    const cache = createCatalogueCache({ freshMs: 5000, now: time.now });
    let finishLate!: () => void;
    let calls = 0;
    const compute = () => {
      const call = ++calls;
      return call === 2 ? new Promise<unknown>((resolve) => (finishLate = () => resolve({ call }))) : Promise.resolve({ call });
    };
    expect(json(await cache.page('all', compute))).toEqual({ call: 1 });
    time.advance(5000);
    expect(json(await cache.page('all', compute))).toEqual({ call: 1 });
    cache.invalidate();
    expect(json(await cache.page('all', compute))).toEqual({ call: 3 });
    finishLate();
    await settled();
    expect(json(await cache.page('all', compute))).toEqual({ call: 3 });
  });

  it('drops an aged page whose new compute failed: the next call computes again, and says so if it fails', async () => {
    const time = clock();
    const cache = createCatalogueCache({ freshMs: 5000, now: time.now });
    let calls = 0;
    const compute = async () => {
      calls += 1;
      if (calls > 1) throw new Error('database unavailable');
      return { call: calls };
    };
    expect(json(await cache.page('all', compute))).toEqual({ call: 1 });
    time.advance(5000);
    expect(json(await cache.page('all', compute))).toEqual({ call: 1 });
    await settled();
    await expect(cache.page('all', compute)).rejects.toThrow('database unavailable');
  });

  it('tags a page by its bytes: the same content the same ETag, in any cache; other content another', async () => {
    const one = await createCatalogueCache().page('all', async () => ({ courses: ['Rust'] }));
    const same = await createCatalogueCache().page('all', async () => ({ courses: ['Rust'] }));
    const other = await createCatalogueCache().page('all', async () => ({ courses: ['Go'] }));
    expect(one.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(same.etag).toBe(one.etag);
    expect(other.etag).not.toBe(one.etag);
  });

  it('keeps a page computed again with the same bytes, and makes a new one when they differ', async () => {
    const time = clock();
    const cache = createCatalogueCache({ freshMs: 5000, now: time.now });
    let courses = ['Rust'];
    const compute = async () => ({ courses });
    const first = await cache.page('all', compute);
    time.advance(5000);
    await cache.page('all', compute);
    await settled();
    expect(await cache.page('all', compute)).toBe(first);
    courses = ['Go'];
    time.advance(5000);
    await cache.page('all', compute);
    await settled();
    const changed = await cache.page('all', compute);
    expect(changed).not.toBe(first);
    expect(json(changed)).toEqual({ courses: ['Go'] });
  });

  describe('answers kept for visitors', () => {
    const answerOf = (page: CataloguePage) => ({
      page,
      route: '/api/v1/courses',
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: page.json,
      notModifiedHeaders: {},
      rawHeaders: { 'content-type': 'application/json', 'content-length': String(page.json.length) },
    });

    it('gives a kept answer back, by URL and Accept-Encoding, while its page is fresh, and counts it a hit', async () => {
      const time = clock();
      const cache = createCatalogueCache({ freshMs: 5000, now: time.now });
      const page = await cache.page('all', async () => ({ courses: ['Rust'] }));
      const answer = answerOf(page);
      cache.keep('/api/v1/courses', 'br', answer);
      const hits = cache.stats.hits;
      expect(cache.kept('/api/v1/courses', 'br')).toBe(answer);
      expect(cache.stats.hits).toBe(hits + 1);
      expect(cache.kept('/api/v1/courses', 'gzip')).toBeUndefined();
      expect(cache.kept('/api/v1/courses', undefined)).toBeUndefined();
      expect(cache.kept('/api/v1/courses?page=2', 'br')).toBeUndefined();
      time.advance(4999);
      expect(cache.kept('/api/v1/courses', 'br')).toBe(answer);
      // Aged: the route's way, which computes the next page.
      time.advance(1);
      expect(cache.kept('/api/v1/courses', 'br')).toBeUndefined();
    });

    it('drops every kept answer on invalidate(), and never gives one whose page was replaced', async () => {
      const time = clock();
      const cache = createCatalogueCache({ freshMs: 5000, now: time.now });
      const source = counting((call) => ({ call }));
      cache.keep('/a', undefined, answerOf(await cache.page('all', source.compute)));
      cache.invalidate();
      expect(cache.kept('/a', undefined)).toBeUndefined();

      const page = await cache.page('all', source.compute);
      cache.keep('/a', undefined, answerOf(page));
      time.advance(5000);
      await cache.page('all', source.compute);
      await settled();
      // Computed again with other bytes: the kept answer was the old page's.
      expect(await cache.page('all', source.compute)).not.toBe(page);
      expect(cache.kept('/a', undefined)).toBeUndefined();
    });
  });

  it('computes again after invalidate()', async () => {
    const cache = createCatalogueCache({ freshMs: 60_000 });
    const source = counting((call) => ({ call }));
    expect(json(await cache.page('all', source.compute))).toEqual({ call: 1 });
    expect(json(await cache.page('all', source.compute))).toEqual({ call: 1 });
    cache.invalidate();
    expect(json(await cache.page('all', source.compute))).toEqual({ call: 2 });
    expect(source.calls).toBe(2);
  });

  it('does not keep a failed compute: the next call computes again and succeeds', async () => {
    const cache = createCatalogueCache({ freshMs: 60_000 });
    const failure = new Error('database unavailable');
    let calls = 0;
    const compute = async () => {
      calls += 1;
      if (calls === 1) throw failure;
      return { call: calls };
    };
    await expect(cache.page('all', compute)).rejects.toBe(failure);
    expect(json(await cache.page('all', compute))).toEqual({ call: 2 });
    expect(json(await cache.page('all', compute))).toEqual({ call: 2 });
    expect(calls).toBe(2);
  });

  it('keeps the newer page when a compute begun before invalidate() fails afterwards', async () => {
    const cache = createCatalogueCache({ freshMs: 60_000 });
    let fail!: (error: Error) => void;
    const old = cache.page('all', () => new Promise((_, reject) => (fail = reject)));
    cache.invalidate();
    const source = counting((call) => ({ call }));
    expect(json(await cache.page('all', source.compute))).toEqual({ call: 1 });
    fail(new Error('connection reset'));
    await expect(old).rejects.toThrow('connection reset');
    expect(json(await cache.page('all', source.compute))).toEqual({ call: 1 });
    expect(source.calls).toBe(1);
  });

  it('keeps different keys apart', async () => {
    const cache = createCatalogueCache({ freshMs: 60_000 });
    const all = counting(() => ({ page: 'all' }));
    const systems = counting(() => ({ page: 'Systems' }));
    expect(json(await cache.page('all', all.compute))).toEqual({ page: 'all' });
    expect(json(await cache.page('category=Systems', systems.compute))).toEqual({ page: 'Systems' });
    expect(json(await cache.page('all', all.compute))).toEqual({ page: 'all' });
    expect(json(await cache.page('category=Systems', systems.compute))).toEqual({ page: 'Systems' });
    expect([all.calls, systems.calls]).toEqual([1, 1]);
  });

  describe('values, kept as they are', () => {
    it('gives concurrent callers one compute and the same object, frozen to its leaves', async () => {
      const cache = createCatalogueCache();
      const contents = counting((call) => ({ call, lectures: [{ title: 'Ownership', processing: { percent: 40 } }] }));
      const [a, b] = await Promise.all([cache.value('contents', contents.compute), cache.value('contents', contents.compute)]);
      expect(contents.calls).toBe(1);
      expect(b).toBe(a);
      expect(await cache.value('contents', contents.compute)).toBe(a);
      expect(Object.isFrozen(a.lectures[0]!.processing)).toBe(true);
      expect(() => ((a.lectures[0] as { title: string }).title = 'Borrowing')).toThrow(TypeError);
    });

    it('are emptied by invalidate() with the pages, and aged as they are', async () => {
      const time = clock();
      const cache = createCatalogueCache({ freshMs: 5000, now: time.now });
      const contents = counting((call) => ({ call }));
      const page = counting((call) => ({ call }));
      expect(await cache.value('contents', contents.compute)).toEqual({ call: 1 });
      // Apart from the pages: the same key is another entry.
      expect(json(await cache.page('contents', page.compute))).toEqual({ call: 1 });
      expect([contents.calls, page.calls]).toEqual([1, 1]);
      cache.invalidate();
      expect(await cache.value('contents', contents.compute)).toEqual({ call: 2 });
      time.advance(5000);
      // Aged: given at once, while one compute makes the next.
      expect(await cache.value('contents', contents.compute)).toEqual({ call: 2 });
      await settled();
      expect(await cache.value('contents', contents.compute)).toEqual({ call: 3 });
    });

    it('keeps no failure: the next call computes again', async () => {
      const cache = createCatalogueCache();
      let calls = 0;
      const compute = async () => {
        calls += 1;
        if (calls === 1) throw new Error('course not found');
        return { call: calls };
      };
      await expect(cache.value('contents', compute)).rejects.toThrow('course not found');
      expect(await cache.value('contents', compute)).toEqual({ call: 2 });
    });
  });

  describe('compression', () => {
    // Enough courses to be worth compressing, repetitive like a real page.
    const bigPage = { courses: Array.from({ length: 60 }, (_, i) => ({ title: `Course ${i}`, description: 'Learn by doing. '.repeat(4) })) };
    const chromium = 'gzip, deflate, br, zstd';

    it('sends Brotli to a browser that accepts it, gzip to a client that accepts only gzip, and JSON otherwise', async () => {
      const page = await createCatalogueCache().page('all', async () => bigPage);
      expect(page.json.length).toBeGreaterThan(COMPRESS_MIN_BYTES);

      const br = await page.bodyFor(chromium);
      expect(br.encoding).toBe('br');
      expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual(bigPage);
      expect(br.body.length).toBeLessThan(page.json.length / 4);

      const gzip = await page.bodyFor('gzip');
      expect(gzip.encoding).toBe('gzip');
      expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual(bigPage);

      for (const refusal of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
        expect(await page.bodyFor(refusal), String(refusal)).toEqual({ body: page.json });
      }
    });

    it("follows the client's preference, and prefers Brotli when both are equally welcome", async () => {
      const page = await createCatalogueCache().page('all', async () => bigPage);
      expect((await page.bodyFor('br;q=0.5, gzip;q=1')).encoding).toBe('gzip');
      expect((await page.bodyFor('gzip, br')).encoding).toBe('br');
      expect((await page.bodyFor('*')).encoding).toBe('br');
    });

    it('compresses a page once per encoding, however many clients ask', async () => {
      const page = await createCatalogueCache().page('all', async () => bigPage);
      const [first, second] = await Promise.all([page.bodyFor(chromium), page.bodyFor(chromium)]);
      expect(second.body).toBe(first.body);
      expect((await page.bodyFor('br')).body).toBe(first.body);
    });

    it('sends a small page as it is', async () => {
      const page = await createCatalogueCache().page('one', async () => ({ courses: [{ title: 'Rust' }] }));
      expect(page.json.length).toBeLessThan(COMPRESS_MIN_BYTES);
      expect(await page.bodyFor(chromium)).toEqual({ body: page.json });
    });
  });
});

describe('matchesEtag', () => {
  it("compares weakly, any tag of a list, and takes '*'", () => {
    expect(matchesEtag('W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag('"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag('W/"x" , W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag('*', 'W/"abc"')).toBe(true);
    expect(matchesEtag('W/"abcd"', 'W/"abc"')).toBe(false);
    expect(matchesEtag('', 'W/"abc"')).toBe(false);
  });
});
