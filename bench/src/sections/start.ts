import path from 'node:path';
import type { Bench } from '../bench.ts';
import { freePort, startService, waitUntilUp } from '../processes.ts';
import { root } from '../product.ts';
import { median, ms, type SectionResult } from '../report.ts';

const BUDGET_MS = 3000;

/**
 * `npm start` itself (npm, the staleness check of the build, the server) on a data
 * folder whose database already exists, timed to the first 200 from /healthz.
 */
export async function measureStart(bench: Bench, dataDir: string): Promise<SectionResult> {
  const times: number[] = [];
  for (let attempt = 0; attempt < bench.sizes.startRuns; attempt++) {
    const port = await freePort();
    const started = performance.now();
    const server = startService('npm start', 'npm', ['start'], {
      cwd: root,
      env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: undefined },
      logFile: path.join(bench.workDir, 'npm-start.log'),
    });
    try {
      await waitUntilUp(`http://127.0.0.1:${port}/healthz`, { pollMs: 10 });
      times.push(performance.now() - started);
    } finally {
      await server.stop();
    }
  }
  const typical = median(times);
  return {
    title: 'Start',
    rows: [
      {
        what: '`npm start` to the first 200 from /healthz (embedded database already created)',
        measured: `${ms(typical)} (median of ${times.length}: ${times.map((t) => ms(t)).join(', ')})`,
        budget: '< 3 s',
        met: typical < BUDGET_MS,
      },
    ],
  };
}
