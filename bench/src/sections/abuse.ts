import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Bench } from '../bench.ts';
import { root, startProduct, type Product } from '../product.ts';
import { median, ms, type SectionResult } from '../report.ts';

/** An avatar that froze the event loop for hours before the SVG sniffing became a linear scan. */
const COMMENTS_SVG = Buffer.from(`${'<!---->'.repeat(40)}x`);

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

const post = (product: Product, apiPath: string, body: object) =>
  fetch(`${product.url}/api/v1${apiPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * What the hardening of decision 0010 promised, on the product as `npm start` runs it
 * (scrypt at its real cost, N = 2^17): a hostile avatar is refused at once, a flood of forged
 * reset links leaves /healthz fast, and forgot-password answers as fast for an unknown email
 * as for a known one.
 */
export async function measureAbuse(bench: Bench): Promise<SectionResult> {
  // A server of its own: the flood spends this address's allowance of reset links.
  const product = await startProduct({ name: 'abuse', dataDir: path.join(bench.workDir, 'abuse'), logDir: bench.workDir });
  try {
    return await measure(bench, product);
  } finally {
    await product.stop();
  }
}

async function measure(bench: Bench, product: Product): Promise<SectionResult> {
  const rows: SectionResult['rows'] = [];
  const avatar = await fs.readFile(path.join(root, 'web/public/default-avatar.svg'));

  // 1. The 40-comment "SVG" avatar through sign-up, refused by its bytes.
  const svgTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const form = new FormData();
    form.append('fullName', 'Bench Visitor');
    form.append('email', `svg-${i}-${Date.now()}@example.com`);
    form.append('password', 'Bench#123');
    form.append('avatar', new Blob([COMMENTS_SVG], { type: 'image/svg+xml' }), 'a.svg');
    const { ms: took, value: status } = await timed(async () => (await fetch(`${product.url}/api/v1/user/register`, { method: 'POST', body: form })).status);
    if (status !== 400) throw new Error(`the comment-run avatar answered ${status}, not 400`);
    svgTimes.push(took);
  }
  rows.push({ what: 'sign-up with the `<!---->` × 40 + `x` avatar, to its 400', measured: `${ms(median(svgTimes))} (median of 5)` });

  // 2. 40 forged reset links at once from one address, /healthz asked back to back meanwhile.
  const probe = async () => (await timed(() => fetch(`${product.url}/healthz`).then((response) => response.arrayBuffer()))).ms;
  const quiet: number[] = [];
  for (let i = 0; i < 20; i++) quiet.push(await probe());
  const health: number[] = [];
  let flooding = true;
  const prober = (async () => {
    while (flooding) health.push(await probe());
  })();
  const flood = await timed(() =>
    Promise.all(
      Array.from({ length: 40 }, () =>
        post(product, `/user/reset/${randomBytes(32).toString('base64url')}`, { password: 'Forged#123' }).then((response) => response.status),
      ),
    ),
  );
  flooding = false;
  await prober;
  const refused = flood.value.filter((status) => status === 429).length;
  rows.push({
    what: `/healthz while 40 forged reset links arrive at once (${flood.value.length - refused} × 400, ${refused} × 429, all answered in ${ms(flood.ms)})`,
    measured: `median ${ms(median(health))}, slowest ${ms(Math.max(...health))} over ${health.length} probes`,
    reference: `${ms(median(quiet))} before the flood (median of 20)`,
  });

  // 3. Forgot password, known against unknown emails, alternated; each email asked once (the per-email cap stays out of it).
  const known: string[] = [];
  for (let i = 0; i < 5; i++) {
    const email = `known-${i}-${Date.now()}@example.com`;
    const form = new FormData();
    form.append('fullName', 'Known Learner');
    form.append('email', email);
    form.append('password', 'Bench#123');
    form.append('avatar', new Blob([avatar], { type: 'image/svg+xml' }), 'a.svg');
    const response = await fetch(`${product.url}/api/v1/user/register`, { method: 'POST', body: form });
    if (response.status !== 201) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
    known.push(email);
  }
  const knownTimes: number[] = [];
  const unknownTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    knownTimes.push((await timed(() => post(product, '/user/reset', { email: known[i] }).then((r) => r.arrayBuffer()))).ms);
    unknownTimes.push((await timed(() => post(product, '/user/reset', { email: `nobody-${i}-${Date.now()}@example.com` }).then((r) => r.arrayBuffer()))).ms);
  }
  rows.push({ what: 'forgot password, an email with an account', measured: `${ms(median(knownTimes))} (median of 5: ${knownTimes.map(ms).join(', ')})` });
  rows.push({ what: 'forgot password, an email without one', measured: `${ms(median(unknownTimes))} (median of 5: ${unknownTimes.map(ms).join(', ')})` });
  bench.log('Abuse: done');
  return { title: 'Abuse', rows };
}
