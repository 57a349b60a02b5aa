import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { paths } from '../../../web/src/app/paths.ts';
import type { Bench } from '../bench.ts';
import { root } from '../product.ts';
import { kb, type Measurement, type SectionResult } from '../report.ts';

const WEB = path.join(root, 'web');
const DIST = path.join(WEB, 'dist');
const BUDGET_BYTES = 80 * 1024;

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
 * Gzipped (level 9) JavaScript and CSS that a first visit to each route downloads,
 * from the production build: the entry with its imports, then the route's page
 * chunk with its imports. Pages under a route guard are weighed as the permitted
 * visitor gets them.
 */
export async function measureWeight(_bench: Bench): Promise<SectionResult> {
  const manifest = JSON.parse(await fs.readFile(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('no entry in the build manifest');
  const entryFiles = closure(manifest, entryKey);

  const gzipped = new Map<string, number>();
  const sizeOf = async (file: string) => {
    if (!gzipped.has(file)) gzipped.set(file, zlib.gzipSync(await fs.readFile(path.join(DIST, file)), { level: 9 }).length);
    return gzipped.get(file)!;
  };
  const weigh = async (files: Iterable<string>) => {
    let js = 0;
    let css = 0;
    for (const file of files) {
      if (file.endsWith('.css')) css += await sizeOf(file);
      else js += await sizeOf(file);
    }
    return { js, css };
  };

  const rows: Measurement[] = [];
  const entry = await weigh(entryFiles);
  for (const { route, source } of await routePages()) {
    const { js, css } = await weigh(closure(manifest, source, new Set(entryFiles)));
    rows.push({
      what: `\`${route}\``,
      measured: `JS ${kb(js)} · CSS ${kb(css)} (page chunk ${kb(js - entry.js)})`,
      ...(route === paths.home && { budget: '≤ 80 KB JS', met: js <= BUDGET_BYTES }),
    });
  }
  const entryDetail = await Promise.all([...entryFiles].map(async (file) => `\`${file}\` ${kb(await sizeOf(file))}`));
  return {
    title: 'Front-end weight (gzip -9, first visit)',
    rows,
    notes: [`Every route loads the entry first: ${entryDetail.join(', ')}.`],
  };
}
