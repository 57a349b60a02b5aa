import { describe, expect, it } from 'vitest';
import { createRecentViewers, RECENT_VIEWER_MS } from './recent-viewers.ts';

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

describe('createRecentViewers', () => {
  it('remembers a session until trustMs has passed, and not a millisecond longer', () => {
    const time = clock();
    const viewers = createRecentViewers({ trustMs: 5000, now: time.now });
    viewers.remember('token-a', 'user-a');
    expect(viewers.viewerOf('token-a')).toBe('user-a');

    time.advance(4999);
    expect(viewers.viewerOf('token-a')).toBe('user-a');
    time.advance(1);
    expect(viewers.viewerOf('token-a')).toBeUndefined();
  });

  it('trusts for RECENT_VIEWER_MS by default', () => {
    const time = clock();
    const viewers = createRecentViewers({ now: time.now });
    viewers.remember('token-a', 'user-a');
    time.advance(RECENT_VIEWER_MS - 1);
    expect(viewers.viewerOf('token-a')).toBe('user-a');
    time.advance(1);
    expect(viewers.viewerOf('token-a')).toBeUndefined();
  });

  it('starts the trust window again when a session is checked again', () => {
    const time = clock();
    const viewers = createRecentViewers({ trustMs: 5000, now: time.now });
    viewers.remember('token-a', 'user-a');
    time.advance(4000);
    viewers.remember('token-a', 'user-a');
    time.advance(4000);
    expect(viewers.viewerOf('token-a')).toBe('user-a');
    time.advance(1000);
    expect(viewers.viewerOf('token-a')).toBeUndefined();
  });

  it('answers undefined for a token it never saw', () => {
    const viewers = createRecentViewers({ now: clock().now });
    viewers.remember('token-a', 'user-a');
    expect(viewers.viewerOf('token-b')).toBeUndefined();
    expect(viewers.viewerOf('')).toBeUndefined();
  });

  it('forgetSession forgets that session only', () => {
    const viewers = createRecentViewers({ now: clock().now });
    viewers.remember('phone', 'user-a');
    viewers.remember('laptop', 'user-a');
    viewers.forgetSession('phone');
    expect(viewers.viewerOf('phone')).toBeUndefined();
    expect(viewers.viewerOf('laptop')).toBe('user-a');
    // Forgetting an unknown session is harmless.
    viewers.forgetSession('never-seen');
    expect(viewers.viewerOf('laptop')).toBe('user-a');
  });

  it("forgetUser forgets every session of that user, and nobody else's", () => {
    const viewers = createRecentViewers({ now: clock().now });
    viewers.remember('a-phone', 'user-a');
    viewers.remember('a-laptop', 'user-a');
    viewers.remember('b-phone', 'user-b');
    viewers.forgetUser('user-a');
    expect(viewers.viewerOf('a-phone')).toBeUndefined();
    expect(viewers.viewerOf('a-laptop')).toBeUndefined();
    expect(viewers.viewerOf('b-phone')).toBe('user-b');
    viewers.forgetUser('user-nobody');
    expect(viewers.viewerOf('b-phone')).toBe('user-b');
  });

  it('starts over rather than grow past 10,000 sessions', () => {
    const viewers = createRecentViewers({ now: clock().now });
    for (let i = 0; i < 10_000; i++) viewers.remember(`token-${i}`, `user-${i}`);
    expect(viewers.viewerOf('token-0')).toBe('user-0');
    expect(viewers.viewerOf('token-9999')).toBe('user-9999');

    viewers.remember('token-10000', 'user-10000');
    expect(viewers.viewerOf('token-0')).toBeUndefined();
    expect(viewers.viewerOf('token-9999')).toBeUndefined();
    expect(viewers.viewerOf('token-10000')).toBe('user-10000');
  });
});
