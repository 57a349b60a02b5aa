import { describe, expect, it } from 'vitest';
import { createHeldSaves, inParts, MAX_PARTS_PER_FLUSH, MIN_SAVES_PER_WRITE, nextPartSize, type HeldSave } from './held-saves.ts';
import { applySave } from './progress.service.ts';
import { createLearnerStates, createLectureFacts } from './save-copies.ts';

const learner = '11111111-1111-4111-8111-111111111111';
const lecture = '22222222-2222-4222-8222-222222222222';
const course = '33333333-3333-4333-8333-333333333333';

/** A save of `learner` in `lecture` read at `at`. */
const saveAt = (at: number, extra: Partial<HeldSave> = {}): HeldSave => ({
  userId: learner,
  lectureId: lecture,
  courseId: course,
  position: at / 1000,
  positionAt: at,
  watched: 10,
  duration: null,
  completingAt: null,
  heldAt: at,
  ...extra,
});

/** Held saves whose writes land in `written` (one array a batch), never by the timer. */
function heldInto(written: HeldSave[][], { failWhile = (_batch: HeldSave[]): boolean => false, savesPerWrite = undefined as number | undefined } = {}) {
  const errors: unknown[] = [];
  const held = createHeldSaves({
    flushMs: 3_600_000,
    savesPerWrite,
    onError: (error) => errors.push(error),
    write: async (batch) => {
      if (failWhile(batch)) throw new Error('the database is away');
      written.push(batch);
    },
  });
  return { held, errors };
}

