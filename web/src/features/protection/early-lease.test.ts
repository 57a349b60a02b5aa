import { afterEach, expect, it, vi } from 'vitest';
import { createStore } from '../../app/store';
import { leaseAnswers, samplePlayback } from '../../test/playback';
import { stubApi } from '../../test/render';
import { startEarlyLease, takeEarlyLease } from './early-lease';

const playback = samplePlayback();
const lectureId = '20000000-0000-4000-8000-000000000001';

afterEach(() => vi.useRealTimers());

it('gives back a lease started before the page rendered when no player takes it', async () => {
  vi.useFakeTimers();
  const calls = stubApi({ ...leaseAnswers(playback) });
  startEarlyLease(createStore().dispatch, lectureId);
  await vi.advanceTimersByTimeAsync(9_000);
  expect(calls.map((call) => call.init.method)).toEqual(['POST']);

  await vi.advanceTimersByTimeAsync(1_000);
  expect(calls.map((call) => `${call.init.method} ${call.url}`)).toEqual(['POST /api/v1/playback', `DELETE /api/v1/playback/${playback.id}`]);
  expect(takeEarlyLease(lectureId)).toBeUndefined();
});

it('hands the lease to the player of its lecture once, and keeps it when taken', async () => {
  vi.useFakeTimers();
  const calls = stubApi({ ...leaseAnswers(playback) });
  startEarlyLease(createStore().dispatch, lectureId);
  expect(takeEarlyLease('20000000-0000-4000-8000-000000000002')).toBeUndefined();
  const taken = takeEarlyLease(lectureId);
  expect(await taken?.answer).toMatchObject({ playback: { id: playback.id } });
  expect(taken?.playback?.id).toBe(playback.id);
  expect(takeEarlyLease(lectureId)).toBeUndefined();

  await vi.advanceTimersByTimeAsync(20_000);
  window.dispatchEvent(new Event('pagehide'));
  expect(calls.map((call) => call.init.method)).toEqual(['POST']);
});
