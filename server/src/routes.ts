import type { FastifyInstance } from 'fastify';
import { authRoutes } from './features/auth/auth.routes.ts';
import { courseRoutes } from './features/courses/courses.routes.ts';
import { userRoutes } from './features/users/users.routes.ts';

/**
 * The API, one line a feature. Each feature's routes file lists its paths:
 *   /api/v1/user      register, login, logout, me, update/:id, change-password, reset, reset/:token
 *   /api/v1/courses   list, create; /:id lectures, add lecture, edit, delete; ?courseId&lectureId delete lecture
 */
export async function apiRoutes(api: FastifyInstance) {
  await api.register(authRoutes, { prefix: '/user' });
  await api.register(userRoutes, { prefix: '/user' });
  await api.register(courseRoutes, { prefix: '/courses' });
}
