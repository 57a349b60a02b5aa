import type { FastifyRequest } from 'fastify';
import { answers } from '@lms/contract/answers';
import { AppError } from '../../errors.ts';
import { loadUser } from '../auth/guards.ts';
import { ANY_VIEWER } from '../media/signed-urls.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { isPublishedVideo } from './lectures.service.ts';

/**
 * The second half of every private media check, after the link's signature and expiry: may this
 * request watch the video at `key` (an upload, or an HLS folder) through a link made for `viewerId`?
 * Who may watch is the lectures' rule, so the media routes are handed this check (routes.ts).
 *
 * - ANY_VIEWER (a free preview): anyone, logged in or not, while the lecture is still a preview.
 * - Otherwise the link is bound to the viewer: the request's session must be theirs, they must
 *   still be allowed to watch, and the course must still be published (administrators watch drafts
 *   too). A copied link is useless to anyone else, and stops when access ends or the course is
 *   made a draft again.
 *
 * Every refusal is a 403: it is the link that is no good for this request.
 */
export async function checkViewer(request: FastifyRequest, key: string, viewerId: string): Promise<void> {
  const { ctx } = request.server;
  if (viewerId === ANY_VIEWER) {
    if (ctx.previewVideos.isTrusted(key)) return;
    if (!(await isPublishedVideo(ctx, key, { preview: true }))) throw new AppError(403, answers.videoLinkInvalid);
    ctx.previewVideos.remember(key);
    return;
  }
  // A player asks for a range every few seconds: the session's user is cached (auth/session-cache.ts).
  const user = await loadUser(request);
  if (!user || user.id !== viewerId) throw new AppError(403, answers.videoLinkInvalid);
  if (!canWatchLectures(user)) throw new AppError(403, answers.notAllowed);
  if (user.role === 'ADMIN' || ctx.publishedVideos.isTrusted(key)) return;
  if (!(await isPublishedVideo(ctx, key))) throw new AppError(403, answers.videoLinkInvalid);
  ctx.publishedVideos.remember(key);
}
