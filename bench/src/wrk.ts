import { run, runInBackground } from './processes.ts';
import { ms, thousands } from './report.ts';

export interface Load {
  /** Open connections, the same for a product run and its reference. */
  connections: number;
  seconds: number;
}

export interface WrkResult {
  requestsPerSecond: number;
  bytesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const UNIT_BYTES: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };
const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

type WrkOptions = { headers?: Record<string, string>; script?: string; env?: NodeJS.ProcessEnv };

function wrkArguments(url: string, load: Load, options: WrkOptions): string[] {
  const args = ['--latency', '-t1', `-c${load.connections}`, `-d${load.seconds}s`, '--timeout', '10s'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.script) args.push('-s', options.script);
  return [...args, url];
}

const runWrk = (url: string, load: Load, options: WrkOptions) => run('wrk', wrkArguments(url, load, options), { env: options.env });

/**
 * One measured wrk run (one thread, so the other core is the server's), after a
 * 1 s warm-up with the same load, so every server is measured with its code already
 * compiled by the JIT. A run with any failed request or socket error throws: a rate
 * of errors is not a throughput.
 */
export function wrk(url: string, load: Load, options: WrkOptions = {}): WrkResult {
  runWrk(url, { connections: load.connections, seconds: 1 }, options);
  const output = runWrk(url, load, options);

  const failures = /Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1];
  const socketErrors = /Socket errors: (.*)/.exec(output)?.[1];
  if (failures || socketErrors) throw new Error(`wrk ${url}: ${failures ?? 0} failed responses; socket errors: ${socketErrors ?? 'none'}\n${output}`);

  const number = (pattern: RegExp) => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`wrk output without ${pattern}:\n${output}`);
    return match;
  };
  const latency = (percentile: number) => {
    const [, value, unit] = number(new RegExp(`^\\s+${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm'));
    return Number(value) * UNIT_MS[unit!]!;
  };
  const [, transfer, transferUnit] = number(/Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB|TB)/);
  return {
    requestsPerSecond: Number(number(/Requests\/sec:\s+([\d.]+)/)[1]),
    bytesPerSecond: Number(transfer) * UNIT_BYTES[transferUnit!]!,
    p50Ms: latency(50),
    p99Ms: latency(99),
  };
}

/** What a wrk run during a fault saw: how many requests, and how many of them failed. */
export interface FaultRun {
  requests: number;
  /** Answers other than 2xx or 3xx. */
  failed: number;
  /** wrk's socket errors: connect, read, write, timeout. */
  socketErrors: number;
  output: string;
}

/** A wrk run that counts failures instead of refusing them, in the background (the caller acts meanwhile). */
export async function wrkThroughFault(url: string, load: Load, options: WrkOptions = {}): Promise<FaultRun> {
  const output = await runInBackground('wrk', wrkArguments(url, load, options));
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)?.slice(1).map(Number) ?? [];
  return {
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN),
    failed: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: socketErrors.reduce((sum, count) => sum + count, 0),
    output,
  };
}

export const describeRate = (result: WrkResult) => `${thousands(result.requestsPerSecond)} req/s · p50 ${ms(result.p50Ms)} · p99 ${ms(result.p99Ms)}`;
export const describeTransfer = (result: WrkResult) =>
  `${(result.bytesPerSecond / 1024 ** 2).toFixed(0)} MB/s · ${thousands(result.requestsPerSecond)} req/s · p99 ${ms(result.p99Ms)}`;
