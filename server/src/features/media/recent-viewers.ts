/**
 * A video player fetches the next range of a lecture every few seconds, and every
 * request must come from the link's viewer, still logged in and still allowed to
 * watch: a database read per range, which cost more than sending the megabyte itself.
 * Once a session has passed that check it is trusted for RECENT_VIEWER_MS.
 *
 * Whatever ends a viewer's access forgets them here at once, after its change is
 * committed: logout, a password change or reset, a cancelled or ended subscription.
 * Other instances of a scaled-out deployment notice within RECENT_VIEWER_MS.
 */
export const RECENT_VIEWER_MS = 10_000;
/** Concurrent viewers are few; past this many sessions the list starts over rather than grow. */
const MAX_SESSIONS = 10_000;

export interface RecentViewers {
  /** The user whose session `token` passed the check within RECENT_VIEWER_MS, if any. */
  viewerOf(token: string): string | undefined;
  remember(token: string, userId: string): void;
  forgetSession(token: string): void;
  forgetUser(userId: string): void;
}

export function createRecentViewers({ trustMs = RECENT_VIEWER_MS, now = Date.now } = {}): RecentViewers {
  const sessions = new Map<string, { userId: string; until: number }>();
  return {
    viewerOf(token) {
      const entry = sessions.get(token);
      return entry && entry.until > now() ? entry.userId : undefined;
    },
    remember(token, userId) {
      if (sessions.size >= MAX_SESSIONS) sessions.clear();
      sessions.set(token, { userId, until: now() + trustMs });
    },
    forgetSession: (token) => void sessions.delete(token),
    forgetUser(userId) {
      for (const [token, entry] of sessions) if (entry.userId === userId) sessions.delete(token);
    },
  };
}
