/**
 * Every URL this server answers, in the order the mounts below are made (a hook a mount adds
 * sees the routes mounted after it, and the first route to match a URL takes it):
 *
 *   /healthz, /readyz                 liveness and readiness probes (health.ts)
 *   /metrics                          Prometheus metrics, only with METRICS_TOKEN or METRICS_PORT set;
 *                                     on METRICS_PORT they get a listener of their own (metrics.ts)
 *   /api/docs                         the API's OpenAPI document and its UI
 *   /api/v1/…                         the API: apiRoutes below
 *   /sandbox/…                        the offline imitation of Razorpay: PAYMENTS_MODE=sandbox only
 *   /media/private/videos/…           lecture videos through signed links: local storage only
 *   /media/private/resources/…        lectures' files to download through signed links: local storage only
 *   /media/hls/…                      lectures' HLS ladders, the grant in the path, with their captions as subtitles
 *   /media/captions/…                 lectures' caption files (WebVTT), the grant in the path
 *   /media/{avatars,thumbnails,posters,logos}/…   public media files from DATA_DIR/media
 *   /assets/… and the build's other files   the web app's files, when web/dist has a build
 *   /robots.txt, /sitemap.xml, /sitemap-N.xml, /manifest.webmanifest, /course/description?id=   the storefront's pages
 *   anything else                     fallback: a page of the web app (404 where it has none) or a JSON 404
 */
import fs from 'node:fs';
import fastifyStatic from '@fastify/static';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '@lms/contract/http';
import type { Database } from './db/client.ts';
import { notFoundHandler } from './error-handler.ts';
import { captionFileRoutes } from './features/captions/caption-files.routes.ts';
import { captionRoutes } from './features/captions/captions.routes.ts';
import { findLadderCaptions } from './features/captions/captions.service.ts';
import { checkViewer } from './features/lectures/viewer-access.ts';
import { hlsRoutes } from './features/media/hls.routes.ts';
import { downloadRoutes } from './features/media/downloads.routes.ts';
import { privateMediaRoutes } from './features/media/media.routes.ts';
import { checkDownload } from './features/resources/download-access.ts';
import { resourceRoutes } from './features/resources/resources.routes.ts';
import { mediaRoot, PUBLIC_MEDIA_FOLDERS, PUBLIC_MEDIA_PREFIX } from './features/media/storage.ts';
import { sandboxRoutes } from './features/sandbox/sandbox.routes.ts';
import { defaultHead } from './features/storefront/storefront.service.ts';
import { healthRoutes } from './health.ts';
import { mountMetrics } from './metrics.ts';
import { serveWebApp } from './web-app.ts';
import { authRoutes } from './features/auth/auth.routes.ts';
import { captionSearchRoutes } from './features/captions/search.routes.ts';
import { contactRoutes } from './features/contact/contact.routes.ts';
import { settingsRoutes } from './features/settings/settings.routes.ts';
import { signedInSessionRoutes } from './features/auth/signed-in-sessions.routes.ts';
import { courseRoutes } from './features/courses/courses.routes.ts';
import { curriculumRoutes } from './features/lectures/curriculum.routes.ts';
import { lectureRoutes } from './features/lectures/lectures.routes.ts';
import { learnerRoutes } from './features/learners/learners.routes.ts';
import { progressRoutes } from './features/progress/progress.routes.ts';
import { attemptRoutes } from './features/quizzes/attempts.routes.ts';
import { playbackRoutes } from './features/protection/playback.routes.ts';
import { traceRoutes } from './features/protection/trace.routes.ts';
import { billingRoutes } from './features/billing/billing.routes.ts';
import { learnerRefundRoutes } from './features/learners/refunds.routes.ts';
import { certificateRoutes } from './features/certificates/certificates.routes.ts';
import { activityRoutes } from './features/audit/activity.routes.ts';
import { quizAuthoringRoutes } from './features/quizzes/authoring.routes.ts';
import { paymentRoutes } from './features/payments/payments.routes.ts';
import { planRoutes } from './features/plans/plans.routes.ts';
import { quizResultsRoutes } from './features/quizzes/results.routes.ts';
import { learnerAccessRoutes } from './features/learners/access.routes.ts';
import { statsRoutes } from './features/stats/stats.routes.ts';
import { storefrontRoutes } from './features/storefront/storefront.routes.ts';
import { userRoutes } from './features/users/users.routes.ts';
import { videoRoutes } from './features/video/video.routes.ts';

