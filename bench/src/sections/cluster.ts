import path from 'node:path';
import { startCluster, type Cluster } from '../../../scripts/cluster.mjs';
import type { Bench } from '../bench.ts';
import { fillCatalogue } from '../catalogue.ts';
import { recreateDatabase } from '../postgres.ts';
import { firstCourse, loginAsAdmin, type Product } from '../product.ts';
import { thousands, type Measurement, type SectionResult } from '../report.ts';
import { describeRate, wrk, wrkThroughFault, type WrkResult } from '../wrk.ts';
import { ME_P99_BUDGET_MS } from './api.ts';

/** The configuration comes only from these variables, as for the single product (product.ts). */
const INHERITED = ['PATH', 'HOME', 'LANG', 'TZ'];
const HEAVY_LOAD_CONNECTIONS = 200;

/**
 * `npm run cluster` as it starts: N instances of the bundle behind nginx, on PostgreSQL,
 * s3rver and Redis. The same catalogue and session are measured through nginx with one instance
 * and with two, then one of two is killed with SIGKILL under load.
 */
export async function measureCluster(bench: Bench): Promise<SectionResult> {
  const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_cluster');
  const dataDir = path.join(bench.workDir, 'cluster');
  const env: NodeJS.ProcessEnv = Object.fromEntries(INHERITED.filter((name) => process.env[name]).map((name) => [name, process.env[name]]));
  Object.assign(env, { DATABASE_URL: databaseUrl });
  const start = (instances: number) => startCluster({ env, instances, port: 0, dataDir, log: (name, line) => name === 'cluster' && bench.log(`    ${line}`) });
  /** The cluster as the bench's helpers see a product: its public URL, and the first instance's folder (the admin's password). */
  const asProduct = (cluster: Cluster) => ({ url: cluster.url, dataDir: cluster.instances[0]!.dataDir }) as Product;

  const rows: Measurement[] = [];
  const measured: Record<number, { courses: WrkResult; me: WrkResult }> = {};
  let cookie = '';
  for (const instances of [1, 2]) {
    bench.log(`  cluster of ${instances}: starting`);
    const cluster = await start(instances);
    try {
      if (instances === 1) {
        const course = await firstCourse(asProduct(cluster));
        await fillCatalogue({ url: databaseUrl }, bench.sizes.catalogueCourses, course.thumbnailKey);
        cookie = await loginAsAdmin(asProduct(cluster));
      }
      bench.log(`  wrk through nginx: GET /api/v1/courses and /api/v1/user/me, ${instances} instance(s)`);
      const courses = wrk(`${cluster.url}/api/v1/courses`, bench.sizes.apiLoad);
      const me = wrk(`${cluster.url}/api/v1/user/me`, bench.sizes.apiLoad, { headers: { cookie } });
      const meCrowded = wrk(`${cluster.url}/api/v1/user/me`, { ...bench.sizes.apiLoad, connections: HEAVY_LOAD_CONNECTIONS }, { headers: { cookie } });
      const coursesCrowded = wrk(`${cluster.url}/api/v1/courses`, { ...bench.sizes.apiLoad, connections: HEAVY_LOAD_CONNECTIONS });
      measured[instances] = { courses, me };
      const against = instances === 2 ? measured[1] : undefined;
      rows.push(
        {
          what: `GET /api/v1/courses (${bench.sizes.catalogueCourses.toLocaleString('en-US')} courses), ${instances} instance(s)`,
          measured: describeRate(courses),
          ...(against && { reference: '1 instance', ratio: courses.requestsPerSecond / against.courses.requestsPerSecond }),
        },
        {
          what: `GET /api/v1/user/me with a session, ${instances} instance(s)`,
          measured: describeRate(me),
          ...(against && { reference: '1 instance', ratio: me.requestsPerSecond / against.me.requestsPerSecond }),
        },
        { what: `GET /api/v1/courses at ${HEAVY_LOAD_CONNECTIONS} connections, ${instances} instance(s)`, measured: describeRate(coursesCrowded) },
        {
          what: `GET /api/v1/user/me at ${HEAVY_LOAD_CONNECTIONS} connections, ${instances} instance(s)`,
          measured: describeRate(meCrowded),
          budget: `p99 ≤ ${ME_P99_BUDGET_MS} ms at 50 connections; shown for the load`,
        },
      );
    } finally {
      await cluster.stop();
    }
  }

  bench.log('  fault: SIGKILL to one of two instances under load');
  const cluster = await start(2);
  try {
    const load = { connections: 50, seconds: bench.quick ? 6 : 10 };
    const running = wrkThroughFault(`${cluster.url}/api/v1/user/me`, load, { headers: { cookie } });
    await new Promise((resolve) => setTimeout(resolve, (load.seconds * 1000) / 3));
    cluster.instances[1]!.kill('SIGKILL');
    const run = await running;
    const after = await fetch(`${cluster.url}/api/v1/user/me`, { headers: { cookie } });
    rows.push({
      what: `GET /api/v1/user/me through nginx, 50 connections, ${load.seconds} s, the second of two instances killed (SIGKILL) a third of the way in`,
      measured: `${thousands(run.requests)} requests: ${run.failed} failed answers, ${run.socketErrors} socket errors; afterwards ${after.status}`,
      budget: 'none fail',
      met: run.failed === 0 && run.socketErrors === 0 && after.status === 200,
    });
  } finally {
    await cluster.stop();
  }

  const { connections, seconds } = bench.sizes.apiLoad;
  return {
    title: 'Cluster (npm run cluster: nginx, PostgreSQL, s3rver, Redis)',
    rows,
    notes: [
      `wrk, one thread, ${connections} connections (and ${HEAVY_LOAD_CONNECTIONS} where said), ${seconds} s per run after a 1 s warm-up, through nginx.`,
      'Two cores run wrk, nginx, PostgreSQL and the instances together: one Node process leaves part of the second core idle and a second instance takes it up, so the ratio shows that share, not what a host with a core per instance would gain.',
    ],
  };
}
