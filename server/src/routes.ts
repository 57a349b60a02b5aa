import type { FastifyInstance } from 'fastify';
import { authRoutes } from './features/auth/auth.routes.ts';
import { userRoutes } from './features/users/users.routes.ts';

/**
 * The API, one line a feature. Each feature's routes file lists its paths:
 *   /api/v1/user      register, login, logout, me, update/:id, change-password, reset, reset/:token
 */
export async function apiRoutes(api: FastifyInstance) {
  await api.register(authRoutes, { prefix: '/user' });
  await api.register(userRoutes, { prefix: '/user' });
}
