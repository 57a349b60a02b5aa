import { createLearnerStates, createLectureFacts, type LearnerStates, type LectureFacts } from './save-copies.ts';

/**
 * Every progress save is held here and written a moment later: the saves of a flush interval go
 * to the database in batches of at most SAVES_PER_WRITE (one statement for the lecture rows, one
 * for the course rows, one commit each), where one statement and one commit a save capped the rate
 * at about a hundred a second. The newest save of each learner and lecture is merged into the one before it (held-saves
 * merging rules below), so a player saving every few seconds costs one row a flush.
 *
 * Held saves live in this process: closing the app writes them, a crash loses at most one flush
 * interval of positions. Each instance holds its own; the rules of the write (an older `at` never
 * wins, a completed lecture stays completed) keep two instances writing the same row right.
 *
 * The area is shared: each learner holds at most MAX_HELD_PER_LEARNER lectures at once, and past
 * `maxHeld` saves are refused (429) rather than let memory grow.
 */
export interface HeldSave {
  userId: string;
  lectureId: string;
  courseId: string;
  /** Where the learner is, as of `positionAt` (ms, the browser's clock but never ahead of ours). */
  position: number;
  positionAt: number;
  /** Seconds played, summed over the saves merged. */
  watched: number;
  /** The player's idea of the length: stands in while the server has not measured the video. */
  duration: number | null;
  /** When the latest save that completes the lecture was read (ms); null when none does. */
  completingAt: number | null;
  /** When this instance last held a save of it (ms): the lecture held last is the course's last watched. */
  heldAt: number;
}

export interface HeldSaves {
  /**
   * Holds `save`, merged into the one held for its learner and lecture; false when that learner
   * already holds their share or the area is full (the caller answers 429).
   */
  hold(save: HeldSave): boolean;
  /** Whether `userId` has saves not yet written (a read of their own progress writes them first). */
  holds(userId: string): boolean;
  /** Writes everything held now. */
  flush(): Promise<void>;
  /** How many are waiting. */
  readonly size: number;
  /** What saves need to know of lectures, kept between saves; catalogue changes drop it. */
  readonly lectures: LectureFacts;
  /** Each learner's stored rows in the courses they are watching, which a save's answer is computed from. */
  readonly learners: LearnerStates;
  /** Drops both copies (a change to the catalogue, or anything). */
  forgetCopies(): void;
  close(): Promise<void>;
}

/** Writes a batch; rejects when nothing of it was written (the batch is held again and retried). */
export type WriteSaves = (batch: HeldSave[]) => Promise<void>;

const FLUSH_MS = 1000;
/** Memory bound: ten times the saves of 10,000 viewers a flush. */
const MAX_HELD = 100_000;
/**
 * Lectures one learner may have saves held for at once. A player saves one lecture; moving to
 * the next within a flush makes two. More is no player's doing.
 */
export const MAX_HELD_PER_LEARNER = 4;
/** A batch that failed this many times is written a save at a time: one bad save must not hold the others back. */
const ATTEMPTS_AS_BATCH = 2;
/**
 * Saves written in one transaction at most: on PostgreSQL, where a write waits on another process,
 * a second's saves at the rate saves are built for are one part.
 */
export const SAVES_PER_WRITE = 1000;
/** Saves written in one transaction at least, however slow the last part was: each part costs a commit. */
export const MIN_SAVES_PER_WRITE = 50;
/**
 * How long one part of a flush should take to write. The embedded database runs on the server's
 * own thread: every request that arrives while a part is written waits for it, so a flush is
 * written in parts sized to take about this long (from how long the last part took), with the
 * requests that arrived meanwhile let through between two. A second's saves at the budget's rate
 * in one part held the thread for 100–400 ms, which every save arriving meanwhile waited for.
 * A part also costs a fixed 10–15 ms of the thread (its statements planned, its commit) besides
 * some 0.07 ms a save: much shorter parts would spend the thread on little else.
 */
export const PART_MS = 25;
/**
 * Parts a flush is written in at most, whatever the parts before took: on a machine too busy for
 * a part to fit PART_MS, the parts' fixed cost must not make the flush fall behind the saves.
 */
export const MAX_PARTS_PER_FLUSH = 8;

