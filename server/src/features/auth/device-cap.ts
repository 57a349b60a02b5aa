import { and, desc, eq, gt, inArray, ne } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sessions, type users } from '../../db/schema.ts';
import { queueMail } from '../../mail.ts';
import { describeDevice, LOCAL_NETWORK } from '../protection/devices.ts';
import { siteOf } from '../settings/site-settings.ts';
import { endSessions, type EndedSession } from './end-sessions.ts';

type UserRow = typeof users.$inferSelect;

/**
 * The optional cap on signed-in devices (`maxDevices`, 0: none): once a new session takes the
 * account past it, the sessions used longest ago end, with their playbacks, in the transaction
 * that wrote the new one. Administrators are not limited, as they are not in streams at once:
 * the seller's own sign-in on a phone never signs out the desk they run the site from.
 */
export async function endSessionsPastCap(
  tx: Db,
  { user, sessionId, maxDevices }: { user: UserRow; sessionId: string; maxDevices: number },
): Promise<EndedSession[]> {
  if (maxDevices === 0 || user.role === 'ADMIN') return [];
  const others = await tx
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), ne(sessions.id, sessionId), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
  const past = others.slice(maxDevices - 1).map((session) => session.id);
  if (past.length === 0) return [];
  return endSessions(tx, inArray(sessions.id, past));
}

const deviceLine = (session: { userAgent: string | null; addressBlock: string | null }) => {
  const { browser, os } = describeDevice(session.userAgent);
  return `${browser} on ${os}, ${session.addressBlock ?? LOCAL_NETWORK}`;
};

const minuteOf = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Tells the learner, through the job queue, which devices the cap signed out and which sign-in did it. */
export async function queueDevicesSignedOutMail(
  ctx: Context,
  input: { user: UserRow; signedOut: EndedSession[]; newDevice: { userAgent: string | null; addressBlock: string }; maxDevices: number },
): Promise<void> {
  const { user, signedOut, newDevice, maxDevices } = input;
  const { name: siteName } = await siteOf(ctx);
  const many = signedOut.length > 1;
  await queueMail(ctx, {
    to: user.email,
    subject: `Your ${siteName} account was signed out on ${many ? `${signedOut.length} devices` : 'a device'}`,
    text:
      `Hello ${user.fullName},\n\nYour ${siteName} account was just signed in on ${deviceLine(newDevice)}.\n` +
      `An account may stay signed in on at most ${maxDevices} ${maxDevices === 1 ? 'device' : 'devices'}, so it was signed out on ` +
      `the one${many ? 's' : ''} used longest ago:\n\n` +
      signedOut.map((session) => `  - ${deviceLine(session)}, last active ${minuteOf(session.lastSeenAt)}\n`).join('') +
      `\nTo use ${many ? 'them' : 'it'} again, sign in there (which signs out another).\n` +
      `If the new sign-in was not you, someone knows your password: sign in and change it, which signs out every device.\n\n— ${siteName}\n`,
  });
}
