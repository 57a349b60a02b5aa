/** What other features use of the session: the login state, and reloading the signed-in user. */
export { useAuth, type AuthState } from './auth.slice';
export { refreshUser } from './auth.api';
