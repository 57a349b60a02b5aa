import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { COURSE_PAGE, type Bench } from '../bench.ts';
import type { Product } from '../product.ts';
import type { Measurement, SectionResult } from '../report.ts';

const CHROMIUM = '/usr/bin/chromium';
// Root in a sandbox-less container; and no calls home, which this machine's network refuses.
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

async function firstCoursePage(product: Product): Promise<string> {
  const { courses } = (await (await fetch(`${product.url}/api/v1/courses?limit=1`)).json()) as { courses: { _id: string }[] };
  if (!courses[0]) throw new Error('the catalogue is empty: no course page to measure');
  return `/course/description?id=${courses[0]._id}`;
}

/** Lighthouse's default run (a mid-range phone on a throttled connection, simulated) in Debian's Chromium. */
export async function measureLighthouse(bench: Bench, product: Product): Promise<SectionResult> {
  const rows: Measurement[] = [];
  const notes: string[] = [];
  for (const listed of bench.sizes.lighthousePages) {
    const page = listed === COURSE_PAGE ? await firstCoursePage(product) : listed;
    bench.log(`  lighthouse ${page}`);
    // A fresh browser per page: nothing cached from the page before.
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    try {
      const result = await lighthouse(`${product.url}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      });
      if (!result) throw new Error(`lighthouse gave no result for ${page}`);
      const { categories, audits, runtimeError } = result.lhr;
      if (runtimeError) throw new Error(`lighthouse ${page}: ${runtimeError.message}`);
      const score = (name: string) => Math.round((categories[name]?.score ?? 0) * 100);
      rows.push({
        what: `\`${page}\``,
        measured: `performance ${score('performance')} · accessibility ${score('accessibility')}`,
        budget: 'performance ≥ 95, accessibility 100',
        met: score('performance') >= 95 && score('accessibility') === 100,
      });
      // What cost accessibility points, so a missed 100 says where to look.
      const failing = (categories.accessibility?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
        .map(
          (ref) =>
            `${audits[ref.id]!.title} (${audits[ref.id]!.details && 'items' in audits[ref.id]!.details! ? (audits[ref.id]!.details as { items: unknown[] }).items.length : 0} items)`,
        );
      notes.push(
        `- \`${page}\`: ${METRICS.map((id) => `${audits[id]?.title} ${audits[id]?.displayValue}`).join(', ')}${failing.length > 0 ? `; accessibility misses: ${failing.join('; ')}` : ''}`,
      );
    } finally {
      chrome.kill();
    }
  }
  return { title: 'Lighthouse 12 (mobile, simulated throttling)', rows, notes };
}
