import type { Lecture } from '@lms/contract/lectures';
import type { LectureProgress } from '@lms/contract/progress';
import { resumePosition } from '../progress';

/** `?t=` in seconds (a search result's link to a line of a lecture); anything else is no time. */
export function linkedTime(value: string | null): number | null {
  if (value === null || !/^\d{1,6}(\.\d+)?$/.test(value)) return null;
  return Number(value);
}

/**
 * Whether the address's `?t=` is for the lecture the page opens: the one `?lecture=` names, or the
 * first when it names none (a link to an unknown lecture opens the first at its saved place).
 * `named` is the index of the lecture `?lecture=` names in the list, -1 when none.
 */
export const timeIsForOpenedLecture = (search: URLSearchParams, named: number) => named >= 0 || !search.get('lecture');

/**
 * The second a lecture opens at: a link's time (kept inside the video), else where the learner
 * stopped. The page decides which lecture a link's time is for; `beforeFirstRender` starts hls.js
 * there, and the player takes what it started only for the same second.
 */
export function openingPosition(lecture: Pick<Lecture, 'duration'>, saved: LectureProgress | undefined, linkedAt: number | null): number {
  if (linkedAt === null) return resumePosition(lecture.duration, saved);
  return lecture.duration ? Math.min(linkedAt, Math.max(0, lecture.duration - 1)) : linkedAt;
}
