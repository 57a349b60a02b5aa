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
  /** Which database the server runs on: the budgets of `GET /user/me` differ (the embedded database runs on the server's own thread). */
  database: 'pglite' | 'postgres';
  product: Product;
  /** An administrator's session cookie. */
  cookie: string;
  /** A subscriber's session cookie. */
  subscriberCookie?: string;
  /** A published course of the catalogue, whose page's reads are measured too. */
  courseId?: string;
}

/** What every browser sends: the cached catalogue pages go out Brotli-compressed, as the web app gets them. */
const AS_A_BROWSER = { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } };

/** Budgets of the signed-in hot path (every signed-in page asks it): against hello-world, and its p99 at 50 connections. */
const ME_BUDGETS = { postgres: 0.2, pglite: 0.1 } as const;
export const ME_P99_BUDGET_MS = 50;

/** A `GET /user/me` row judged against both of its budgets. */
export function userMeRow(what: string, me: WrkResult, reference: WrkResult, ratioBudget: number): Measurement {
  const ratio = me.requestsPerSecond / reference.requestsPerSecond;
  return {
    what,
    measured: describeRate(me),
    reference: 'hello-world',
    ratio,
    budget: `≥ ${ratioBudget * 100} %, p99 ≤ ${ME_P99_BUDGET_MS} ms`,
    met: ratio >= ratioBudget && me.p99Ms <= ME_P99_BUDGET_MS,
  };
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
  for (const { label, database, product, cookie, subscriberCookie, courseId } of products) {
    bench.log(`  wrk: GET /api/v1/courses and /api/v1/user/me, ${label}`);
    const courses = wrk(`${product.url}/api/v1/courses`, bench.sizes.apiLoad, AS_A_BROWSER);
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
      userMeRow(`GET /api/v1/user/me with a session, ${label}`, me, reference, ME_BUDGETS[database]),
    );
    if (courseId) rows.push(...measureCoursePage(bench, product.url, courseId, { admin: cookie, subscriber: subscriberCookie }, label, reference));
  }
  const { connections, seconds } = bench.sizes.apiLoad;
  return {
    title: 'API throughput',
    rows,
    notes: [
      `wrk, one thread, ${connections} connections, ${seconds} s per run after a 1 s warm-up; each server is one Node process, its video pipeline off (no transcode runs beside the reads). The catalogue, a course's curriculum and its card are asked with a browser's Accept-Encoding (they go out Brotli-compressed, as the web app gets them).`,
    ],
  };
}

/**
 * The course page's API reads: its curriculum and its card (the catalogue filtered by id), the
 * same for every visitor and cached as the catalogue is, held to the catalogue's budget; and the
 * lecture list (`GET /courses/:id`), reported: a subscriber's (every lecture page asks it), made
 * from the course's contents in the catalogue cache, and an administrator's, read each time.
 */
function measureCoursePage(
  bench: Bench,
  url: string,
  courseId: string,
  cookies: { admin: string; subscriber?: string },
  label: string,
  reference: WrkResult,
): Measurement[] {
  bench.log(`  wrk: the course page's reads, ${label}`);
  const cached = [
    { what: `GET /api/v1/courses/:id/curriculum, ${label}`, result: wrk(`${url}/api/v1/courses/${courseId}/curriculum`, bench.sizes.apiLoad, AS_A_BROWSER) },
    { what: `GET /api/v1/courses?id=, ${label}`, result: wrk(`${url}/api/v1/courses?id=${courseId}`, bench.sizes.apiLoad, AS_A_BROWSER) },
  ];
  const rows: Measurement[] = cached.map(({ what, result }) => {
    const ratio = result.requestsPerSecond / reference.requestsPerSecond;
    return { what, measured: describeRate(result), reference: 'hello-world', ratio, budget: '≥ 50 %', met: ratio >= 0.5 };
  });
  if (bench.budgets) return rows;
  const readers = [...(cookies.subscriber ? [{ who: 'a subscriber', cookie: cookies.subscriber }] : []), { who: 'an administrator', cookie: cookies.admin }];
  for (const { who, cookie } of readers) {
    const lectures = wrk(`${url}/api/v1/courses/${courseId}`, bench.sizes.apiLoad, { headers: { cookie } });
    rows.push({
      what: `GET /api/v1/courses/:id (lectures), ${who}, ${label}`,
      measured: describeRate(lectures),
      reference: 'hello-world',
      ratio: lectures.requestsPerSecond / reference.requestsPerSecond,
    });
  }
  return rows;
}
