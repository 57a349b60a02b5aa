import { describe, expect, it } from 'vitest';
import { createSessionCache, SESSION_TRUST_MS } from './session-cache.ts';
import type { UserRow } from './sessions.ts';

const user = (id: string) => ({ id: `session of ${id}`, user: { id, fullName: `User ${id}`, role: 'USER' } as UserRow });
const farFuture = new Date(Date.now() + 365 * 24 * 3600 * 1000);

function cacheAt(start = 1_000_000) {
  const clock = { now: start };
  const cache = createSessionCache({ now: () => clock.now });
  cache.setTrusted(true);
  return { cache, clock };
}

describe('the session cache', () => {
  it('keeps a session for SESSION_TRUST_MS, and never past the session’s own expiry', () => {
    const { cache, clock } = cacheAt();
    cache.beginRead()('long', user('u1'), farFuture);
    cache.beginRead()('short', user('u2'), new Date(clock.now + 1000));
    clock.now += 999;
    expect(cache.sessionOf('short')?.user.id).toBe('u2');
    clock.now += 1;
    expect(cache.sessionOf('short')).toBeUndefined();
    clock.now += SESSION_TRUST_MS - 1001;
    expect(cache.sessionOf('long')?.user.id).toBe('u1');
    clock.now += 1;
    expect(cache.sessionOf('long')).toBeUndefined();
    expect(cache.stats).toEqual({ hits: 2, misses: 2 });
  });

  it('does not keep a read that began before a change was heard: it may predate the change', () => {
    const { cache } = cacheAt();
    const keep = cache.beginRead();
    cache.forgetUser('someone else entirely');
    keep('token', user('u1'), farFuture);
    expect(cache.sessionOf('token')).toBeUndefined();
    cache.beginRead()('token', user('u1'), farFuture);
    expect(cache.sessionOf('token')?.user.id).toBe('u1');
  });

  it('forgets every session of a user, or one session, and nothing else', () => {
    const { cache } = cacheAt();
    for (const [token, id] of [
      ['a1', 'a'],
      ['a2', 'a'],
      ['b1', 'b'],
    ] as const)
      cache.beginRead()(token, user(id), farFuture);
    cache.forgetUser('a');
    expect([cache.sessionOf('a1'), cache.sessionOf('a2'), cache.sessionOf('b1')?.user.id]).toEqual([undefined, undefined, 'b']);
    cache.forgetSession('b1');
    expect(cache.sessionOf('b1')).toBeUndefined();
  });

  it('keeps nothing while changes cannot be heard, and drops what it had when they stop', () => {
    const { cache } = cacheAt();
    cache.beginRead()('kept', user('u1'), farFuture);
    cache.setTrusted(false);
    expect(cache.sessionOf('kept')).toBeUndefined();
    cache.beginRead()('kept', user('u1'), farFuture);
    expect(cache.sessionOf('kept')).toBeUndefined();
    cache.setTrusted(true);
    cache.beginRead()('kept', user('u1'), farFuture);
    expect(cache.sessionOf('kept')?.user.id).toBe('u1');
  });

  it('hands out rows nobody can change for the requests after', () => {
    const { cache } = cacheAt();
    cache.beginRead()('token', user('u1'), farFuture);
    expect(() => Object.assign(cache.sessionOf('token')!.user, { role: 'ADMIN' })).toThrow(TypeError);
  });
});
