import { randomBytes } from 'node:crypto';
import type { Database } from './db/client.ts';

/**
 * What each instance keeps copies of, and must drop when anyone changes it (decision 0019): another
 * instance, a job, the admin command. Triggers in the database (migration 0012) announce every
 * change on one channel once it commits; every instance listens and drops its copies.
 */
export const CHANGES_CHANNEL = 'lms_changes';

export type Change =
  /** A course or lecture was added, edited or removed. */
  | { kind: 'catalogue' }
  /** A user's row changed (profile, role, password, subscription) or was deleted. */
  | { kind: 'user'; userId: string }
  /** The site's settings changed (name, logo, colours, texts, legal pages). */
  | { kind: 'settings' }
  /** A session ended (logout, a password change, housekeeping). */
  | { kind: 'session'; tokenHash: string }
  /** A playback's lease was stopped (from another device, by signing out): the session's leases are to be read again. */
  | { kind: 'playback'; sessionId: string }
  /** Messages may have been missed: anything may have changed. */
  | { kind: 'anything' };

export interface ChangeHandlers {
  apply(change: Change): void;
  /** Whether changes are heard: while they are not, no copy is to be trusted. */
  onListening(listening: boolean): void;
}

export interface Changes {
  /**
   * Resolves once this instance has heard every change committed before the call: a write's
   * answer waits for it, so the writer's next request never sees what the write replaced.
   */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

/** How long caughtUp waits for its own message; past it, every copy is dropped instead. */
const CATCH_UP_TIMEOUT_MS = 2000;

export async function followChanges(database: Database, handlers: ChangeHandlers): Promise<Changes> {
  // Each instance's own marks, which the others ignore.
  const marker = `sync:${randomBytes(6).toString('hex')}:`;
  let sent = 0;
  const waiting = new Map<string, () => void>();
  const listener = await database.listen(CHANGES_CHANNEL, {
    onMessage(payload) {
      if (payload.startsWith('sync:')) return void waiting.get(payload)?.();
      const change = parseChange(payload);
      if (change) handlers.apply(change);
    },
    onListening(listening) {
      // Heard again after a gap: whatever was kept from before it may be stale.
      if (listening) handlers.apply({ kind: 'anything' });
      handlers.onListening(listening);
    },
  });
  return {
    // PGlite delivers a change's messages before its commit returns: nothing to wait for.
    caughtUp:
      database.kind === 'pglite'
        ? async () => {}
        : async () => {
            // PostgreSQL delivers messages in commit order: once this mark arrives, so has every change before it.
            const mark = marker + ++sent;
            let timer: NodeJS.Timeout | undefined;
            const heard = new Promise<boolean>((resolve) => {
              waiting.set(mark, () => resolve(true));
              timer = setTimeout(() => resolve(false), CATCH_UP_TIMEOUT_MS);
            });
            try {
              await database.execute('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, mark]);
              if (!(await heard)) handlers.apply({ kind: 'anything' });
            } finally {
              clearTimeout(timer);
              waiting.delete(mark);
            }
          },
    stop: () => listener.stop(),
  };
}

/** A payload as the triggers write it; anything else is ignored. */
function parseChange(payload: string): Change | undefined {
  if (payload === 'catalogue') return { kind: 'catalogue' };
  if (payload === 'settings') return { kind: 'settings' };
  const colon = payload.indexOf(':');
  const [kind, value] = [payload.slice(0, colon), payload.slice(colon + 1)];
  if (kind === 'user') return { kind: 'user', userId: value };
  if (kind === 'session') return { kind: 'session', tokenHash: value };
  if (kind === 'playback') return { kind: 'playback', sessionId: value };
  return undefined;
}
