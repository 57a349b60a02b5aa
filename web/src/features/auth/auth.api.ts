import { messages } from '@lms/contract/messages';
import type { User } from '@lms/contract/users';
import { api } from '../../app/api';
import type { AppDispatch, RootState } from '../../app/store';
import { loggedOut, userLoaded } from './auth.slice';

type UserAnswer = { user: User };

export const login = (input: { email: string; password: string }) => async (dispatch: AppDispatch) => {
  const { user } = await api.post<UserAnswer>('/user/login', input, { fallback: messages.failedLogIn, toastSuccess: true });
  dispatch(userLoaded(user));
  return user;
};

export const register = (form: FormData) => async (dispatch: AppDispatch) => {
  const { user } = await api.post<UserAnswer>('/user/register', form, { fallback: messages.failedCreateAccount, toastSuccess: true });
  dispatch(userLoaded(user));
  return user;
};

export const logout = () => async (dispatch: AppDispatch) => {
  await api.get('/user/logout', { fallback: messages.failedLogOut, toastSuccess: true });
  dispatch(loggedOut());
};

/** Spec §4: the stored user is refreshed by the 'me' call. A 401 logs the client out (see store). */
export const refreshUser = () => async (dispatch: AppDispatch) => {
  const { user } = await api.get<UserAnswer>('/user/me', { fallback: messages.failedLoadData, quiet: true });
  dispatch(userLoaded(user));
  return user;
};

export const updateProfile = (userId: string, form: FormData) => async (dispatch: AppDispatch) => {
  const { user } = await api.put<UserAnswer>(`/user/update/${userId}`, form, { fallback: messages.failedUpdateProfile, toastSuccess: true });
  dispatch(userLoaded(user));
  return user;
};

export const changePassword = (input: { oldPassword: string; newPassword: string }) =>
  api.post('/user/change-password', input, { fallback: messages.operationFailed, toastSuccess: true });

export const requestPasswordReset = (input: { email: string }) =>
  api.post('/user/reset', input, { fallback: messages.operationFailed });

export const resetPassword = (token: string, input: { password: string }) =>
  api.post(`/user/reset/${encodeURIComponent(token)}`, input, { fallback: messages.operationFailed, toastSuccess: true });

/**
 * Spec §4: cancelling the subscription, then reloading the user, makes it inactive.
 * The server's answer says whether the last payment was refunded.
 */
export const unsubscribe = () => async (dispatch: AppDispatch, getState: () => RootState) => {
  const answer = await api.post<{ refunded: boolean }>('/payments/unsubscribe', undefined, { fallback: messages.failedUnsubscribe, toastSuccess: true });
  try {
    await dispatch(refreshUser());
  } catch {
    // The cancellation stands even when the reload fails: show it rather than a stale 'Active'.
    const user = getState().auth.data;
    if (user) dispatch(userLoaded({ ...user, subscription: { status: 'inactive' } }));
  }
  return answer;
};