/** Lets the requests that arrived meanwhile run before the next part of a flush. */
const letOthersRun = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The size of the next part, from the last: it was cut at `size`, and its `count` saves took
 * `tookMs` to write. Scaled towards `targetMs` (a part's fixed cost, its commit, makes a part's time
 * grow slower than its size, so the size settles where the time meets the target), never more than
 * doubled at once, and kept between MIN_SAVES_PER_WRITE and `max`. A part smaller than its size
 * (a flush's last) that was quick says nothing of a larger one: the size stays.
 */
export function nextPartSize(size: number, count: number, tookMs: number, { targetMs = PART_MS, max = SAVES_PER_WRITE } = {}): number {
  if (count < size && tookMs <= targetMs) return size;
  const next = tookMs > 0 ? Math.round((count * targetMs) / tookMs) : 2 * size;
  return Math.max(Math.min(MIN_SAVES_PER_WRITE, max), Math.min(max, next, 2 * size));
}

/**
 * A flush's saves in parts, each learner's saves in one part: the course row names the lecture
 * saved last, which only a part that has all of the learner's saves can tell. Each part is cut at
 * `size()` as it stands when the part is taken, so a part can be sized from the one before.
 */
export function* partsOf(batch: HeldSave[], size: () => number): Generator<HeldSave[]> {
  const byLearner = new Map<string, HeldSave[]>();
  for (const save of batch) {
    const saves = byLearner.get(save.userId);
    if (saves) saves.push(save);
    else byLearner.set(save.userId, [save]);
  }
  let part: HeldSave[] = [];
  let limit = size();
  for (const saves of byLearner.values()) {
    if (part.length > 0 && part.length + saves.length > limit) {
      yield part;
      part = [];
      limit = size();
    }
    part.push(...saves);
  }
  if (part.length > 0) yield part;
}

/** A flush's saves in parts of about `size` (partsOf at a fixed size). */
export const inParts = (batch: HeldSave[], size: number): HeldSave[][] => [...partsOf(batch, () => size)];

const keyOf = (save: HeldSave) => `${save.userId}:${save.lectureId}`;

/** Two saves of one learner and lecture as one: the later position, the time played summed, completion if either completes. */
export function mergeSaves(held: HeldSave, next: HeldSave): HeldSave {
  const later = next.positionAt >= held.positionAt ? next : held;
  return {
    ...held,
    courseId: next.courseId,
    position: later.position,
    positionAt: later.positionAt,
    watched: held.watched + next.watched,
    duration: next.duration ?? held.duration,
    heldAt: Math.max(held.heldAt, next.heldAt),
    completingAt:
      held.completingAt === null ? next.completingAt : next.completingAt === null ? held.completingAt : Math.max(held.completingAt, next.completingAt),
  };
}

export function createHeldSaves({
  write,
  onError,
  flushMs = FLUSH_MS,
  maxHeld = MAX_HELD,
  savesPerWrite = SAVES_PER_WRITE,
  partMs = PART_MS,
  clock = () => performance.now(),
}: {
  write: WriteSaves;
  onError: (error: unknown) => void;
  flushMs?: number | undefined;
  maxHeld?: number | undefined;
  /** The most saves a part holds. */
  savesPerWrite?: number | undefined;
  /** How long a part should take to write (PART_MS). */
  partMs?: number | undefined;
  /** Milliseconds, for timing parts (tests give their own). */
  clock?: () => number;
}): HeldSaves {
  let held = new Map<string, HeldSave>();
  /** Lectures held per learner, emptied with `held`. */
  let perLearner = new Map<string, number>();
  /** How often each save now held failed to be written as part of a batch. */
  let failures = new Map<string, number>();
  let flushing: Promise<void> | undefined;
  /** Learners whose saves the flush under way is writing. */
  let writing = new Set<string>();
  /** The size of the next part, from how long the last one took; the first part of all is small, as nothing is known yet. */
  let partSize = Math.min(MIN_SAVES_PER_WRITE, savesPerWrite);

  function add(save: HeldSave, { bounded }: { bounded: boolean }): boolean {
    const key = keyOf(save);
    const before = held.get(key);
    if (before) {
      held.set(key, mergeSaves(before, save));
      return true;
    }
    const count = perLearner.get(save.userId) ?? 0;
    if (bounded && (count >= MAX_HELD_PER_LEARNER || held.size >= maxHeld)) return false;
    perLearner.set(save.userId, count + 1);
    held.set(key, save);
    return true;
  }

  /** A batch that could not be written goes back, under whatever was held since (merging keeps the later position). */
  function holdAgain(batch: HeldSave[], failed: Map<string, number>) {
    for (const save of batch) {
      const key = keyOf(save);
      const newer = held.get(key);
      if (newer) held.delete(key);
      add(newer ? mergeSaves(save, newer) : save, { bounded: false });
      failures.set(key, (failed.get(key) ?? 0) + 1);
    }
  }

  async function writeBatch(batch: HeldSave[], failed: Map<string, number>) {
    const [asBatch, alone] = [[] as HeldSave[], [] as HeldSave[]];
    for (const save of batch) ((failed.get(keyOf(save)) ?? 0) >= ATTEMPTS_AS_BATCH ? alone : asBatch).push(save);
    let first = true;
    // Each part is written, or held again, on its own: a part that fails holds none of the others back.
    const fewest = Math.ceil(asBatch.length / MAX_PARTS_PER_FLUSH);
    let size = partSize;
    const cutAt = () => (size = Math.max(partSize, fewest));
    for (const part of partsOf(asBatch, cutAt)) {
      if (!first) await letOthersRun();
      first = false;
      const started = clock();
      try {
        await write(part);
        partSize = nextPartSize(size, part.length, clock() - started, { targetMs: partMs, max: savesPerWrite });
      } catch (error) {
        onError(error);
        holdAgain(part, failed);
      }
    }
    // Saves that failed in batches: each alone, and one that still fails is given up (and logged).
    for (const save of alone) {
      if (!first) await letOthersRun();
      first = false;
      await write([save]).catch(onError);
    }
  }

  async function flush() {
    // One flush at a time; a save held during it waits for the next.
    while (flushing) await flushing;
    if (held.size === 0) return;
    const batch = [...held.values()];
    const failed = failures;
    held = new Map();
    perLearner = new Map();
    failures = new Map();
    writing = new Set(batch.map((save) => save.userId));
    flushing = writeBatch(batch, failed);
    try {
      await flushing;
    } finally {
      flushing = undefined;
      writing = new Set();
    }
  }

  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  const lectures = createLectureFacts();
  const learners = createLearnerStates();
  return {
    hold: (save) => add(save, { bounded: true }),
    holds: (userId) => perLearner.has(userId) || writing.has(userId),
    flush,
    get size() {
      return held.size;
    },
    lectures,
    learners,
    forgetCopies() {
      lectures.forgetAll();
      learners.forgetAll();
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
