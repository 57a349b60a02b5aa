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
 * The API: every feature registers its endpoints of the contract's table (`api` in
 * @lms/contract/api) at their full paths under the API root; contract.test.ts checks that the
 * routes registered and the table agree, both ways.
 */
export async function apiRoutes(api: FastifyInstance) {
  await api.register(authRoutes);
  await api.register(userRoutes);
  await api.register(courseRoutes);
  await api.register(lectureRoutes);
  await api.register(videoRoutes);
  await api.register(contactRoutes);
  await api.register(statsRoutes);
  await api.register(paymentRoutes);
  await api.register(planRoutes);
  await api.register(progressRoutes);
  await api.register(billingRoutes);
}

/**
 * Beside the API and the web app, at the site's root (mounted after the web app's files):
 *   /robots.txt, /sitemap.xml (an index of /sitemap-N.xml past 50,000 URLs)   for search engines
 *   /course/description?id=   the app's page with that course's title, description and link-preview tags
 */
export async function siteRoutes(app: FastifyInstance, { webApp }: { webApp?: WebAppPage }) {
  await app.register(storefrontRoutes, { webApp });
}
