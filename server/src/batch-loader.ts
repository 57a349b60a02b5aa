/**
 * Reads of one kind asked for at about the same time, answered by one query: `load(key)` joins the
 * next batch, which starts on the next turn of the event loop, or, while a batch is being read,
 * once that one is done. On the embedded database every query runs on the server's own thread and
 * costs its parse, plan and round trips whatever it reads: a thousand sessions looked up one by
 * one block every request for a thousand queries, read together for a few. The busier the
 * server, the more keys each batch holds.
 */
export interface BatchLoader<K, V> {
  /** The value of `key`, undefined when the read found none; rejects when its batch's read failed. */
  load(key: K): Promise<V | undefined>;
}

/** Keys read in one query at most: past it, the rest wait for the next batch. */
const MAX_BATCH = 500;

export function createBatchLoader<K, V>(readMany: (keys: K[]) => Promise<Map<K, V>>, { maxBatch = MAX_BATCH } = {}): BatchLoader<K, V> {
  type Waiter = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };
  /** Keys waiting for the next batch, each with the requests waiting for it. */
  const waiting = new Map<K, Waiter[]>();
  let reading = false;
  let scheduled = false;

  async function readNext() {
    scheduled = false;
    if (reading || waiting.size === 0) return;
    reading = true;
    const batch = new Map<K, Waiter[]>();
    for (const [key, requests] of waiting) {
      if (batch.size >= maxBatch) break;
      batch.set(key, requests);
    }
    for (const key of batch.keys()) waiting.delete(key);
    try {
      const found = await readMany([...batch.keys()]);
      for (const [key, requests] of batch) for (const request of requests) request.resolve(found.get(key));
    } catch (error) {
      for (const requests of batch.values()) for (const request of requests) request.reject(error);
    } finally {
      reading = false;
      if (waiting.size > 0) schedule();
    }
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void readNext());
  }

  return {
    load(key) {
      return new Promise<V | undefined>((resolve, reject) => {
        const requests = waiting.get(key);
        if (requests) requests.push({ resolve, reject });
        else waiting.set(key, [{ resolve, reject }]);
        if (!reading) schedule();
      });
    },
  };
}

/**
 * A batch loader for each app (each has its own database), made on its first use: `loaderOf(owner)`.
 * Held weakly, so an app closed and dropped takes its loader with it.
 */
export function batchLoaderPer<O extends object, K, V>(readMany: (owner: O, keys: K[]) => Promise<Map<K, V>>): (owner: O) => BatchLoader<K, V> {
  const loaders = new WeakMap<O, BatchLoader<K, V>>();
  return (owner) => {
    let loader = loaders.get(owner);
    if (!loader) loaders.set(owner, (loader = createBatchLoader((keys: K[]) => readMany(owner, keys))));
    return loader;
  };
}
