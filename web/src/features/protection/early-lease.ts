import type { Playback } from '@lms/contract/protection';
import type { CacheDispatch } from '../../lib/server-state';
import { playbackCalls, stopOnLeave } from './playback.api';

/** A lease the page's player has not taken by then is given back: the page showed another lecture, or none. */
const UNTAKEN_MS = 10_000;

/** A lease asked for before the page's first render, and its answer once it has come. */
export interface EarlyLease {
  answer: Promise<{ playback: Playback }>;
  /** Set as the answer comes: a player that takes a lease already granted shows at once, without waiting a turn. */
  playback?: Playback;
}

let early: { lectureId: string; lease: EarlyLease } | undefined;

/**
 * Starts the lease of `lectureId` before the page has rendered (its HTML carries what the page will
 * show, so the lecture is known as soon as the page's code runs): its round trip overlaps the first
 * render, which would otherwise send it. `usePlayback` takes it for that lecture; one nobody takes
 * is stopped, as is one held when the page goes.
 */
export function startEarlyLease(dispatch: CacheDispatch, lectureId: string): EarlyLease {
  const lease: EarlyLease = { answer: playbackCalls(dispatch).start(lectureId) };
  early = { lectureId, lease };
  lease.answer.then(
    ({ playback }) => (lease.playback = playback),
    // A refusal is for the player to show, once it takes the lease.
    () => undefined,
  );
  const giveBack = () => {
    window.removeEventListener('pagehide', giveBack);
    if (early?.lease !== lease) return;
    early = undefined;
    lease.answer.then(({ playback }) => stopOnLeave(playback.id)).catch(() => undefined);
  };
  window.addEventListener('pagehide', giveBack);
  setTimeout(giveBack, UNTAKEN_MS);
  return lease;
}

/** The lease started early for `lectureId`, once: the player's first start uses it instead of asking again. */
export function takeEarlyLease(lectureId: string): EarlyLease | undefined {
  if (early?.lectureId !== lectureId) return undefined;
  const { lease } = early;
  early = undefined;
  return lease;
}
