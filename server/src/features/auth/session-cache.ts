import type { CacheStats } from '../courses/catalogue-cache.ts';
import type { users } from '../../db/schema.ts';

/** A user as sessions.ts reads it; spelled here, not imported, as the Context names this cache and sessions.ts names the Context. */
type UserRow = typeof users.$inferSelect;

/** A signed-in session as a request sees it: its user, and its id (sessions.id, which the list of devices and the leases name). */
export interface SignedInSession {
  id: string;
  user: UserRow;
}

/**
 * Every signed-in request starts by finding its session's user: a database round trip that
 * cost more than the rest of `GET /user/me` (bench/README.md). Sessions in use are kept here,
 * with their user, for SESSION_TRUST_MS at most.
 *
 * Whatever ends or changes one reaches every instance within milliseconds through the database's
 * change messages (changes.ts): logout, a password change, a role change, the end of a
 * subscription. While those messages cannot be heard, nothing is kept. The time limit is only
 * a backstop.
 */
export const SESSION_TRUST_MS = 30_000;
/** Past this many sessions the cache starts over rather than grow. */
const MAX_SESSIONS = 50_000;

export interface SessionCache {
  /** The session whose token hashes to `tokenHash`, with its user, if it is kept. */
  sessionOf(tokenHash: string): SignedInSession | undefined;
  /**
   * To call before reading a session from the database; its answer keeps the result, unless a
   * change was heard since (the result may predate it).
   */
  beginRead(): (tokenHash: string, session: SignedInSession, sessionExpiresAt: Date) => void;
  forgetSession(tokenHash: string): void;
  forgetUser(userId: string): void;
  forgetAll(): void;
  /** Whether changes are heard (changes.ts); while they are not, nothing is kept. */
  setTrusted(trusted: boolean): void;
  readonly stats: CacheStats;
}

export function createSessionCache({ trustMs = SESSION_TRUST_MS, now = Date.now } = {}): SessionCache {
  const sessions = new Map<string, { session: SignedInSession; until: number }>();
  const sessionsOfUser = new Map<string, Set<string>>();
  const stats: CacheStats = { hits: 0, misses: 0 };
  // Bumped by every change heard: a read that began before one must not keep its result.
  let generation = 0;
  let trusted = false;

  const forgetSession = (tokenHash: string) => {
    const entry = sessions.get(tokenHash);
    if (!entry) return;
    sessions.delete(tokenHash);
    const userId = entry.session.user.id;
    const ofUser = sessionsOfUser.get(userId);
    ofUser?.delete(tokenHash);
    if (ofUser?.size === 0) sessionsOfUser.delete(userId);
  };
  const forgetAll = () => {
    generation++;
    sessions.clear();
    sessionsOfUser.clear();
  };

  return {
    stats,
    sessionOf(tokenHash) {
      const entry = sessions.get(tokenHash);
      if (entry && entry.until > now()) {
        stats.hits++;
        return entry.session;
      }
      if (entry) forgetSession(tokenHash);
      stats.misses++;
      return undefined;
    },
    beginRead() {
      const startedAt = generation;
      return (tokenHash, session, sessionExpiresAt) => {
        if (!trusted || generation !== startedAt) return;
        if (sessions.size >= MAX_SESSIONS) forgetAll();
        // Frozen: a handler that changed the row it was given would change every later request's.
        const kept = Object.freeze({ id: session.id, user: Object.freeze(session.user) });
        sessions.set(tokenHash, { session: kept, until: Math.min(now() + trustMs, sessionExpiresAt.getTime()) });
        const userId = session.user.id;
        let ofUser = sessionsOfUser.get(userId);
        if (!ofUser) sessionsOfUser.set(userId, (ofUser = new Set()));
        ofUser.add(tokenHash);
      };
    },
    forgetSession(tokenHash) {
      generation++;
      forgetSession(tokenHash);
    },
    forgetUser(userId) {
      generation++;
      for (const tokenHash of sessionsOfUser.get(userId) ?? []) sessions.delete(tokenHash);
      sessionsOfUser.delete(userId);
    },
    forgetAll,
    setTrusted(value) {
      trusted = value;
      if (!value) forgetAll();
    },
  };
}
