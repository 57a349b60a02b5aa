import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadHls, startEarlyHls, takeEarlyHls } from './hls-loader';

/** hls.js as an early start drives it: made with a config, told its source, destroyed, and its fatal errors. */
const fake = vi.hoisted(() => {
  const made: { config: Record<string, unknown>; loadSource: ReturnType<typeof vi.fn>; destroy: ReturnType<typeof vi.fn>; fail: () => void }[] = [];
  const Hls = Object.assign(
    vi.fn(function Hls(config: Record<string, unknown>) {
      let onError: ((event: string, data: { fatal: boolean }) => void) | undefined;
      const instance = {
        config,
        loadSource: vi.fn(),
        destroy: vi.fn(),
        on: (name: string, handler: typeof onError) => name === 'hlsError' && (onError = handler),
        fail: () => onError?.('hlsError', { fatal: true }),
      };
      made.push(instance);
      return instance;
    }),
    { isSupported: () => true, Events: { ERROR: 'hlsError' } },
  );
  return { Hls, made };
});
vi.mock('hls.js', () => ({ default: fake.Hls }));

const LADDER = '/media/hls/grant/1/master.m3u8';
/** The early start, made once hls.js's chunk has come: the start waits on the same import, asked for before this. */
async function started() {
  await loadHls();
  expect(fake.made).toHaveLength(1);
  return fake.made[0]!;
}

beforeEach(() => (fake.made.length = 0));
afterEach(() => {
  // Whatever a test left waiting is let go, so the next one starts afresh.
  takeEarlyHls(LADDER, 0);
  takeEarlyHls(LADDER, 90);
  vi.useRealTimers();
});

describe('hls.js started before the player mounts', () => {
  it('loads the ladder at once, its first segment included, from the lowest rendition at the opening second, and is taken once', async () => {
    startEarlyHls(LADDER, 90);
    const early = await started();
    expect(early.config).toMatchObject({ startFragPrefetch: true, startLevel: 0, startPosition: 90, capLevelToPlayerSize: true });
    expect(early.loadSource).toHaveBeenCalledWith(LADDER);
    expect(takeEarlyHls('/media/hls/grant/2/master.m3u8', 90)).toBeUndefined();
    expect(takeEarlyHls(LADDER, 90)).toBe(early);
    expect(takeEarlyHls(LADDER, 90)).toBeUndefined();
    expect(early.destroy).not.toHaveBeenCalled();
  });

  it('is destroyed, not taken, by a player opening the ladder at another second', async () => {
    startEarlyHls(LADDER, 90);
    const early = await started();
    expect(takeEarlyHls(LADDER, 0)).toBeUndefined();
    expect(early.destroy).toHaveBeenCalled();
    expect(takeEarlyHls(LADDER, 90)).toBeUndefined();
  });

  it('is destroyed when its loading fails, and when nobody takes it within 10 s', async () => {
    startEarlyHls(LADDER, 0);
    const failed = await started();
    failed.fail();
    expect(failed.destroy).toHaveBeenCalled();
    expect(takeEarlyHls(LADDER, 0)).toBeUndefined();

    fake.made.length = 0;
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    startEarlyHls(LADDER, 0);
    const untaken = await started();
    vi.advanceTimersByTime(9_999);
    expect(untaken.destroy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(untaken.destroy).toHaveBeenCalled();
    expect(takeEarlyHls(LADDER, 0)).toBeUndefined();
  });

  it('starts one at a time: a second start while one waits is ignored', async () => {
    startEarlyHls(LADDER, 0);
    await started();
    startEarlyHls('/media/hls/grant/2/master.m3u8', 0);
    await loadHls();
    expect(fake.made).toHaveLength(1);
  });
});
