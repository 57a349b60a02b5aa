import { createSlice, type Middleware, type PayloadAction } from '@reduxjs/toolkit';
import { useSelector } from 'react-redux';
import type { Role, User } from '@lms/contract/users';
import { viewerChanged } from '../../lib/viewer';

/** The login state (flag, role, user data), kept in local storage so that a reload keeps the session. */
export interface AuthState {
  isLoggedIn: boolean;
  role: Role | '';
  data: User | null;
}

const KEYS = { isLoggedIn: 'isLoggedIn', role: 'role', data: 'data' } as const;

function stored(): AuthState {
  try {
    const data = JSON.parse(localStorage.getItem(KEYS.data) ?? 'null') as User | null;
    const isLoggedIn = localStorage.getItem(KEYS.isLoggedIn) === 'true' && data !== null;
    return { isLoggedIn, role: isLoggedIn ? data.role : '', data: isLoggedIn ? data : null };
  } catch {
    return { isLoggedIn: false, role: '', data: null };
  }
}

function persist(user: User) {
  localStorage.setItem(KEYS.isLoggedIn, 'true');
  localStorage.setItem(KEYS.role, user.role);
  localStorage.setItem(KEYS.data, JSON.stringify(user));
}

const authSlice = createSlice({
  name: 'auth',
  initialState: stored,
  reducers: {
    /** Logged in, signed up, or the user reloaded by `me`. */
    userLoaded(state, action: PayloadAction<User>) {
      persist(action.payload);
      state.isLoggedIn = true;
      state.role = action.payload.role;
      state.data = action.payload;
    },
    /** The server refused a call until this user chooses a new password (see lib/api-client.ts). */
    passwordChangeRequired(state) {
      if (!state.data) return;
      state.data.mustChangePassword = true;
      persist(state.data);
    },
    /** Logout clears all stored data, not only the session's. */
    loggedOut(state) {
      localStorage.clear();
      state.isLoggedIn = false;
      state.role = '';
      state.data = null;
    },
  },
});

export const { userLoaded, passwordChangeRequired, loggedOut } = authSlice.actions;
export const authReducer = authSlice.reducer;

interface WithAuth {
  auth: AuthState;
}

/** The login state, for any feature: `useAuth((auth) => auth.isLoggedIn)`. */
export const useAuth = <T>(select: (auth: AuthState) => T): T => useSelector((state: WithAuth) => select(state.auth));

/** Who is looking: what the server's answers about access and video URLs depend on. */
const viewerOf = ({ auth }: WithAuth) => (auth.data ? `${auth.data._id} ${auth.data.role} ${auth.data.subscription.status}` : '');

/** Logging in or out, a new role or a subscription that starts or ends: says the viewer changed (lib/viewer.ts). */
export const viewerWatch: Middleware<object, WithAuth> = (store) => (next) => (action) => {
  const before = viewerOf(store.getState());
  const result = next(action);
  if (viewerOf(store.getState()) !== before) store.dispatch(viewerChanged());
  return result;
};
