import fs from 'node:fs/promises';
import path from 'node:path';
import type { CDPSession } from 'playwright-core';
import { paths } from '../../../web/src/lib/paths.ts';
import type { Bench } from '../bench.ts';
import { launchChromium } from '../chromium.ts';
import { firstCourse, root, startProduct, type Product } from '../product.ts';
import { kb, type Measurement, type SectionResult } from '../report.ts';

const WEB = path.join(root, 'web');
const DIST = path.join(WEB, 'dist');
/** Debian's full browser, as the screenshots use it; the bench never downloads one. */
/** Budgets: the JS a logged-out visitor's first load downloads, as Chromium gets it (Brotli, which the server pre-compresses). */
const HOME_BUDGET_BYTES = 110 * 1024;
const PAGE_BUDGET_BYTES = 120 * 1024;
/** Budget: no page's own chunk over 30 KB, except the dashboard's (its charts). */
const PAGE_CHUNK_BUDGET_BYTES = 30 * 1024;
/** The network counts as settled once nothing has started or finished for this long. */
const QUIET_MS = 2000;
/** A page that never settles (a stream left open) is measured at this point rather than waited on forever. */
const SETTLE_LIMIT_MS = 20_000;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The pages of the router, as `{ path, ...page(() => import('…')) }` lines: route path → page source. */
async function routePages(): Promise<{ route: string; source: string }[]> {
  const router = await fs.readFile(path.join(WEB, 'src/app/router.tsx'), 'utf8');
  const pages = [...router.matchAll(/path: (?:paths\.(\w+)|'([^']+)'), \.\.\.page\(\(\) => import\('([^']+)'\)\)/g)];
  if (pages.length === 0) throw new Error('no pages found in web/src/app/router.tsx');
  return pages.map(([, name, literal, module]) => ({
    route: name ? paths[name as keyof typeof paths] : literal!,
    source: `${path.posix.join('src/app', module!)}.tsx`,
  }));
}

interface ScriptLoad {
  url: string;
  /** Body bytes as they came over the wire (Brotli), without the response's headers. */
  body: number;
  /** Everything Chromium received for it, headers included. */
  transferred: number;
}

/**
 * Loads `url` in a fresh browser context (a cold cache, no cookies: a logged-out visitor's first
 * visit) and answers every script Chromium fetched from navigation until the page's heading is
 * visible and the network has been quiet for two seconds — the lazy chunks a page pulls in after
 * its first paint count, as the visitor downloads them too.
 */
async function scriptsLoaded(browser: import('playwright-core').Browser, url: string): Promise<ScriptLoad[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts = new Map<string, { url: string; headers: number }>();
    const loads: ScriptLoad[] = [];
    let inFlight = 0;
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', () => {
      inFlight++;
      lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      if (type === 'Script') scripts.set(requestId, { url: response.url, headers: response.encodedDataLength });
    });
    const finished = (requestId: string, transferred?: number) => {
      inFlight = Math.max(0, inFlight - 1);
      lastActivity = Date.now();
      const script = scripts.get(requestId);
      if (script && transferred !== undefined) loads.push({ url: script.url, body: transferred - script.headers, transferred });
    };
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => finished(requestId, encodedDataLength));
    cdp.on('Network.loadingFailed', ({ requestId }) => finished(requestId));

    const started = Date.now();
    await page.goto(url, { waitUntil: 'load' });
    await page.locator('main h1').first().waitFor({ state: 'visible', timeout: SETTLE_LIMIT_MS });
    while (Date.now() - started < SETTLE_LIMIT_MS && (inFlight > 0 || Date.now() - lastActivity < QUIET_MS)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return loads;
  } finally {
    await context.close();
  }
}

/** The build's page chunks as the manifest names them: each page's own chunk, beyond what the entry already loads. */
async function ownChunks(): Promise<Measurement[]> {
  const manifest = JSON.parse(await fs.readFile(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('no entry in the build manifest');
  const rows: Measurement[] = [];
  for (const { route, source } of await routePages()) {
    if (route === paths.dashboard) continue;
    const file = path.join(DIST, manifest[source]!.file);
    // The build writes a .br beside every text file it can shrink; a file too small to gain has none.
    const bytes = await fs.stat(`${file}.br`).then(
      (stat) => stat.size,
      async () => (await fs.stat(file)).size,
    );
    rows.push({ what: `\`${route}\` own chunk`, measured: kb(bytes), budget: '≤ 30 KB', met: bytes <= PAGE_CHUNK_BUDGET_BYTES });
  }
  return rows;
}

const fileName = (url: string) => new URL(url).pathname.replace(/^\/assets\//, '');

/**
 * JavaScript a logged-out visitor's first load of `/`, `/courses` and a course page downloads, as
 * Chromium reports it over CDP (Brotli bodies, as the product serves its pre-compressed files), on
 * the product started alone with its demo courses. Then each page's own chunk from the build manifest.
 */
export async function measureWeight(bench: Bench): Promise<SectionResult> {
  const product: Product = await startProduct({ name: 'weight', dataDir: path.join(bench.workDir, 'weight'), logDir: bench.workDir });
  const rows: Measurement[] = [];
  const notes: string[] = [];
  try {
    const course = await firstCourse(product);
    const pages = [
      { what: '`/`', path: paths.home, budget: HOME_BUDGET_BYTES },
      { what: '`/courses`', path: paths.courses, budget: PAGE_BUDGET_BYTES },
      { what: 'a course page', path: `${paths.courseDescription}?id=${course.id}`, budget: PAGE_BUDGET_BYTES },
    ];
    const browser = await launchChromium();
    try {
      for (const page of pages) {
        bench.log(`  scripts of ${page.path}`);
        const loads = await scriptsLoaded(browser, `${product.url}${page.path}`);
        const body = loads.reduce((sum, load) => sum + load.body, 0);
        const transferred = loads.reduce((sum, load) => sum + load.transferred, 0);
        rows.push({
          what: `${page.what}: JS a logged-out first visit downloads`,
          measured: `${kb(body)} in ${loads.length} scripts (${kb(transferred)} with headers)`,
          budget: `≤ ${page.budget / 1024} KB (Brotli)`,
          met: body <= page.budget,
        });
        const listed = [...loads].sort((a, b) => b.body - a.body).map((load) => `\`${fileName(load.url)}\` ${kb(load.body)}`);
        notes.push(`${page.what} (\`${page.path}\`): ${listed.join(', ')}.`);
      }
    } finally {
      await browser.close();
    }
  } finally {
    await product.stop();
  }
  rows.push(...(await ownChunks()));
  notes.push(
    'Scripts as Chromium fetched them (CDP `Network.loadingFinished` less the response headers), cold cache, no session, from navigation until the heading is visible and the network has been quiet for 2 s.',
  );
  return { title: 'Front-end weight (JS as Chromium downloads it, first visit)', rows, notes };
}
