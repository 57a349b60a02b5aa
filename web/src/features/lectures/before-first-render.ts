import { loadHls, startEarlyHls } from '../../lib/components/hls-loader';
import type { CacheDispatch } from '../../lib/server-state';
import type { AuthState } from '../auth';
import { cacheSentCourse } from '../courses';
import { cacheSentProgress } from '../progress';
import { startEarlyLease } from '../protection';
import { cacheSentLectures } from './lectures.api';
import { linkedTime, openingPosition, timeIsForOpenedLecture } from './opening-position';

/** The store as the lecture page reads it before it renders: the login state, and dispatch for the cache and the lease. */
export interface StoreBeforeRender {
  dispatch: CacheDispatch;
  getState: () => { auth: Pick<AuthState, 'isLoggedIn'> };
}

/**
 * How long the first render waits for the lease's answer. Answered by then, the first render has the
 * player, which gives the video its source in the same task; otherwise the page renders with the
 * lecture's poster, and the player follows the answer in a render of its own.
 */
const FIRST_RENDER_WAITS_MS = 200;

/**
 * What the lecture page the browser opened does before its first render, from the reads its HTML
 * carries (server/src/web-app.ts): the course, its lectures and the learner's progress go into the
 * cache, so that render shows the lecture, not the skeleton; the lease of that lecture is asked for,
 * which `usePlayback` then takes; for a lecture with a ladder, hls.js is fetched and, once the lease
 * is granted, started on the ladder at the lecture's opening second, which the player then takes.
 * The lecture is the one the page picks (the list's lecture named by `?lecture=`, else the first),
 * under the page's own rule: a signed-in viewer's lecture that is not a free preview plays under a
 * lease. Without the list (a visitor, no access, a page cut short) the page asks as it renders. The
 * first render waits for the lease's answer, FIRST_RENDER_WAITS_MS at most.
 */
export function beforeFirstRender({ dispatch, getState }: StoreBeforeRender): Promise<void> {
  const search = new URLSearchParams(window.location.search);
  const courseId = search.get('id');
  if (!courseId) return Promise.resolve();
  cacheSentCourse(dispatch, courseId);
  const progress = cacheSentProgress(dispatch, courseId);
  const lectures = cacheSentLectures(dispatch, courseId)?.lectures ?? [];
  const named = lectures.findIndex((item) => item._id === search.get('lecture'));
  const lecture = lectures[Math.max(0, named)];
  if (!lecture) return Promise.resolve();
  const hlsUrl = lecture.hls_url;
  // The ladder's playlists and first segment, once the lecture may be played (its lease granted, if it needs one).
  const startLadder = () => {
    if (!hlsUrl) return;
    const linkedAt = timeIsForOpenedLecture(search, named) ? linkedTime(search.get('t')) : null;
    const saved = progress?.lectures.find((row) => row.lectureId === lecture._id);
    startEarlyHls(hlsUrl, openingPosition(lecture, saved, linkedAt));
  };
  if (hlsUrl) loadHls().catch(() => undefined);
  if (!getState().auth.isLoggedIn || lecture.preview) {
    startLadder();
    return Promise.resolve();
  }
  const lease = startEarlyLease(dispatch, lecture._id);
  lease.answer.then(startLadder, () => undefined);
  return Promise.race([
    lease.answer.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => setTimeout(resolve, FIRST_RENDER_WAITS_MS)),
  ]);
}
