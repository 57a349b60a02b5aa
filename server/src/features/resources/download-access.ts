import type { FastifyRequest } from 'fastify';
import { answers } from '@lms/contract/answers';
import { AppError } from '../../errors.ts';
import { loadUser } from '../auth/guards.ts';
import { findResourceDownload } from './resources.service.ts';

/**
 * The second half of a download link's check, after its signature and expiry (media's download
 * route is handed it by routes.ts): the link is bound to its viewer, so the request's session must
 * be theirs, and they must still be allowed the file. Answers what the file is saved as.
 */
export async function checkDownload(request: FastifyRequest, key: string, viewerId: string): Promise<{ fileName: string; contentType: string }> {
  const user = await loadUser(request);
  if (!user || user.id !== viewerId) throw new AppError(403, answers.resourceLinkInvalid);
  return findResourceDownload(request.server.ctx, key, user);
}
