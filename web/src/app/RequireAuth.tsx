import type { Role } from '@lms/contract/users';
import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '../lib/paths';
import { useAppSelector } from './store';

/**
 * The route guard: not logged in → /login; logged in with a role not in
 * `allowedRoles` → /denied. A courtesy only: the server enforces every permission itself.
 */
export function RequireAuth({ allowedRoles }: { allowedRoles: Role[] }) {
  const { isLoggedIn, role } = useAppSelector((state) => state.auth);
  const location = useLocation();
  if (!isLoggedIn) return <Navigate to={paths.login} replace state={{ from: location.pathname }} />;
  if (!role || !allowedRoles.includes(role)) return <Navigate to={paths.denied} replace />;
  return <Outlet />;
}
