import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { Database } from './db/client.ts';

/**
 * The job queue: pg-boss, keeping its jobs in the app's own database
 * (schema `pgboss`), PGlite or PostgreSQL alike. A job is stored before the request
 * that made it answers; whichever instance's worker is free takes it; a job that
 * throws is retried with a growing delay and, once out of tries, stays in the
 * database as failed, logged with its reason. See docs/decisions/0010.
 */
export interface JobQueue<Jobs> {
  /**
   * Stores a job; this instance's worker is woken at once, any other instance's on its next poll.
   * With an `id`, a job of that id already stored makes this a no-op: sending twice queues once.
   */
  send<N extends keyof Jobs & string>(name: N, data: Jobs[N], options?: { id?: string }): Promise<void>;
  /** Runs `handler` for each job of `name`, `concurrency` (default 1) at a time on this instance. */
  work<N extends keyof Jobs & string>(name: N, handler: (data: Jobs[N], attempt: Attempt) => Promise<void>, options?: { concurrency?: number }): Promise<void>;
  /** Sends `name` on a cron schedule (UTC); one instance sends each occurrence. */
  schedule<N extends keyof Jobs & string>(name: N, cron: string, data: Jobs[N]): Promise<void>;
  /**
   * Stops taking jobs, aborts running ones' `signal` and gives them 5 s to finish; pg-boss then fails
   * what still runs back to the queue, to be retried like any failure (a try used up) on this or
   * another instance. Sends after this throw.
   */
  stop(): Promise<void>;
  /** Tells `listener` of every try this instance's workers finish, whatever its outcome (metrics.ts counts them). */
  onJobDone(listener: (job: FinishedJob) => void): void;
  /** Jobs waiting in each queue, on every instance together: sent and not yet taken, or waiting for a retry. */
  waiting(): Promise<Record<string, number>>;
  /**
   * Starts pg-boss (its schema check, its clock and cron keeping) if nothing has yet: with
   * `startLater`, the first call of any method starts it, and a server calls this once it listens.
   */
  start(): Promise<void>;
}

/** One try of a job, as it ended. */
export interface FinishedJob {
  name: string;
  seconds: number;
  /** pg-boss's words: completed; retry (it failed, and will be tried again); failed (for good). */
  outcome: 'completed' | 'retry' | 'failed';
}

/** What a handler knows about the try it is running. */
export interface Attempt {
  /** No retry follows if this one fails. */
  finalAttempt: boolean;
  /** Aborted when the queue stops (the server shuts down): a long job should stop and throw, to be retried later. */
  signal: AbortSignal;
}

