import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bench } from '../bench.ts';
import { freePort, startService, waitUntilUp } from '../processes.ts';
import type { Product } from '../product.ts';
import type { Measurement, SectionResult } from '../report.ts';
import { describeRate, wrk, type WrkResult } from '../wrk.ts';

const HELLO_WORLD = path.join(path.dirname(fileURLToPath(import.meta.url)), '../hello-world.ts');

export interface RunningProduct {
  label: string;
  product: Product;
  /** An administrator's session cookie. */
  cookie: string;
}

export async function measureApi(bench: Bench, products: RunningProduct[]): Promise<SectionResult> {
  const port = await freePort();
  const helloWorld = startService('hello-world', process.execPath, ['--import', 'tsx', HELLO_WORLD], {
    env: { PORT: String(port) },
    logFile: path.join(bench.workDir, 'hello-world.log'),
  });
  let reference: WrkResult;
  try {
    await waitUntilUp(`http://127.0.0.1:${port}/`);
    bench.log('  wrk: bare Fastify hello-world');
    reference = wrk(`http://127.0.0.1:${port}/`, bench.sizes.apiLoad);
  } finally {
    await helloWorld.stop();
  }

  const rows: Measurement[] = [{ what: 'bare Fastify hello-world (reference)', measured: describeRate(reference) }];
  for (const { label, product, cookie } of products) {
    bench.log(`  wrk: GET /api/v1/courses and /api/v1/user/me, ${label}`);
    const courses = wrk(`${product.url}/api/v1/courses`, bench.sizes.apiLoad);
    const me = wrk(`${product.url}/api/v1/user/me`, bench.sizes.apiLoad, { headers: { cookie } });
    const ratio = courses.requestsPerSecond / reference.requestsPerSecond;
    rows.push(
      {
        what: `GET /api/v1/courses, ${bench.sizes.catalogueCourses.toLocaleString('en-US')} courses, ${label}`,
        measured: describeRate(courses),
        reference: 'hello-world',
        ratio,
        budget: '≥ 50 %',
        met: ratio >= 0.5,
      },
      {
        what: `GET /api/v1/user/me with a session, ${label}`,
        measured: describeRate(me),
        reference: 'hello-world',
        ratio: me.requestsPerSecond / reference.requestsPerSecond,
      },
    );
  }
  const { connections, seconds } = bench.sizes.apiLoad;
  return {
    title: 'API throughput',
    rows,
    notes: [`wrk, one thread, ${connections} connections, ${seconds} s per run after a 1 s warm-up; each server is one Node process.`],
  };
}
