/**
 * The admin's moves of a course's lectures and sections show at once and reach the server one
 * after another. A read of the course's lectures that overlaps one of them (made while it was
 * unanswered, or still travelling when it was made) may answer the order from before it: shown,
 * it would put the lecture back, and the admin's next Move up/down would start from there.
 *
 * So a move is wrapped in `arranging`, a read in `read`, and a read that overlapped a move is
 * stale. The cache keeps what it shows in its place; the read that follows the last move (tags
 * are invalidated once nothing is pending) brings what the server holds.
 */

/** Per course: the moves not answered yet, and the clock's time of the last move made. */
const moves = new Map<string, { unanswered: number; lastMadeAt: number }>();
let clock = 0;

/** Runs the move `send` of `courseId`'s arrangement; reads that overlap it are stale. */
export async function arranging<T>(courseId: string, send: () => Promise<T>): Promise<T> {
  const course = moves.get(courseId) ?? { unanswered: 0, lastMadeAt: 0 };
  moves.set(courseId, course);
  course.unanswered += 1;
  course.lastMadeAt = ++clock;
  try {
    return await send();
  } finally {
    course.unanswered -= 1;
  }
}

/** Runs the read `fetch` of `courseId`'s lectures and says whether a move overlapped it. */
export async function read<T>(courseId: string, fetch: () => Promise<T>): Promise<{ answer: T; stale: boolean }> {
  const startedAt = ++clock;
  const movingAtStart = (moves.get(courseId)?.unanswered ?? 0) > 0;
  const answer = await fetch();
  const movedSince = (moves.get(courseId)?.lastMadeAt ?? 0) > startedAt;
  return { answer, stale: movingAtStart || movedSince };
}
