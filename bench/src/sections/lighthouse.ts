import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { Bench } from '../bench.ts';
import type { Product } from '../product.ts';
import type { Measurement, SectionResult } from '../report.ts';

const CHROMIUM = '/usr/bin/chromium';
// Root in a sandbox-less container; and no calls home, which this machine's network refuses.
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

/** Lighthouse's default run (a mid-range phone on a throttled connection, simulated) in Debian's Chromium. */
export async function measureLighthouse(bench: Bench, product: Product): Promise<SectionResult> {
  const rows: Measurement[] = [];
  const notes: string[] = [];
  for (const page of bench.sizes.lighthousePages) {
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
      rows.push({ what: `\`${page}\``, measured: `performance ${score('performance')} · accessibility ${score('accessibility')}` });
      notes.push(`- \`${page}\`: ${METRICS.map((id) => `${audits[id]?.title} ${audits[id]?.displayValue}`).join(', ')}`);
    } finally {
      chrome.kill();
    }
  }
  return { title: 'Lighthouse 12 (mobile, simulated throttling)', rows, notes };
}
