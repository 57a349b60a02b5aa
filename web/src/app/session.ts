import { endpoints } from '@lms/contract/endpoints';
import { messages } from '@lms/contract/messages';
import type { User } from '@lms/contract/users';
import { userLoaded } from '../features/auth/auth.slice';
import { call } from './api';
import type { AppDispatch, RootState } from './store';

/**
 * Spec §4: the stored user is refreshed by the 'me' call (on load, and after a payment or a
 * cancellation). A 401 logs the client out (see store). When the call fails and `assume` is
 * given, the stored user is updated with what the caller already knows happened, rather than
 * left stale; otherwise the failure is thrown.
 */
export const refreshUser =
  (assume?: (user: User) => User) =>
  async (dispatch: AppDispatch, getState: () => RootState): Promise<User | undefined> => {
    try {
      const { user } = await call(endpoints.users.me, {}, { fallback: messages.failedLoadData, quiet: true });
      dispatch(userLoaded(user));
      return user;
    } catch (error) {
      const user = getState().auth.data;
      if (!assume) throw error;
      if (user) dispatch(userLoaded(assume(user)));
      return getState().auth.data ?? undefined;
    }
  };
