import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Role, User } from '@lms/contract/users';

/** Spec §3: the login state (flag, role, user data), kept in local storage. */
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
    /** Ours: the server refused a call until this user chooses a new password (see app/api.ts). */
    passwordChangeRequired(state) {
      if (!state.data) return;
      state.data.mustChangePassword = true;
      persist(state.data);
    },
    /** Spec §4: logout clears all stored data. */
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
