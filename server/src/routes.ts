import type { FastifyInstance } from 'fastify';
import { authRoutes } from './features/auth/auth.routes.ts';
import { contactRoutes } from './features/contact/contact.routes.ts';
import { courseRoutes } from './features/courses/courses.routes.ts';
import { paymentRoutes } from './features/payments/payments.routes.ts';
import { statsRoutes } from './features/stats/stats.routes.ts';
import { userRoutes } from './features/users/users.routes.ts';

/**
 * The API, one line a feature. Each feature's routes file lists its paths:
 *   /api/v1/user      register, login, logout, me, update/:id, change-password, reset, reset/:token
 *   /api/v1/courses   list, create; /:id lectures, add lecture, edit, delete; ?courseId&lectureId delete lecture
 *   /api/v1/contact   send a message; the admin inbox
 *   /api/v1           (stats, no prefix of its own) admin/status/users; payments?count=N, the payment records
 *   /api/v1/payments  razorpay-key, subscribe, verify, unsubscribe, webhook
 */
export async function apiRoutes(api: FastifyInstance) {
  await api.register(authRoutes, { prefix: '/user' });
  await api.register(userRoutes, { prefix: '/user' });
  await api.register(courseRoutes, { prefix: '/courses' });
  await api.register(contactRoutes, { prefix: '/contact' });
  await api.register(statsRoutes);
  await api.register(paymentRoutes, { prefix: '/payments' });
}
