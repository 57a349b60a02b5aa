import http from 'node:http';

/** A request of a paced run: what to send as the n-th one. */
export interface PacedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PacedResult {
  /** Requests due in the run (perSecond × seconds). */
  sent: number;
  /** Answers with a status other than 2xx, and requests that failed outright. */
  failed: number;
  /** How many of each answer: `200`, `202`, `429`, or the error's code. */
  answers: Record<string, number>;
  /** Answers a second over the whole run, from the first request due to the last answer. */
  answeredPerSecond: number;
  /** Latency from when each request was due, not from when it went out (ms). */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** How late this process sent its requests (p99, ms): what of the latency is the sender's own doing. */
  sendLateP99Ms: number;
}

const at = (sorted: number[], percent: number) => sorted[Math.min(sorted.length - 1, Math.floor((percent / 100) * sorted.length))] ?? NaN;

/**
 * Requests on a fixed schedule, `perSecond` for `seconds`, whatever the server's answers take:
 * the n-th is due at n / perSecond s, and its latency is counted from then. A closed loop (wrk)
 * waits for an answer before it sends the next one on that connection, so a stall of the server
 * delays only the few requests in flight and hides the rest of the queue it causes; here each
 * request that would have been sent during a stall counts it. Keep-alive connections, as many as
 * the answers in flight need.
 */
export async function paced(origin: string, perSecond: number, seconds: number, requestOf: (n: number) => PacedRequest): Promise<PacedResult> {
  const { hostname, port } = new URL(origin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1000 });
  const total = Math.round(perSecond * seconds);
  const latencies: number[] = [];
  const late: number[] = [];
  let failed = 0;
  const answers: Record<string, number> = {};
  const count = (answer: string) => (answers[answer] = (answers[answer] ?? 0) + 1);
  let next = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();

  const send = (n: number, due: number) =>
    new Promise<void>((resolve) => {
      const { method, path, headers, body } = requestOf(n);
      late.push(performance.now() - due);
      const request = http.request(
        { agent, hostname, port, method, path, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            if (status < 200 || status >= 300) failed++;
            count(String(status));
            latencies.push(performance.now() - due);
            resolve();
          });
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        failed++;
        count(error.code ?? error.message);
        resolve();
      });
      request.end(body);
    });

  // Every millisecond or so, every request now due goes out: a late timer sends the ones it owes at once.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && started + (next * 1000) / perSecond <= now) {
        pending.push(send(next, started + (next * 1000) / perSecond));
        next++;
      }
      if (next < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  late.sort((a, b) => a - b);
  return {
    sent: total,
    failed,
    answers,
    answeredPerSecond: latencies.length / elapsed,
    p50Ms: at(latencies, 50),
    p99Ms: at(latencies, 99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
    sendLateP99Ms: at(late, 99),
  };
}
