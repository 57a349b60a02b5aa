import { endpoints } from '@lms/contract/endpoints';
import { messages } from '@lms/contract/messages';
import type { ChangePassword, ForgotPassword, Login, ResetPassword } from '@lms/contract/users';
import type { Cancellation } from '@lms/contract/payments';
import { call, type CallOptions } from '../../app/api';
import { refreshUser } from '../../app/session';
import type { AppDispatch, RootState } from '../../app/store';
import { loggedOut, userLoaded } from './auth.slice';

/*
 * The session: calls that write the spec's `auth` area (kept in local storage), straight
 * through the one client rather than the server-state cache, which the layout's chunk does
 * not load. Changing the signed-in user drops the cached answers made for the previous one
 * (app/server-state.ts).
 */

/** `quiet`: the page shows a refusal itself (the login page keeps a lockout and its wait in view). */
export const login = (input: Login, { quiet }: Pick<CallOptions, 'quiet'> = {}) => async (dispatch: AppDispatch) => {
  const { user } = await call(endpoints.users.login, { body: input }, { fallback: messages.failedLogIn, toastSuccess: true, quiet });
  dispatch(userLoaded(user));
  return user;
};

/** Ours: signs in with a one-time link from a mail (decision 0021); the page shows a refusal itself. */
export const signInWithLink = (token: string) => async (dispatch: AppDispatch) => {
  const { user } = await call(endpoints.users.signInWithLink, { params: { token } }, { fallback: messages.failedLogIn, toastSuccess: true, quiet: true });
  dispatch(userLoaded(user));
  return user;
};

export const register = (form: FormData) => async (dispatch: AppDispatch) => {
  const { user } = await call(endpoints.users.register, { body: form }, { fallback: messages.failedCreateAccount, toastSuccess: true });
  dispatch(userLoaded(user));
  return user;
};

export const logout = () => async (dispatch: AppDispatch) => {
  await call(endpoints.users.logout, {}, { fallback: messages.failedLogOut, toastSuccess: true });
  dispatch(loggedOut());
};

export const updateProfile = (userId: string, form: FormData) => async (dispatch: AppDispatch) => {
  const { user } = await call(endpoints.users.update, { params: { id: userId }, body: form }, { fallback: messages.failedUpdateProfile, toastSuccess: true });
  dispatch(userLoaded(user));
  return user;
};

export const changePassword = (input: ChangePassword) =>
  call(endpoints.users.changePassword, { body: input }, { fallback: messages.operationFailed, toastSuccess: true });

export const requestPasswordReset = (input: ForgotPassword) => call(endpoints.users.requestReset, { body: input }, { fallback: messages.operationFailed });

export const resetPassword = (token: string, input: ResetPassword) =>
  call(endpoints.users.reset, { params: { token }, body: input }, { fallback: messages.operationFailed, toastSuccess: true });

/**
 * Spec §4: cancelling the subscription, then reloading the user. The server's answer says
 * whether the last payment was refunded (access ends now: the user is inactive) or not (DESIGN §6:
 * no renewals, access until the paid period ends: `stillActive`). The caller shows its message.
 */
export const unsubscribe = (why: Cancellation = {}) => async (dispatch: AppDispatch, getState: () => RootState) => {
  // Ours (issue 15): the reason, when the subscriber gave one.
  const answer = await call(endpoints.payments.unsubscribe, { body: why }, { fallback: messages.failedUnsubscribe });
  // When the reload fails the cancellation still stands: show what the answer says rather than a stale subscription.
  const accessEnded = answer.refunded || answer.message === messages.unsubscribedRefundFailed;
  await dispatch(
    refreshUser((user) => ({ ...user, subscription: accessEnded ? { status: 'inactive' } : { ...user.subscription, cancelAtPeriodEnd: true } })),
  );
  const stillActive = getState().auth.data?.subscription.status === 'active';
  return { refunded: answer.refunded, message: answer.message, stillActive };
};