describe('held saves', () => {
  it('write the latest save of a lecture once a flush, with the time watched summed', async () => {
    const written: HeldSave[][] = [];
    const { held } = heldInto(written);
    expect(held.hold(saveAt(1000))).toBe(true);
    expect(held.hold(saveAt(2000))).toBe(true);
    expect(held.hold(saveAt(3000))).toBe(true);
    expect(held.size).toBe(1);
    expect(held.holds(learner)).toBe(true);
    await held.flush();
    expect(written).toEqual([[expect.objectContaining({ position: 3, positionAt: 3000, watched: 30 })]]);
    expect(held.holds(learner)).toBe(false);
    await held.close();
  });

  it('never let a save read earlier replace one read later, whatever order they come in', async () => {
    const written: HeldSave[][] = [];
    const { held } = heldInto(written);
    held.hold(saveAt(5000));
    held.hold(saveAt(2000));
    await held.flush();
    expect(written[0]![0]).toMatchObject({ position: 5, positionAt: 5000, watched: 20 });
    await held.close();
  });

  it('keep a completion when a later save does not complete', async () => {
    const written: HeldSave[][] = [];
    const { held } = heldInto(written);
    held.hold(saveAt(1000, { completingAt: 1000 }));
    held.hold(saveAt(2000));
    await held.flush();
    expect(written[0]![0]).toMatchObject({ positionAt: 2000, completingAt: 1000 });
    await held.close();
  });

  it('are written when closed', async () => {
    const written: HeldSave[][] = [];
    const { held } = heldInto(written);
    held.hold(saveAt(1000));
    await held.close();
    expect(written).toEqual([[expect.objectContaining({ positionAt: 1000 })]]);
  });

  it('are held again when a flush fails, under the newer saves, and written by the next flush', async () => {
    const written: HeldSave[][] = [];
    let away = true;
    const { held, errors } = heldInto(written, { failWhile: () => away });
    held.hold(saveAt(1000));
    held.hold(saveAt(1000, { lectureId: '44444444-4444-4444-8444-444444444444' }));
    await held.flush();
    expect(errors).toHaveLength(1);
    expect(written).toEqual([]);
    expect(held.size).toBe(2);
    held.hold(saveAt(4000));
    away = false;
    await held.flush();
    expect(written).toHaveLength(1);
    expect(written[0]).toHaveLength(2);
    expect(written[0]!.find((save) => save.lectureId === lecture)).toMatchObject({ positionAt: 4000, watched: 20 });
    await held.close();
  });

  it('write a save that keeps failing alone, so that it holds none of the others back', async () => {
    const written: HeldSave[][] = [];
    const bad = '55555555-5555-4555-8555-555555555555';
    const { held, errors } = heldInto(written, { failWhile: (batch) => batch.some((save) => save.lectureId === bad) });
    held.hold(saveAt(1000, { lectureId: bad }));
    held.hold(saveAt(1000));
    await held.flush();
    await held.flush();
    expect(written).toEqual([]);
    // Twice failed as a batch: now each alone; the good one is written, the bad one given up and logged.
    await held.flush();
    expect(written).toEqual([[expect.objectContaining({ lectureId: lecture })]]);
    expect(held.size).toBe(0);
    expect(errors).toHaveLength(3);
    await held.close();
  });

  it("write a flush in parts, every save once, each learner's saves in the same part", async () => {
    const written: HeldSave[][] = [];
    const { held } = heldInto(written, { savesPerWrite: 3 });
    const learners = ['a', 'b', 'c', 'd', 'e'].map((letter) => `${learner.slice(0, -1)}${letter}`);
    const lectures = ['1', '2'].map((digit) => `${lecture.slice(0, -1)}${digit}`);
    for (const userId of learners) for (const lectureId of lectures) held.hold(saveAt(1000, { userId, lectureId }));
    // The first learner's later save of the first lecture, merged into the one held.
    held.hold(saveAt(9000, { userId: learners[0], lectureId: lectures[0] }));
    await held.flush();
    expect(written.length).toBeGreaterThan(1);
    const all = written.flat();
    expect(all).toHaveLength(10);
    expect(new Set(all.map((save) => `${save.userId}:${save.lectureId}`)).size).toBe(10);
    expect(all.find((save) => save.userId === learners[0] && save.lectureId === lectures[0])).toMatchObject({ positionAt: 9000, watched: 20 });
    for (const userId of learners) expect(written.filter((part) => part.some((save) => save.userId === userId))).toHaveLength(1);
    expect(held.size).toBe(0);
    await held.close();
  });

  it('hold a part that fails again on its own: the other parts are written', async () => {
    const written: HeldSave[][] = [];
    const other = `${learner.slice(0, -1)}2`;
    const { held, errors } = heldInto(written, { savesPerWrite: 1, failWhile: (batch) => batch.some((save) => save.userId === other) });
    held.hold(saveAt(1000));
    held.hold(saveAt(1000, { userId: other }));
    await held.flush();
    expect(written).toEqual([[expect.objectContaining({ userId: learner })]]);
    expect(errors).toHaveLength(1);
    expect(held.size).toBe(1);
    expect(held.holds(other)).toBe(true);
    await held.close();
  });

  it("split a batch by learner: no part larger than asked unless one learner's saves are", () => {
    const saves = ['a', 'b', 'c'].flatMap((letter) =>
      ['1', '2'].map((digit) => saveAt(1000, { userId: `${learner.slice(0, -1)}${letter}`, lectureId: `${lecture.slice(0, -1)}${digit}` })),
    );
    expect(inParts(saves, 4).map((part) => part.length)).toEqual([4, 2]);
    expect(inParts(saves, 1).map((part) => part.length)).toEqual([2, 2, 2]);
    expect(inParts([], 4)).toEqual([]);
  });

  /** Held saves on a database whose part takes `cost(saves)` ms on a clock of its own; the sizes of the parts written land in `sizes`. */
  function timedHeld(cost: (saves: number) => number) {
    let now = 0;
    const sizes: number[] = [];
    const held = createHeldSaves({
      flushMs: 3_600_000,
      partMs: 10,
      clock: () => now,
      onError: (error) => {
        throw error;
      },
      write: async (batch) => {
        sizes.push(batch.length);
        now += cost(batch.length);
      },
    });
    return { held, sizes };
  }
  const learnerNo = (i: number) => `77777777-7777-4777-8777-${String(i).padStart(12, '0')}`;

  it('size each part from how long the last one took to write, so that none holds the thread much past the target', async () => {
    // A part costs a fixed 2 ms (its statements, its commit) and 0.02 ms a save: 400 saves take the 10 ms asked.
    const { held, sizes } = timedHeld((saves) => 2 + 0.02 * saves);
    for (let i = 0; i < 2000; i++) held.hold(saveAt(1000, { userId: learnerNo(i) }));
    await held.flush();
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(2000);
    for (const size of sizes) expect(2 + 0.02 * size).toBeLessThanOrEqual(10.5);
    expect(sizes.slice(2, -1).every((size) => size >= 380 && size <= 400)).toBe(true);
    // The next flush starts from the size reached.
    sizes.length = 0;
    for (let i = 0; i < 1000; i++) held.hold(saveAt(2000, { userId: learnerNo(i) }));
    await held.flush();
    expect(sizes[0]).toBeGreaterThanOrEqual(380);
    await held.close();
  });

  it('write a flush in a bounded number of parts however slow a part is, so that it keeps up with the saves', async () => {
    const { held, sizes } = timedHeld(() => 50);
    for (let i = 0; i < 2000; i++) held.hold(saveAt(1000, { userId: learnerNo(i) }));
    await held.flush();
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(2000);
    expect(sizes.length).toBeLessThanOrEqual(MAX_PARTS_PER_FLUSH);
    await held.close();
  });

  it('grow a part at most twofold at once, within its bounds', () => {
    expect(nextPartSize(1000, 1000, 100, { targetMs: 10 })).toBe(100);
    expect(nextPartSize(100, 100, 2, { targetMs: 10 })).toBe(200);
    expect(nextPartSize(100, 100, 0, { targetMs: 10 })).toBe(200);
    expect(nextPartSize(600, 600, 1, { targetMs: 10, max: 1000 })).toBe(1000);
    expect(nextPartSize(60, 60, 500, { targetMs: 10 })).toBe(MIN_SAVES_PER_WRITE);
    expect(nextPartSize(1, 1, 500, { targetMs: 10, max: 1 })).toBe(1);
    // A flush's last part, smaller than its size: quick, it leaves the size; slow, it shrinks it.
    expect(nextPartSize(300, 20, 1, { targetMs: 10 })).toBe(300);
    expect(nextPartSize(300, 200, 40, { targetMs: 10 })).toBe(MIN_SAVES_PER_WRITE);
  });

  it('refuse a learner past their share of lectures, and nobody past the area', async () => {
    const { held } = heldInto([]);
    const lectureNo = (i: number) => `66666666-6666-4666-8666-${String(i).padStart(12, '0')}`;
    const results = [1, 2, 3, 4, 5].map((i) => held.hold(saveAt(1000, { lectureId: lectureNo(i) })));
    expect(results).toEqual([true, true, true, true, false]);
    // A lecture already held takes the newer save.
    expect(held.hold(saveAt(2000, { lectureId: lectureNo(1) }))).toBe(true);
    await held.close();
  });
});