/**
 * Mounts everything above on `app`, whose plugins (security headers, logging, errors, context,
 * cookies, multipart, swagger) app.ts has registered.
 */
export async function mountRoutes(app: FastifyInstance, { database, webRoot }: { database: Pick<Database, 'poolStats'>; webRoot: string }) {
  const { config } = app.ctx;
  // The probes, and metrics when configured: their hooks see every route mounted after them.
  healthRoutes(app);
  mountMetrics(app, database);
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(apiRoutes, { prefix: API_PREFIX });
  // Never mounted when talking to Razorpay itself.
  if (config.payments.mode === 'sandbox') {
    app.log.warn('TEST MODE: payments go to the offline sandbox, test cards pay and nobody is charged. Set PAYMENTS_MODE=razorpay to take real payments.');
    await app.register(sandboxRoutes, { prefix: '/sandbox' });
  }

  fs.mkdirSync(mediaRoot(config.dataDir), { recursive: true });
  // Lecture videos (local storage): signed, expiring URLs bound to the viewer; registered before /media/*.
  // Who may watch is the lectures' rule, handed to the media routes.
  await app.register(privateMediaRoutes, { checkViewer });
  // Lectures' files (local storage): signed links bound to the viewer, answered as attachments.
  await app.register(downloadRoutes, { checkDownload });
  // Lectures' HLS ladders: the grant in the path, bound to the viewer as the MP4's is; the
  // lecture's captions are offered with it as subtitles.
  await app.register(hlsRoutes, { checkViewer, findCaptions: findLadderCaptions });
  // Lectures' caption files: the grant in the path, bound to the viewer, a free preview's to anyone.
  await app.register(captionFileRoutes);
  // Public media: every key is random and never reused, so a file at a URL never changes.
  await app.register(fastifyStatic, {
    root: mediaRoot(config.dataDir),
    prefix: PUBLIC_MEDIA_PREFIX,
    decorateReply: false,
    index: false,
    allowedPath: (pathName) => PUBLIC_MEDIA_FOLDERS.some((folder) => pathName.startsWith(`/${folder}/`)),
    immutable: true,
    maxAge: '365d',
  });

  const webApp = await serveWebApp(app, {
    webRoot,
    testMode: config.payments.mode === 'sandbox',
    imageMaxBytes: config.imageMaxBytes,
    defaultHead,
  });
  // After the web app's files.
  await app.register(storefrontRoutes, { webApp });

  app.setNotFoundHandler(notFoundHandler(webApp));
}

/**
 * The API: every feature registers its endpoints of the contract's table (`api` in
 * @lms/contract/api) at their full paths under the API root; contract.test.ts checks that the
 * routes registered and the table agree, both ways.
 */
export async function apiRoutes(api: FastifyInstance) {
  await api.register(authRoutes);
  await api.register(userRoutes);
  await api.register(signedInSessionRoutes);
  await api.register(courseRoutes);
  await api.register(lectureRoutes);
  await api.register(curriculumRoutes);
  await api.register(resourceRoutes);
  await api.register(captionRoutes);
  await api.register(videoRoutes);
  await api.register(contactRoutes);
  await api.register(settingsRoutes);
  await api.register(statsRoutes);
  await api.register(paymentRoutes);
  await api.register(planRoutes);
  await api.register(progressRoutes);
  await api.register(playbackRoutes);
  await api.register(billingRoutes);
  await api.register(learnerRefundRoutes);
  await api.register(traceRoutes);
  await api.register(captionSearchRoutes);
  await api.register(certificateRoutes);
  await api.register(activityRoutes);
  await api.register(quizAuthoringRoutes);
  await api.register(attemptRoutes);
  await api.register(quizResultsRoutes);
  await api.register(learnerAccessRoutes);
  await api.register(learnerRoutes);
}
