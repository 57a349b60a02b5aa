import type { FastifyRequest } from 'fastify';
import { answers } from '@lms/contract/answers';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { loadUser } from '../auth/guards.ts';
import { isHlsFolderKey } from '../media/storage.ts';
import { ANY_VIEWER } from '../media/signed-urls.ts';
import type { PublishedVideo } from '../media/video-trust.ts';
import { hasLiveLease } from '../protection/playback.service.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { findPublishedVideo } from './lectures.service.ts';

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
 * - A learner's session must hold a playback lease (features/protection), unless the lecture is a
 *   free preview: that is what limits the devices an account plays on at once, and what stops a
 *   signed-out device's stream. Administrators are not limited.
 * - Once a lecture's ladder is ready, its upload is for administrators: learners get the ladder.
 *
 * Every refusal is a 403: it is the link that is no good for this request.
 */
export async function checkViewer(request: FastifyRequest, key: string, viewerId: string): Promise<void> {
  const { ctx } = request.server;
  if (viewerId === ANY_VIEWER) {
    const video = await publishedVideoOf(ctx, key);
    if (!video?.preview) throw new AppError(403, answers.videoLinkInvalid);
    if (isOriginalOf(key, video)) throw new AppError(403, answers.videoLinkInvalid);
    return;
  }
  // A player asks for a range every few seconds: the session's user is cached (auth/session-cache.ts).
  const user = await loadUser(request);
  if (!user || user.id !== viewerId) throw new AppError(403, answers.videoLinkInvalid);
  if (!canWatchLectures(user)) throw new AppError(403, answers.notAllowed);
  if (user.role === 'ADMIN') return;
  const video = await publishedVideoOf(ctx, key);
  if (!video || isOriginalOf(key, video)) throw new AppError(403, answers.videoLinkInvalid);
  if (!video.preview && !(await hasLiveLease(ctx, request.session!.id))) throw new AppError(403, answers.playbackNotStarted);
}

/** The upload of a lecture whose ladder plays: not given to learners any more. */
const isOriginalOf = (key: string, video: PublishedVideo) => video.ladderReady && !isHlsFolderKey(key);

async function publishedVideoOf(ctx: Context, key: string): Promise<PublishedVideo | undefined> {
  const known = ctx.publishedVideos.factsOf(key);
  if (known) return known;
  const found = await findPublishedVideo(ctx, key);
  if (found) ctx.publishedVideos.remember(key, found);
  return found;
}
