import { MAX_WATCHED_PER_SAVE } from '@lms/contract/progress-rules';
import { useAppDispatch } from '../../lib/store-hooks';
import { useEffect, useRef, type RefObject } from 'react';
import { beaconProgress, myProgressStale, saveProgress, type SaveBody } from './progress.api';

/** While playing, a save this often: a reload or a crash loses at most ten seconds of place. */
const SAVE_EVERY_MS = 10_000;
/** Seeks come in bursts while the learner scrubs: one save once they settle. */
const SEEK_SETTLE_MS = 1000;
/** A jump of the playhead larger than this between two timeupdates is a seek, not time watched. */
const MAX_TICK_SECONDS = 2;

/**
 * Saves the learner's place in the lecture playing in `video`: every ~10 s while it plays, on pause,
 * once a seek settles, at the end, and with sendBeacon when the page is hidden or left (or another
 * lecture is picked). `onEnded` runs after the end was saved. Nothing is saved for a lecture that was
 * opened but never played. Used by the lecture page and by the course page's free-preview dialog.
 */
export function useProgressTracking({
  video,
  lectureId,
  courseId,
  enabled,
  onEnded,
}: {
  video: RefObject<HTMLVideoElement | null>;
  lectureId: string | undefined;
  courseId: string | undefined;
  enabled: boolean;
  onEnded?: () => void;
}) {
  const dispatch = useAppDispatch();
  const ended = useRef(onEnded);
  useEffect(() => {
    ended.current = onEnded;
  }, [onEnded]);

  useEffect(() => {
    const element = video.current;
    if (!enabled || !element || !lectureId || !courseId) return;
    let watched = 0;
    let lastTime = element.currentTime;
    // Kept as the events come: when the lecture is left, the player may already have let go of its video.
    let position = element.currentTime;
    let duration: number | undefined;
    let played = false;
    let lastSave = 0;
    let seekTimer: ReturnType<typeof setTimeout> | undefined;

    const read = () => {
      position = Math.max(0, element.currentTime);
      if (Number.isFinite(element.duration) && element.duration > 0) duration = element.duration;
    };
    const body = (extra: Partial<SaveBody> = {}): SaveBody => {
      const taken = Math.min(MAX_WATCHED_PER_SAVE, watched);
      watched -= taken;
      return { position, ...(duration && { duration }), watched: taken, at: Date.now(), ...extra };
    };
    const save = (extra?: Partial<SaveBody>) => {
      if (!played) return Promise.resolve();
      read();
      lastSave = Date.now();
      return dispatch(saveProgress(courseId, lectureId, body(extra)))
        .then(() => undefined)
        .catch(() => undefined); // quiet: the next save carries the position again
    };
    const beacon = () => {
      if (played) beaconProgress(lectureId, body());
    };

    const onTimeUpdate = () => {
      const step = element.currentTime - lastTime;
      lastTime = element.currentTime;
      if (!element.seeking) read();
      if (element.paused || element.seeking || step <= 0 || step > MAX_TICK_SECONDS) return;
      played = true;
      watched += step;
      if (Date.now() - lastSave >= SAVE_EVERY_MS) void save();
    };
    const onPause = () => {
      if (!element.ended) void save();
    };
    const onSeeked = () => {
      lastTime = element.currentTime;
      read();
      played = true;
      clearTimeout(seekTimer);
      seekTimer = setTimeout(() => void save(), SEEK_SETTLE_MS);
    };
    const onEnd = () => {
      played = true;
      clearTimeout(seekTimer);
      void save({ ended: true }).then(() => ended.current?.());
    };
    const onHide = () => {
      if (document.visibilityState === 'hidden') beacon();
    };

    element.addEventListener('timeupdate', onTimeUpdate);
    element.addEventListener('pause', onPause);
    element.addEventListener('seeked', onSeeked);
    element.addEventListener('ended', onEnd);
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', beacon);
    return () => {
      element.removeEventListener('timeupdate', onTimeUpdate);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('seeked', onSeeked);
      element.removeEventListener('ended', onEnd);
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', beacon);
      clearTimeout(seekTimer);
      // Another lecture picked, or the page left inside the app: the last position goes too.
      beacon();
      dispatch(myProgressStale());
    };
  }, [video, lectureId, courseId, enabled, dispatch]);
}
