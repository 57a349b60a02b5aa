/**
 * Saves held back from a session that sends more than its share (rate-limit.ts,
 * progressPerSession). A flood is not written row by row, and its latest position is not lost
 * either: the newest held save of each learner and lecture replaces the one before it, and a timer
 * writes what is held every FLUSH_MS. Held saves live in this process; closing the app writes them.
 *
 * Only a save the learner may make is held (the route checks the lecture first), and each learner
 * holds at most MAX_HELD_PER_LEARNER at once: the area is shared, and one learner filling it would
 * turn everyone else's saves away.
 */
export interface HeldSaves {
  /**
   * Holds `write` as the latest for `key`, a save of `learner`'s; false when that learner already
   * holds their share or the holder is full (the caller answers 429).
   */
  hold(learner: string, key: string, write: () => Promise<unknown>): boolean;
  /** Writes everything held now. */
  flush(): Promise<void>;
  /** How many are waiting. */
  readonly size: number;
  close(): Promise<void>;
}

const FLUSH_MS = 2000;
/** Memory bound: beyond this many learners being throttled at once, saves are refused. */
const MAX_HELD = 10_000;
/**
 * Lectures one learner may have saves held for at once. A player saves one lecture; moving to
 * the next within a flush makes two. More is no player's doing.
 */
export const MAX_HELD_PER_LEARNER = 4;

export function createHeldSaves({
  onError,
  flushMs = FLUSH_MS,
  maxHeld = MAX_HELD,
}: {
  onError: (error: unknown) => void;
  flushMs?: number | undefined;
  maxHeld?: number | undefined;
}): HeldSaves {
  const held = new Map<string, () => Promise<unknown>>();
  /** Saves held per learner, emptied with `held`. */
  const perLearner = new Map<string, number>();
  let flushing: Promise<void> | undefined;

  async function flush() {
    // One flush at a time; a save held during it waits for the next.
    while (flushing) await flushing;
    if (held.size === 0) return;
    const batch = [...held.values()];
    held.clear();
    perLearner.clear();
    flushing = (async () => {
      for (const write of batch) await write().catch(onError);
    })();
    await flushing;
    flushing = undefined;
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    hold(learner, key, write) {
      if (!held.has(key)) {
        const count = perLearner.get(learner) ?? 0;
        if (count >= MAX_HELD_PER_LEARNER || held.size >= maxHeld) return false;
        perLearner.set(learner, count + 1);
      }
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
