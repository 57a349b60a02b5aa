import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import * as schema from '../../server/src/db/schema.ts';
import { median, ms, type Measurement } from './report.ts';

/** A query a service sent, under the label of the route it serves. */
export interface RecordedQuery {
  label: string;
  sql: string;
  params: unknown[];
}

/** The scans of a plan, one line each: which table, and through which index. */
export const scansOf = (plan: string) =>
  [...plan.matchAll(/(Parallel )?(Seq Scan|Index Only Scan|Index Scan|Bitmap Index Scan)( Backward)?(?: using (\S+))? on (\S+)/g)].map(
    ([, parallel = '', kind, backward = '', index, table]) => `${parallel}${kind}${backward} on ${table}${index ? ` using ${index}` : ''}`,
  );

/**
 * A Drizzle instance over `pool` that records every query it sends: the services are called with it,
 * so what is timed and explained is exactly the SQL the routes run. Set `recorder.label` before each call.
 */
export function recordingDb(pool: pg.Pool) {
  const recorder = { label: '', queries: [] as RecordedQuery[] };
  const db = drizzle({
    client: pool,
    schema,
    casing: 'snake_case',
    logger: { logQuery: (sql, params) => recorder.queries.push({ label: recorder.label, sql, params }) },
  });
  return { db, recorder };
}

/**
 * Each recorded query run `runs` times after a warm-up (p50 against `budgetMs`), and explained;
 * `names[i]` says what the i-th query is for. Answers a row per query and a note with its plan.
 */
export async function timeAndExplain(
  pool: pg.Pool,
  queries: RecordedQuery[],
  names: string[],
  runs: number,
  budgetMs: number,
): Promise<{ rows: Measurement[]; notes: string[] }> {
  const rows: Measurement[] = [];
  const notes: string[] = [];
  for (const [index, query] of queries.entries()) {
    const what = names[index] ?? 'another query';
    const times: number[] = [];
    for (let run = -1; run < runs; run++) {
      const started = performance.now();
      await pool.query(query.sql, query.params);
      if (run >= 0) times.push(performance.now() - started);
    }
    const { rows: planRows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) ${query.sql}`, query.params);
    const plan = planRows.map((row) => row['QUERY PLAN']).join('\n');
    const p50 = median(times);
    rows.push({
      what: `${query.label}: ${what}`,
      measured: `p50 ${ms(p50)} (max ${ms(Math.max(...times))}, ${runs} runs)`,
      budget: `< ${budgetMs} ms`,
      met: p50 < budgetMs,
    });
    notes.push(
      `<details><summary>${query.label}, ${what}: ${scansOf(plan).join('; ')} — ${/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]} ms</summary>\n\n\`\`\`sql\n${query.sql}\n\`\`\`\n\n\`\`\`\n${plan}\n\`\`\`\n</details>\n`,
    );
  }
  return { rows, notes };
}
