import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { paths } from '../../../web/src/lib/paths.ts';
import type { Bench } from '../bench.ts';
import { root } from '../product.ts';
import { kb, type Measurement, type SectionResult } from '../report.ts';

const WEB = path.join(root, 'web');
const DIST = path.join(WEB, 'dist');
/** Budget: the JS a visitor of `/` downloads, as Chromium gets it (Brotli, which the server pre-compresses). */
const HOME_BUDGET_BYTES = 110 * 1024;
/** Budget: no page's own chunk over 30 KB, except the dashboard's (its charts). */
const PAGE_CHUNK_BUDGET_BYTES = 30 * 1024;

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

/** The files a chunk loads before it runs: itself, its static imports (transitively) and their CSS. */
function closure(manifest: Manifest, key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, files);
  return files;
}

/**
 * JavaScript and CSS that a first visit to each route downloads, from the production build: the
 * entry with its imports, then the route's page chunk with its imports. Weighed as the server sends
 * them to Chromium (the build's `.br` files), with `gzip -9` beside them for comparison with older
 * results. Pages under a route guard are weighed as the permitted visitor gets them.
 */
export async function measureWeight(_bench: Bench): Promise<SectionResult> {
  const manifest = JSON.parse(await fs.readFile(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('no entry in the build manifest');
  const entryFiles = closure(manifest, entryKey);

  const sizes = new Map<string, { br: number; gzip: number }>();
  const sizeOf = async (file: string) => {
    if (!sizes.has(file)) {
      const full = path.join(DIST, file);
      // The build writes a .br beside every text file it can shrink; a file too small to gain has none.
      const br = await fs.stat(`${full}.br`).then(
        (stat) => stat.size,
        async () => (await fs.stat(full)).size,
      );
      sizes.set(file, { br, gzip: zlib.gzipSync(await fs.readFile(full), { level: 9 }).length });
    }
    return sizes.get(file)!;
  };
  const weigh = async (files: Iterable<string>) => {
    const total = { js: 0, css: 0, jsGzip: 0 };
    for (const file of files) {
      const { br, gzip } = await sizeOf(file);
      if (file.endsWith('.css')) total.css += br;
      else {
        total.js += br;
        total.jsGzip += gzip;
      }
    }
    return total;
  };

  const rows: Measurement[] = [];
  const entry = await weigh(entryFiles);
  for (const { route, source } of await routePages()) {
    const { js, css, jsGzip } = await weigh(closure(manifest, source, new Set(entryFiles)));
    const pageChunk = (await sizeOf(manifest[source]!.file)).br;
    rows.push({
      what: `\`${route}\``,
      measured: `JS ${kb(js)} (gzip -9 ${kb(jsGzip)}) · CSS ${kb(css)} · beyond the entry ${kb(js - entry.js)}, its own chunk ${kb(pageChunk)}`,
      ...(route === paths.home
        ? { budget: '≤ 110 KB JS (Brotli)', met: js <= HOME_BUDGET_BYTES }
        : route !== paths.dashboard && { budget: 'own chunk ≤ 30 KB', met: pageChunk <= PAGE_CHUNK_BUDGET_BYTES }),
    });
  }
  const entryDetail = await Promise.all([...entryFiles].map(async (file) => `\`${file}\` ${kb((await sizeOf(file)).br)}`));
  return {
    title: 'Front-end weight (Brotli as sent, first visit)',
    rows,
    notes: [`Every route loads the entry first: ${entryDetail.join(', ')}.`],
  };
}
