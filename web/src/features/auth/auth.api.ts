import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import type { Cancellation } from '@lms/contract/payments';
import type { ChangePassword, ForgotPassword, Login, ResetPassword, User } from '@lms/contract/users';
import type { CallOptions } from '../../lib/api-client';
import { serverCall, serverState, type CacheDispatch } from '../../lib/server-state';
import { loggedOut, userLoaded, type AuthState } from './auth.slice';

/*
 * The session, as queries and mutations of the server-state cache: each answer that carries the
 * user writes the `auth` area (kept in local storage) as it arrives. Changing the signed-in user
 * drops the cached answers made for the previous one (auth.slice's `viewerWatch`). The layout's
 * first chunk does not load this module: it imports it when a signed-in user's page loads, or on
 * Logout, so that a visitor's first download stays small.
 */

type UserAnswer = { user: User };

/** After a call that answers with the user: the stored user becomes that one. */
const storeUser = async (_arg: unknown, { dispatch, queryFulfilled }: { dispatch: CacheDispatch; queryFulfilled: Promise<{ data: UserAnswer }> }) => {
  const answer = await queryFulfilled.catch(() => undefined);
  if (answer) dispatch(userLoaded(answer.data.user));
};

const authApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    /** The signed-in user as the server has them now. Quiet: a failure leaves the stored user (or logs out on a 401). */
    getMe: build.query<ResponseOf<typeof endpoints.users.me>, void>({
      query: () => serverCall(endpoints.users.me, {}, { fallback: messages.failedLoadData, quiet: true }),
      keepUnusedDataFor: 0,
      onQueryStarted: storeUser,
    }),
    /** `quiet`: the page shows a refusal itself (the login page keeps a lockout and its wait in view). */
    login: build.mutation<ResponseOf<typeof endpoints.users.login>, { input: Login } & Pick<CallOptions, 'quiet'>>({
      query: ({ input, quiet }) => serverCall(endpoints.users.login, { body: input }, { fallback: messages.failedLogIn, toastSuccess: true, quiet }),
      onQueryStarted: storeUser,
    }),
    /** Signs in with a one-time link from a mail (decision 0021); the page shows a refusal itself. */
    signInWithLink: build.mutation<ResponseOf<typeof endpoints.users.signInWithLink>, string>({
      query: (token) => serverCall(endpoints.users.signInWithLink, { params: { token } }, { fallback: messages.failedLogIn, toastSuccess: true, quiet: true }),
      onQueryStarted: storeUser,
    }),
    register: build.mutation<ResponseOf<typeof endpoints.users.register>, FormData>({
      query: (form) => serverCall(endpoints.users.register, { body: form }, { fallback: messages.failedCreateAccount, toastSuccess: true }),
      onQueryStarted: storeUser,
    }),
    logout: build.mutation<ResponseOf<typeof endpoints.users.logout>, void>({
      query: () => serverCall(endpoints.users.logout, {}, { fallback: messages.failedLogOut, toastSuccess: true }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        if (
          await queryFulfilled.then(
            () => true,
            () => false,
          )
        )
          dispatch(loggedOut());
      },
    }),
    updateProfile: build.mutation<ResponseOf<typeof endpoints.users.update>, { userId: string; form: FormData }>({
      query: ({ userId, form }) =>
        serverCall(endpoints.users.update, { params: { id: userId }, body: form }, { fallback: messages.failedUpdateProfile, toastSuccess: true }),
      onQueryStarted: storeUser,
    }),
    changePassword: build.mutation<ResponseOf<typeof endpoints.users.changePassword>, ChangePassword>({
      query: (input) => serverCall(endpoints.users.changePassword, { body: input }, { fallback: messages.operationFailed, toastSuccess: true }),
    }),
    requestPasswordReset: build.mutation<ResponseOf<typeof endpoints.users.requestReset>, ForgotPassword>({
      query: (input) => serverCall(endpoints.users.requestReset, { body: input }, { fallback: messages.operationFailed }),
    }),
    resetPassword: build.mutation<ResponseOf<typeof endpoints.users.reset>, { token: string; input: ResetPassword }>({
      query: ({ token, input }) =>
        serverCall(endpoints.users.reset, { params: { token }, body: input }, { fallback: messages.operationFailed, toastSuccess: true }),
    }),
    /** Cancels the subscription, with the reason when the subscriber gave one. */
    unsubscribe: build.mutation<ResponseOf<typeof endpoints.payments.unsubscribe>, Cancellation>({
      query: (why) => serverCall(endpoints.payments.unsubscribe, { body: why }, { fallback: messages.failedUnsubscribe }),
    }),
  }),
});

