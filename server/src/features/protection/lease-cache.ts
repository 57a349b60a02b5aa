/**
 * Which sessions hold a live playback lease, as this instance last found them. Every HLS segment
 * and every range of a video asks (features/lectures/viewer-access.ts), a few times a second per
 * viewer, so the answer is kept until the lease's own end. A lease stopped anywhere (another
 * device's "Stop playback there", a sign-out, a suspension) is announced by the database to every
 * instance (changes.ts), which drops the session here; a heartbeat on another instance that moves
 * the end on is found when this copy runs out. While changes cannot be heard, nothing is kept.
 */
export interface LeaseCache {
  /** Whether `sessionId` was found holding a lease that has not ended yet. */
  isLive(sessionId: string): boolean;
  /** To call before reading leases from the database: its answer keeps the result, unless a stop was heard since (the result may predate it). */
  beginRead(): (sessionId: string, endsAt: Date) => void;
  forgetSession(sessionId: string): void;
  forgetAll(): void;
  setTrusted(trusted: boolean): void;
}

/** Sessions playing at once on one instance are far fewer; past this many the cache starts over. */
const MAX_SESSIONS = 100_000;

export function createLeaseCache({ now = Date.now } = {}): LeaseCache {
  const leases = new Map<string, number>();
  let trusted = false;
  // Bumped by every stop heard: a read that began before one must not keep its result.
  let generation = 0;
  return {
    isLive(sessionId) {
      const until = leases.get(sessionId);
      if (until === undefined) return false;
      if (until > now()) return true;
      leases.delete(sessionId);
      return false;
    },
    beginRead() {
      const startedAt = generation;
      return (sessionId, endsAt) => {
        if (!trusted || generation !== startedAt) return;
        if (leases.size >= MAX_SESSIONS) leases.clear();
        leases.set(sessionId, Math.max(leases.get(sessionId) ?? 0, endsAt.getTime()));
      };
    },
    forgetSession(sessionId) {
      generation++;
      leases.delete(sessionId);
    },
    forgetAll() {
      generation++;
      leases.clear();
    },
    setTrusted(value) {
      trusted = value;
      if (!value) {
        generation++;
        leases.clear();
      }
    },
  };
}
