import type { Playback } from '@lms/contract/protection';

/** The one lease the stubbed server hands out (every start gets it). */
export const samplePlayback = (overrides: Partial<Playback> = {}): Playback => ({
  id: '30000000-0000-4000-8000-000000000001',
  watermark: { text: 'as•••@example.com', code: 'K7M2Q9XD', opacity: 30, size: 'medium' },
  heartbeatSeconds: 30,
  endsAt: new Date(Date.now() + 75_000).toISOString(),
  ...overrides,
});

/**
 * Answers for stubApi: a lecture page that plays a lecture that is not a free preview starts a lease
 * first, renews it and stops it. Spread them beside a test's own answers.
 */
export function leaseAnswers(playback: Playback = samplePlayback()) {
  return {
    'POST /api/v1/playback': { status: 201, body: { success: true, message: 'Playback started', playback } },
    [`POST /api/v1/playback/${playback.id}/heartbeat`]: { body: { success: true, message: 'Playback renewed', endsAt: playback.endsAt } },
    [`DELETE /api/v1/playback/${playback.id}`]: { body: { success: true, message: 'Playback stopped' } },
  };
}

/**
 * Holds the answer to the lease's start (`POST /api/v1/playback`) until the test lets it go: call it
 * after stubApi, whose answer then comes. `asked()` tells whether the start has been sent.
 */
export function holdLeaseStart() {
  let answer: (() => void) | undefined;
  const stubbed = globalThis.fetch;
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    if (url === '/api/v1/playback' && init.method === 'POST') await new Promise<void>((resolve) => (answer = resolve));
    return stubbed(url, init);
  }) as typeof fetch;
  return { asked: () => answer !== undefined, answer: () => answer!() };
}
