import type { FastifyInstance } from 'fastify';
import { authRoutes } from './features/auth/auth.routes.ts';
import { contactRoutes } from './features/contact/contact.routes.ts';
import { courseRoutes } from './features/courses/courses.routes.ts';
import { lectureRoutes } from './features/lectures/lectures.routes.ts';
import { progressRoutes } from './features/progress/progress.routes.ts';
import { billingRoutes } from './features/billing/billing.routes.ts';
import { paymentRoutes } from './features/payments/payments.routes.ts';
import { planRoutes } from './features/plans/plans.routes.ts';
import { statsRoutes } from './features/stats/stats.routes.ts';
import { storefrontRoutes } from './features/storefront/storefront.routes.ts';
import { userRoutes } from './features/users/users.routes.ts';
import { videoRoutes } from './features/video/video.routes.ts';
import type { WebAppPage } from './web-app.ts';

/**
 * The API, one line a feature. Each feature's routes file lists its paths:
 *   /api/v1/user      register, login, logout, me, update/:id, change-password, reset, reset/:token, sign-in/:token
 *   /api/v1/courses   list, create; /:id edit, delete                                          (courses)
 *                     /:id lectures, add lecture; /:id/curriculum (public);
 *                     PATCH /:courseId/lectures/:lectureId (preview on/off); ?courseId&lectureId delete lecture;
 *                     POST /:courseId/lectures/:lectureId/processing (retry a failed video)      (lectures)
 *   /api/v1/video     status: whether this server processes videos, and with which ffmpeg
 *   /api/v1/contact   send a message; the admin inbox
 *   /api/v1           (stats, no prefix of its own) admin/status/users; admin/engagement; payments?count=N, the payment records
 *   /api/v1/payments  plan, plans (public), razorpay-key, subscribe, verify, unsubscribe, save-offer, webhook
 *   /api/v1           (plans, no prefix of its own) admin/plans, admin/plans/:id; admin/coupons, admin/coupons/:id
 *   /api/v1/progress  mine; courses/:id; lectures/:lectureId (save), lectures/:lectureId/completed; settings
 *   /api/v1/billing   details (GET, PUT); history; documents/:id/pdf (an invoice or credit note)
 */
export async function apiRoutes(api: FastifyInstance) {
  await api.register(authRoutes, { prefix: '/user' });
  await api.register(userRoutes, { prefix: '/user' });
  await api.register(courseRoutes, { prefix: '/courses' });
  await api.register(lectureRoutes, { prefix: '/courses' });
  await api.register(videoRoutes, { prefix: '/video' });
  await api.register(contactRoutes, { prefix: '/contact' });
  await api.register(statsRoutes);
  await api.register(paymentRoutes, { prefix: '/payments' });
  await api.register(planRoutes);
  await api.register(progressRoutes, { prefix: '/progress' });
  await api.register(billingRoutes, { prefix: '/billing' });
}

/**
 * Beside the API and the web app, at the site's root (mounted after the web app's files):
 *   /robots.txt, /sitemap.xml (an index of /sitemap-N.xml past 50,000 URLs)   for search engines
 *   /course/description?id=   the app's page with that course's title, description and link-preview tags
 */
export async function siteRoutes(app: FastifyInstance, { webApp }: { webApp?: WebAppPage }) {
  await app.register(storefrontRoutes, { webApp });
}
