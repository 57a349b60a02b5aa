/**
 * Saves held back from a session that sends more than its share (rate-limit.ts,
 * progressPerSession). A flood is not written row by row, and its latest position is not lost
 * either: the newest held save of each learner and lecture replaces the one before it, and a timer
 * writes what is held every FLUSH_MS. Held saves live in this process; closing the app writes them.
 */
export interface HeldSaves {
  /** Holds `write` as the latest for `key`; false when the holder is full (the caller answers 429). */
  hold(key: string, write: () => Promise<unknown>): boolean;
  /** Writes everything held now. */
  flush(): Promise<void>;
  /** How many are waiting. */
  readonly size: number;
  close(): Promise<void>;
}

const FLUSH_MS = 2000;
/** Memory bound: beyond this many learners being throttled at once, saves are refused. */
const MAX_HELD = 10_000;

export function createHeldSaves({ onError, flushMs = FLUSH_MS }: { onError: (error: unknown) => void; flushMs?: number | undefined }): HeldSaves {
  const held = new Map<string, () => Promise<unknown>>();
  let flushing: Promise<void> | undefined;

  async function flush() {
    // One flush at a time; a save held during it waits for the next.
    while (flushing) await flushing;
    if (held.size === 0) return;
    const batch = [...held.values()];
    held.clear();
    flushing = (async () => {
      for (const write of batch) await write().catch(onError);
    })();
    await flushing;
    flushing = undefined;
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    hold(key, write) {
      if (!held.has(key) && held.size >= MAX_HELD) return false;
      held.set(key, write);
      return true;
    },
    flush,
    get size() {
      return held.size;
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
