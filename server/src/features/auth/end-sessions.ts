import { and, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { playbacks, sessions } from '../../db/schema.ts';

export type EndedSession = Pick<typeof sessions.$inferSelect, 'id' | 'userAgent' | 'addressBlock' | 'lastSeenAt'>;

/**
 * Ends the sessions `where` selects, and stops their playbacks (the leases they hold end with
 * them), in one transaction; answers the sessions ended. Every instance's cache hears of each
 * from the database (changes.ts). Inside a transaction it runs as a part of it.
 */
export async function endSessions(db: Db, where: SQL): Promise<EndedSession[]> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .delete(sessions)
      .where(where)
      .returning({ id: sessions.id, userAgent: sessions.userAgent, addressBlock: sessions.addressBlock, lastSeenAt: sessions.lastSeenAt });
    if (ended.length > 0) {
      await tx
        .update(playbacks)
        .set({ stoppedAt: new Date() })
        .where(
          and(
            inArray(
              playbacks.sessionId,
              ended.map((session) => session.id),
            ),
            isNull(playbacks.stoppedAt),
          ),
        );
    }
    return ended;
  });
}
