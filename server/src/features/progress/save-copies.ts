/**
 * What a progress save needs to know, kept between saves so that a save asks the database
 * nothing (held-saves.ts writes it later): the lecture (does it exist, its course, its length, is it
 * a free preview) and the learner's stored rows in that course, from which the save's answer is
 * computed as the write will leave them.
 *
 * Lectures are dropped whenever the catalogue changes anywhere (changes.ts: every instance hears
 * it), and not trusted while changes are not heard. A learner's rows are this instance's: what its
 * own saves and marks did is applied to them at once, and a quiz passed here drops them; what
 * another instance did to the same learner shows within LEARNER_TRUST_MS.
 */

/** A lecture as saves see it. */
export interface LectureFact {
  courseId: string;
  isPreview: boolean;
  /** The pipeline's measure; null until it measured the video. */
  durationSeconds: number | null;
  /** Lectures the course has. */
  lectureCount: number;
}

/** A learner's row for one lecture, times in ms. */
export interface StoredLecture {
  position: number;
  positionAt: number;
  watched: number;
  completedAt: number | null;
  /** When the learner last marked the lecture done or not done themselves. */
  completionSetAt: number | null;
  updatedAt: number;
}

/** A learner's rows in one course, and its quizzes as they count in the course's percent. */
export interface LearnerCourse {
  lectures: Map<string, StoredLecture>;
  quizCount: number;
  passedQuizzes: number;
}

/**
 * A copy that a change may overtake while it is read: `generation` is taken before reading, and a
 * copy read across a change is not kept.
 */
interface Generations {
  readonly generation: number;
}

export interface LectureFacts extends Generations {
  get(lectureId: string): LectureFact | undefined;
  remember(lectureId: string, fact: LectureFact, generation: number): void;
  forgetAll(): void;
  /** While changes are not heard, nothing is kept. */
  setTrusted(trusted: boolean): void;
}

export interface LearnerStates extends Generations {
  get(userId: string, courseId: string): LearnerCourse | undefined;
  remember(userId: string, courseId: string, state: LearnerCourse, generation: number): void;
  forgetLearner(userId: string): void;
  forgetAll(): void;
}

/** Lectures watched at once on one instance are far fewer; past this many the copy starts over rather than grow. */
const MAX_LECTURES = 20_000;
/** Past this many learners watching at once on one instance, the copy starts over rather than grow. */
const MAX_LEARNER_COURSES = 50_000;
/** How long a learner's rows are used before they are read again (what another instance wrote shows by then). */
export const LEARNER_TRUST_MS = 60_000;

export function createLectureFacts(): LectureFacts {
  let facts = new Map<string, LectureFact>();
  let generation = 0;
  let trusted = true;
  return {
    get generation() {
      return generation;
    },
    get: (lectureId) => facts.get(lectureId),
    remember(lectureId, fact, readIn) {
      if (!trusted || readIn !== generation) return;
      if (facts.size >= MAX_LECTURES) facts = new Map();
      facts.set(lectureId, fact);
    },
    forgetAll() {
      generation++;
      facts = new Map();
    },
    setTrusted(listening) {
      trusted = listening;
      if (!listening) this.forgetAll();
    },
  };
}

export function createLearnerStates({ trustMs = LEARNER_TRUST_MS, now = Date.now } = {}): LearnerStates {
  let states = new Map<string, { state: LearnerCourse; until: number; userId: string }>();
  let generation = 0;
  const keyOf = (userId: string, courseId: string) => `${userId}:${courseId}`;
  return {
    get generation() {
      return generation;
    },
    get(userId, courseId) {
      const entry = states.get(keyOf(userId, courseId));
      return entry && entry.until > now() ? entry.state : undefined;
    },
    remember(userId, courseId, state, readIn) {
      if (readIn !== generation) return;
      if (states.size >= MAX_LEARNER_COURSES) states = new Map();
      states.set(keyOf(userId, courseId), { state, until: now() + trustMs, userId });
    },
    forgetLearner(userId) {
      generation++;
      for (const [key, entry] of states) if (entry.userId === userId) states.delete(key);
    },
    forgetAll() {
      generation++;
      states = new Map();
    },
  };
}
