import { answers } from '@lms/contract/answers';
import type { Playback, StreamLimit } from '@lms/contract/protection';
import { codeForDisplay } from '@lms/contract/watermark-code';
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { PlayerWatermark } from '../../lib/components/watermark';
import { messageOf, type ServerError } from '../../lib/server-state';
import { useAppDispatch } from '../../lib/store-hooks';
import { takeEarlyLease, type EarlyLease } from './early-lease';
import { playbackCalls, stopOnLeave, streamLimitOf } from './playback.api';
import { playbackTexts } from './playback-texts';

/** After a heartbeat that got no answer (the network, the server restarting): try again this soon, until the lease lapses. */
const RETRY_SECONDS = 5;

export type PlaybackState =
  /** No lease is needed: a free preview, a visitor, or a lecture not yet chosen. */
  | { kind: 'off' }
  | { kind: 'starting' }
  | { kind: 'playing'; playback: Playback }
  /** The account plays on as many devices as it may; the refusal names them. */
  | { kind: 'refused'; refusal: StreamLimit }
  /** The lease was stopped from another device, or is not this viewer's: paused, until "Play here". */
  | { kind: 'stopped'; message: string; playback: Playback }
  /** A start failed for another reason (too many starts, no connection). */
  | { kind: 'failed'; message: string };

/** The lease of one lecture, as the hook holds it. */
interface Held {
  lectureId: string;
  state: PlaybackState;
  restarts: number;
  playOnRestart: boolean;
  resumeAt: number | undefined;
}

export interface PlaybackControls {
  state: PlaybackState;
  /** Counts the leases that replaced a broken one: the player attaches its source again (segments need the new lease). */
  restarts: number;
  /** Whether the source attached again should play at once (it was playing, or the viewer asked). */
  playOnRestart: boolean;
  /** Where the video was when its lease broke: a player shown again starts there. */
  resumeAt: number | undefined;
  /** A call on its way ("Play here", "Stop playback there"): its button waits. */
  busy: string | null;
  /** Starts again here ("Play here", "Try again"): may be refused again. */
  playHere: () => void;
  /** Stops another device's playback, then starts here. */
  stopThere: (id: string) => void;
}

/**
 * The lease a lecture plays under. For a signed-in viewer of a lecture that is not a free preview,
 * `enabled` starts one before the player gets its source (the server gives segments only to a
 * session holding one), renews it every `heartbeatSeconds`, and stops it when the lecture changes,
 * the page unmounts or the page is left. A lease stopped elsewhere pauses the video; one that
 * lapsed while the connection was down is started again by itself.
 */