describe('a save applied to the stored row (the answer)', () => {
  const stored = { position: 50, positionAt: 5000, watched: 40, completedAt: null, completionSetAt: null, updatedAt: 5000 };

  it('takes the position of a later save only, and caps what was watched at the length', () => {
    expect(applySave(stored, saveAt(4000, { position: 10 }), 100, 9000)).toMatchObject({ position: 50, positionAt: 5000, watched: 50 });
    expect(applySave(stored, saveAt(6000, { position: 10, watched: 90 }), 100, 9000)).toMatchObject({ position: 10, positionAt: 6000, watched: 100 });
  });

  it('completes once, never un-completes, and does not complete again on a save read before the learner unmarked it', () => {
    const completed = applySave(stored, saveAt(6000, { completingAt: 6000 }), 100, 9000);
    expect(completed.completedAt).toBe(9000);
    expect(applySave(completed, saveAt(7000, { position: 1 }), 100, 9500).completedAt).toBe(9000);
    const unmarked = { ...stored, completionSetAt: 8000 };
    expect(applySave(unmarked, saveAt(7000, { completingAt: 7000 }), 100, 9500).completedAt).toBeNull();
    expect(applySave(unmarked, saveAt(8500, { completingAt: 8500 }), 100, 9500).completedAt).toBe(9500);
  });
});

describe('the copies a save is answered from', () => {
  const fact = { courseId: course, isPreview: false, durationSeconds: 100, lectureCount: 3 };

  it('forget lectures on a change, and keep none read across one or while changes are not heard', () => {
    const facts = createLectureFacts();
    facts.remember(lecture, fact, facts.generation);
    expect(facts.get(lecture)).toEqual(fact);
    facts.forgetAll();
    expect(facts.get(lecture)).toBeUndefined();
    const readIn = facts.generation;
    facts.forgetAll(); // a change while it was read
    facts.remember(lecture, fact, readIn);
    expect(facts.get(lecture)).toBeUndefined();
    facts.setTrusted(false);
    facts.remember(lecture, fact, facts.generation);
    expect(facts.get(lecture)).toBeUndefined();
    facts.setTrusted(true);
    facts.remember(lecture, fact, facts.generation);
    expect(facts.get(lecture)).toEqual(fact);
  });

  it("forget a learner's rows when they mark a lecture, and read them again after a while", () => {
    let now = 0;
    const states = createLearnerStates({ trustMs: 1000, now: () => now });
    const state = { lectures: new Map(), quizCount: 0, passedQuizzes: 0 };
    states.remember(learner, course, state, states.generation);
    expect(states.get(learner, course)).toBe(state);
    states.forgetLearner(learner);
    expect(states.get(learner, course)).toBeUndefined();
    states.remember(learner, course, state, states.generation);
    now = 1001;
    expect(states.get(learner, course)).toBeUndefined();
  });
});