/** A queue's own retry and expiry rules, where the defaults do not suit its jobs. */
export interface QueueRules {
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How long a job may run before the queue takes it for dead and retries it (pg-boss's default: 15 minutes). */
  expireInSeconds?: number;
}

export interface JobQueueOptions {
  log: FastifyBaseLogger;
  /** The first retry's delay; each later one doubles it. */
  retryDelaySeconds?: number;
  /** Tries after the first: with a 15 s start, the last is about an hour after the job was sent. */
  retryLimit?: number;
  /** How often an idle worker looks for jobs sent by other instances or due for a retry. */
  pollingIntervalSeconds?: number;
  /** Per queue name. */
  rules?: Record<string, QueueRules>;
  /**
   * How often one instance fails the jobs that ran past their expiry, so that any instance retries
   * them: what a killed instance held (pg-boss's default, 2 minutes; tests shorten it).
   */
  maintenanceIntervalSeconds?: number;
  /**
   * Leaves pg-boss unstarted until `start()` or the first send, work or schedule: a server starting
   * up answers requests without waiting for the queue's own start-up queries and cron keeping.
   */
  startLater?: boolean;
}

const STOP_TIMEOUT_MS = 5000;

export async function startJobQueue<Jobs>(database: Database, options: JobQueueOptions): Promise<JobQueue<Jobs>> {
  const { log, retryDelaySeconds = 15, retryLimit = 8, pollingIntervalSeconds = 2, rules = {}, maintenanceIntervalSeconds, startLater = false } = options;
  const stopping = new AbortController();
  // pg-boss marks a finished job complete without awaiting it, so its stop() can resolve while that
  // query still runs: stop() below waits for every query in flight before the database may close.
  // A job still running when stop() gave up finishes against a closed database: its queries are
  // dropped (never settled, so nothing rejects unheard), and the job, never marked complete,
  // expires and runs again (handlers are idempotent).
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const executeSql = (text: string, values?: unknown[]) => {
    if (stopped) {
      log.warn('job queue query after stop dropped; the job will run again');
      return new Promise<never>(() => undefined);
    }
    const query = database.execute(text, values);
    inFlight.add(query);
    void query.finally(() => inFlight.delete(query)).catch(() => undefined);
    return query;
  };
  // Made at the start: loading pg-boss (and the PostgreSQL client it brings) is part of what a
  // server's start leaves until it listens.
  let boss!: PgBoss;
  let started = false;

  const workers = new Map<string, string[]>();
  // The tries this instance's workers are running, which stop() waits for itself.
  const running = new Set<Promise<void>>();
  const tracked = (attempt: Promise<void>) => {
    running.add(attempt);
    void attempt.finally(() => running.delete(attempt)).catch(() => undefined);
    return attempt;
  };
  const doneListeners: ((job: FinishedJob) => void)[] = [];
  const reportDone = (name: string, started: number, outcome: FinishedJob['outcome']) => {
    const job = { name, seconds: (performance.now() - started) / 1000, outcome };
    for (const listener of doneListeners) listener(job);
  };
  // One creation per queue name in this process, even when two first sends race (on PostgreSQL,
  // two concurrent pgboss.create_queue calls of one name can deadlock).
  // Those a start finds already made are not made again: pg-boss would leave them as they are, after
  // a query each (fifteen on a later start).
  const queues = new Map<string, Promise<void>>();
  // Once, whoever asks first; a failed start is tried again by the next caller.
  let starting: Promise<void> | undefined;
  const start = () => {
    if (stopped) return Promise.reject(new Error('the job queue has stopped; it does not start again'));
    return (starting ??= (async () => {
      const { default: Boss } = await import('pg-boss');
      const made = new Boss({
        db: { executeSql },
        schedule: true,
        ...(maintenanceIntervalSeconds && { maintenanceIntervalSeconds }),
      });
      made.on('error', (error) => log.error({ err: error }, 'job queue error'));
      try {
        await made.start();
        for (const { name } of await made.getQueues()) queues.set(name, Promise.resolve());
      } catch (error) {
        await made.stop({ graceful: false, wait: true }).catch(() => undefined);
        throw error;
      }
      boss = made;
      started = true;
    })().catch((error: unknown) => {
      starting = undefined;
      throw error;
    }));
  };
  if (!startLater) await start();
  const ensureQueue = async (name: string) => {
    await start();
    let created = queues.get(name);
    if (!created) {
      const rule = rules[name] ?? {};
      created = boss.createQueue(name, {
        name,
        retryLimit: rule.retryLimit ?? retryLimit,
        retryDelay: rule.retryDelaySeconds ?? retryDelaySeconds,
        retryBackoff: true,
        ...(rule.expireInSeconds && { expireInSeconds: rule.expireInSeconds }),
      });
      created.catch(() => queues.delete(name));
      queues.set(name, created);
    }
    return created;
  };

  return {
    async send(name, data, sendOptions = {}) {
      // Never left hanging on a dropped query: a send during shutdown fails, and its caller with it.
      if (stopped) throw new Error(`the job queue has stopped; ${name} was not sent`);
      await ensureQueue(name);
      // pg-boss inserts with ON CONFLICT DO NOTHING: a known id stores nothing.
      await boss.send(name, data as object, sendOptions.id ? { id: sendOptions.id } : {});
      // One free worker is enough to take it.
      const worker = workers.get(name)?.[0];
      if (worker) boss.notifyWorker(worker);
    },
    async work(name, handler, { concurrency = 1 } = {}) {
      if (stopped) throw new Error(`the job queue has stopped; no worker for ${name}`);
      await ensureQueue(name);
      const attempt = async (job: { id: string; data: Jobs[typeof name]; retryCount: number; retryLimit: number }) => {
        const finalAttempt = job.retryCount >= job.retryLimit;
        const started = performance.now();
        try {
          await handler(job.data, { finalAttempt, signal: stopping.signal });
          reportDone(name, started, 'completed');
        } catch (error) {
          reportDone(name, started, finalAttempt ? 'failed' : 'retry');
          const entry = { err: error, job: name, jobId: job.id, attempt: job.retryCount + 1 };
          if (finalAttempt) log.error(entry, 'job failed for good; it stays in the queue as failed');
          else log.warn(entry, 'job failed; it will be retried');
          throw error;
        }
      };
      // pg-boss 10 runs one job at a time per worker: `concurrency` workers run that many.
      for (let index = 0; index < concurrency; index++) {
        const id = await boss.work<Jobs[typeof name]>(name, { pollingIntervalSeconds, batchSize: 1, includeMetadata: true }, async ([job]) => {
          if (job) await tracked(attempt(job));
        });
        workers.set(name, [...(workers.get(name) ?? []), id]);
      }
    },
    async schedule(name, cron, data) {
      if (stopped) throw new Error(`the job queue has stopped; ${name} was not scheduled`);
      await ensureQueue(name);
      await boss.schedule(name, cron, data as object, { tz: 'UTC' });
    },
    start,
    async stop() {
      stopping.abort(new Error('the job queue is stopping'));
      // Never started: nothing of pg-boss's to stop. A start under way is let finish, then stopped.
      if (!starting) {
        stopped = true;
        return;
      }
      await starting.catch(() => undefined);
      if (!started) {
        stopped = true;
        return;
      }
      // No new tries from here; the running ones are waited for below.
      await Promise.all([...workers.keys()].map((name) => boss.offWork(name)));
      // pg-boss's own graceful stop looks every half second whether a try still runs, so one that
      // ends at the abort (a transcode whose ffmpeg is killed) would hold the stop until its next
      // look. Waited for here as they end; past STOP_TIMEOUT_MS pg-boss fails those still running.
      let timer: NodeJS.Timeout | undefined;
      const ended = await Promise.race([
        Promise.allSettled([...running]).then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), STOP_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      // Graceful, a try a worker took just as it was stopped still gets pg-boss's shortest wait (1 s).
      await boss.stop({ graceful: ended, wait: true, timeout: 1000 });
      await Promise.allSettled([...inFlight]);
      stopped = true;
    },
    onJobDone(listener) {
      doneListeners.push(listener);
    },
    async waiting() {
      // Its queries would be dropped, never answered, once the queue has stopped.
      if (stopped) return {};
      await start();
      const queues = await boss.getQueues();
      return Object.fromEntries(await Promise.all(queues.map(async ({ name }) => [name, (await boss.getQueueSize(name)) ?? 0] as const)));
    },
  };
}
