import type HlsType from 'hls.js';

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