export function usePlayback(lectureId: string | undefined, enabled: boolean, video: RefObject<HTMLVideoElement | null>): PlaybackControls {
  const dispatch = useAppDispatch();
  const [held, setHeld] = useState<Held | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  /** The current lecture's session of leases: its `start` is what the buttons call. */
  const session = useRef<{ start: (why: 'first' | 'restart' | 'asked') => Promise<void> } | null>(null);

  // Before the page's other effects: the lease is what the player waits for, so its request goes out first.
  useLayoutEffect(() => {
    if (!enabled || !lectureId) {
      setHeld(null);
      return;
    }
    const calls = playbackCalls(dispatch);
    let gone = false;
    let lease: Playback | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setHeld({ lectureId, state: { kind: 'starting' }, restarts: 0, playOnRestart: false, resumeAt: undefined });
    const update = (change: Partial<Held> | ((before: Held) => Partial<Held>)) =>
      setHeld((before) => {
        if (!before || before.lectureId !== lectureId) return before;
        return { ...before, ...(typeof change === 'function' ? change(before) : change) };
      });
    const setState = (state: PlaybackState) => update({ state });

    /**
     * The video stops where it is (the pause saves the learner's place). `leaving`: the player gives
     * way to a refusal, and starts here when it is shown again.
     */
    const halt = (leaving: boolean) => {
      const element = video.current;
      if (!element) return;
      if (leaving) update({ resumeAt: element.currentTime });
      element.pause();
    };
    const beat = (seconds: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void renew(), seconds * 1000);
    };

    /** `early`: the lease the page started before it rendered; one already granted is taken without waiting a turn. */
    async function start(why: 'first' | 'restart' | 'asked', early?: EarlyLease) {
      const wasPlaying = video.current ? !video.current.paused : false;
      try {
        const { playback } = early?.playback ? { playback: early.playback } : await (early?.answer ?? calls.start(lectureId!));
        if (gone) return stopOnLeave(playback.id);
        lease = playback;
        update((before) => ({
          state: { kind: 'playing', playback },
          ...(why !== 'first' && { playOnRestart: why === 'asked' || wasPlaying, restarts: before.restarts + 1 }),
        }));
        beat(playback.heartbeatSeconds);
      } catch (error) {
        if (gone) return;
        lease = null;
        const refusal = streamLimitOf(error);
        halt(true);
        setState(refusal ? { kind: 'refused', refusal } : { kind: 'failed', message: messageOf(error as ServerError, playbackTexts.startFailed) });
      }
    }

    async function renew() {
      const current = lease;
      if (!current) return;
      try {
        await calls.renew(current.id);
        if (!gone && lease === current) beat(current.heartbeatSeconds);
      } catch (error) {
        if (gone || lease !== current) return;
        const { status, message } = error as ServerError;
        // Lapsed while no heartbeat got through: nobody stopped it, so it starts again here.
        if (status === 410 && message === answers.playbackLapsed) return void start('restart');
        if (status === 410 || status === 403) {
          lease = null;
          halt(false);
          setState({ kind: 'stopped', message: messageOf(error as ServerError, answers.playbackEnded), playback: current });
          return;
        }
        // No answer, or the server failing: the lease still holds for a while; keep trying.
        beat(RETRY_SECONDS);
      }
    }

    const leave = () => {
      clearTimeout(timer);
      if (lease) stopOnLeave(lease.id);
      lease = null;
    };
    // Back from the browser's page cache: the lease was stopped as the page went, so a new one.
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted && !gone) void start('restart');
    };
    window.addEventListener('pagehide', leave);
    window.addEventListener('pageshow', onShow);
    session.current = { start };
    void start('first', takeEarlyLease(lectureId));
    return () => {
      gone = true;
      session.current = null;
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('pageshow', onShow);
      leave();
    };
  }, [lectureId, enabled, dispatch, video]);

  const playHere = useCallback(() => {
    const current = session.current;
    if (!current) return;
    setBusy('here');
    void current.start('asked').finally(() => setBusy(null));
  }, []);

  const stopThere = useCallback(
    (id: string) => {
      const current = session.current;
      if (!current) return;
      setBusy(id);
      void playbackCalls(dispatch)
        .stop(id)
        .then(
          () => current.start('asked'),
          // Already ended there (it lapsed, or was stopped meanwhile): the slot may be free all the same.
          () => current.start('asked'),
        )
        .finally(() => setBusy(null));
    },
    [dispatch],
  );

  // Until the effect has caught up with a new lecture, the last one's lease is not this one's: the player waits.
  const mine = enabled && lectureId && held?.lectureId === lectureId ? held : null;
  const state: PlaybackState = !enabled || !lectureId ? { kind: 'off' } : (mine?.state ?? { kind: 'starting' });
  return { state, restarts: mine?.restarts ?? 0, playOnRestart: mine?.playOnRestart ?? false, resumeAt: mine?.resumeAt, busy, playHere, stopThere };
}

/** The player's overlay for a playback: the masked email, and the code in the groups a person reads out. */
export const watermarkOf = ({ watermark }: Playback): PlayerWatermark => ({
  text: watermark.text,
  code: codeForDisplay(watermark.code),
  opacity: watermark.opacity,
  size: watermark.size,
});
