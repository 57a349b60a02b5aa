import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '@lms/contract/http';
import type { UserRow } from './sessions.ts';

/**
 * A browser that has signed in to an account before carries a mark for it, and logs in with
 * the right password even while the account's failed logins are past their ceiling: a stranger
 * guessing from many addresses cannot lock the owner out of their own browser (decision 0021).
 *
 * A mark is `<user id>.<issued, unix seconds>.<HMAC>`, signed with the session secret over the
 * user, the time and the user's password hash: nothing is stored, a forged or copied-over mark
 * for another account is worthless, and a new password (a reset, a change) forgets every
 * browser at once, as it ends every session. One cookie keeps the marks of the last few
 * accounts signed in on that browser.
 */
export const KNOWN_DEVICE_COOKIE = 'lms_device';
const MARK_DAYS = 365;
const MARKS_KEPT = 5;
/** Only the login, sign-in and password routes read or renew it. */
const COOKIE_PATH = `${API_PREFIX}/user`;

type Account = Pick<UserRow, 'id' | 'passwordHash'>;

const signature = (secret: string, user: Account, issued: number) =>
  createHmac('sha256', secret).update(`known-device\n${user.id}\n${issued}\n${user.passwordHash}`).digest('base64url');

const marksOf = (cookie: string | undefined) =>
  cookie
    ? cookie
        .split('~')
        .filter((mark) => mark.length < 200)
        .slice(0, MARKS_KEPT)
    : [];

/** Whether the request's cookie holds a genuine, unexpired mark for `user`. */
export function isKnownDevice(request: FastifyRequest, secret: string, user: Account): boolean {
  const now = Math.floor(Date.now() / 1000);
  return marksOf(request.cookies[KNOWN_DEVICE_COOKIE]).some((mark) => {
    const [userId, issuedText, given] = mark.split('.');
    const issued = Number(issuedText);
    if (userId !== user.id || !given || !Number.isSafeInteger(issued) || issued > now || now - issued > MARK_DAYS * 86_400) return false;
    const expected = Buffer.from(signature(secret, user, issued));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  });
}

/** Marks the browser as known for `user` (after a sign-in or a new password), keeping its other accounts' marks. */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, secret: string, user: Account): void {
  const issued = Math.floor(Date.now() / 1000);
  const others = marksOf(request.cookies[KNOWN_DEVICE_COOKIE]).filter((mark) => !mark.startsWith(`${user.id}.`));
  const marks = [`${user.id}.${issued}.${signature(secret, user, issued)}`, ...others].slice(0, MARKS_KEPT);
  reply.setCookie(KNOWN_DEVICE_COOKIE, marks.join('~'), {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: MARK_DAYS * 86_400,
  });
}
