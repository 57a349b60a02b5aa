import type HlsType from 'hls.js';
import type { HlsConfig } from 'hls.js';

let loading: Promise<typeof HlsType> | undefined;

/**
 * hls.js, its own chunk (never on `/`), fetched once. A lecture page asks for it as soon as it knows
 * a lecture has a ladder, so the chunk arrives while the lease and the progress are still being
 * asked for, not after the player mounts. A failed fetch is not kept: the next call tries again.
 */
export function loadHls(): Promise<typeof HlsType> {
  loading ??= import('hls.js').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * How the player runs hls.js for a video opening at `startAt` seconds: the first segment from the
 * lowest rendition, the smallest, so the picture comes soonest, and the bandwidth it took tells
 * hls.js how high to climb for the next ones; never above what the player's size shows.
 */
export const playerHlsConfig = (startAt: number): Partial<HlsConfig> => ({
  capLevelToPlayerSize: true,
  startLevel: 0,
  ...(startAt > 0 && { startPosition: startAt }),
});

/** An early start nobody took by then is let go: the page showed another lecture, or none. */
const UNTAKEN_MS = 10_000;

let early: { src: string; startAt: number; player: HlsType } | undefined;

function dropEarly() {
  early?.player.destroy();
  early = undefined;
}

/**
 * Starts hls.js on a ladder before the player that will show it has mounted: the playlists and the
 * first segment are fetched while the page renders, not after it (a video needs none of them to be
 * attached later). The player takes it with `takeEarlyHls`; one not taken within UNTAKEN_MS, or
 * whose loading failed, is destroyed. One at a time: a second start is ignored while one waits.
 */
export function startEarlyHls(src: string, startAt: number): void {
  if (early) return;
  loadHls()
    .then((Hls) => {
      if (early || !Hls.isSupported()) return;
      const player = new Hls({ ...playerHlsConfig(startAt), startFragPrefetch: true });
      const started = { src, startAt, player };
      early = started;
      player.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal && early === started) dropEarly();
      });
      player.loadSource(src);
      setTimeout(() => early === started && dropEarly(), UNTAKEN_MS);
      window.addEventListener('pagehide', () => early === started && dropEarly(), { once: true });
    })
    .catch(() => undefined);
}

/**
 * The hls.js started early for `src` at `startAt`, once; the player attaches its video to it. One
 * started for the same ladder at another position (the learner's place moved meanwhile) is destroyed.
 */
export function takeEarlyHls(src: string, startAt: number): HlsType | undefined {
  if (early?.src !== src) return undefined;
  const { player } = early;
  if (early.startAt !== startAt) {
    dropEarly();
    return undefined;
  }
  early = undefined;
  return player;
}
