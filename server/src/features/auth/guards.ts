import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { Role } from '@lms/contract/users';
import { AppError } from '../../errors.ts';
import type { SignedInSession } from './session-cache.ts';
import { noteSight } from './last-sight.ts';
import { findSession, SESSION_COOKIE, type UserRow } from './sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, once `loadUser` or a guard has run; null when logged out. */
    user: UserRow | null;
    /** The session the request's cookie names, once `loadUser` has run; null when logged out. */
    session: SignedInSession | null;
  }
}

/** Reads the session cookie once per request. */
export async function loadUser(request: FastifyRequest): Promise<UserRow | null> {
  if (request.user) return request.user;
  const token = request.cookies[SESSION_COOKIE];
  request.session = token ? ((await findSession(request.server.ctx, token)) ?? null) : null;
  request.user = request.session?.user ?? null;
  if (request.session) noteSight(request.server.ctx, request.session.id, request.ip, request.log);
  return request.user;
}

/**
 * Pre-handler: 401 unless logged in. Only for what a user who must first choose a new
 * password may still do (who am I, change password); everything else uses requireUser.
 */
export async function requireLogin(request: FastifyRequest, _reply: FastifyReply) {
  if (!(await loadUser(request))) throw new AppError(401, answers.notLoggedIn);
}

/** Pre-handler: 401 unless logged in; 403 until a user whose password was handed to them has chosen their own. */
export async function requireUser(request: FastifyRequest, reply: FastifyReply) {
  await requireLogin(request, reply);
  if (request.user!.mustChangePassword) throw new AppError(403, messages.choosePasswordFirst);
}

/** Pre-handler: 401 unless logged in, 403 unless the user has one of `roles`. */
export const requireRole =
  (...roles: Role[]) =>
  async (request: FastifyRequest, reply: FastifyReply) => {
    await requireUser(request, reply);
    if (!roles.includes(request.user!.role)) throw new AppError(403, answers.notAllowed);
  };

/** Whether the request comes from an administrator (who may see drafts), on a route open to anyone. */
export async function isAdminRequest(request: FastifyRequest): Promise<boolean> {
  const user = await loadUser(request);
  return user !== null && user.role === 'ADMIN' && !user.mustChangePassword;
}

/** The session a guarded handler runs for: its id, and its user. */
export function currentSession(request: FastifyRequest): SignedInSession {
  if (!request.session) throw new AppError(401, answers.notLoggedIn);
  return request.session;
}

/** The user a guarded handler runs for. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new AppError(401, answers.notLoggedIn);
  return request.user;
}