type Dispatch = CacheDispatch;
type GetState = () => { auth: AuthState };

/*
 * The session's steps as the pages take them: each awaits its call and answers what the page needs.
 * The stored user is already written (above) when one resolves.
 */

export const login =
  (input: Login, { quiet }: Pick<CallOptions, 'quiet'> = {}) =>
  async (dispatch: Dispatch) =>
    (await dispatch(authApi.endpoints.login.initiate({ input, quiet })).unwrap()).user;

export const signInWithLink = (token: string) => async (dispatch: Dispatch) => (await dispatch(authApi.endpoints.signInWithLink.initiate(token)).unwrap()).user;

export const register = (form: FormData) => async (dispatch: Dispatch) => (await dispatch(authApi.endpoints.register.initiate(form)).unwrap()).user;

export const logout = () => async (dispatch: Dispatch) => {
  await dispatch(authApi.endpoints.logout.initiate()).unwrap();
};

export const updateProfile = (userId: string, form: FormData) => async (dispatch: Dispatch) =>
  (await dispatch(authApi.endpoints.updateProfile.initiate({ userId, form })).unwrap()).user;

export const changePassword = (input: ChangePassword) => (dispatch: Dispatch) => dispatch(authApi.endpoints.changePassword.initiate(input)).unwrap();

export const requestPasswordReset = (input: ForgotPassword) => (dispatch: Dispatch) =>
  dispatch(authApi.endpoints.requestPasswordReset.initiate(input)).unwrap();

export const resetPassword = (token: string, input: ResetPassword) => (dispatch: Dispatch) =>
  dispatch(authApi.endpoints.resetPassword.initiate({ token, input })).unwrap();

/**
 * The stored user is refreshed by the 'me' call (on load, and after a payment or a cancellation).
 * A 401 logs the client out (see the store). When the call fails and `assume` is given, the stored
 * user is updated with what the caller already knows happened, rather than left stale; otherwise
 * the failure is thrown.
 */
export const refreshUser =
  (assume?: (user: User) => User) =>
  async (dispatch: Dispatch, getState: GetState): Promise<User | undefined> => {
    try {
      return (await dispatch(authApi.endpoints.getMe.initiate(undefined, { subscribe: false, forceRefetch: true })).unwrap()).user;
    } catch (error) {
      const user = getState().auth.data;
      if (!assume) throw error;
      if (user) dispatch(userLoaded(assume(user)));
      return getState().auth.data ?? undefined;
    }
  };

/**
 * Cancels the subscription, then reloads the user. The server's answer says whether the last payment
 * was refunded (access ends now: the user is inactive) or not (there are no renewals: access lasts
 * until the paid period ends, `stillActive`). The caller shows its message.
 */
export const unsubscribe =
  (why: Cancellation = {}) =>
  async (dispatch: Dispatch, getState: GetState) => {
    const answer = await dispatch(authApi.endpoints.unsubscribe.initiate(why)).unwrap();
    // When the reload fails the cancellation still stands: show what the answer says rather than a stale subscription.
    const accessEnded = answer.refunded || answer.message === messages.unsubscribedRefundFailed;
    await dispatch(
      refreshUser((user) => ({ ...user, subscription: accessEnded ? { status: 'inactive' } : { ...user.subscription, cancelAtPeriodEnd: true } })),
    );
    const stillActive = getState().auth.data?.subscription.status === 'active';
    return { refunded: answer.refunded, message: answer.message, stillActive };
  };
