import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { authReducer, loggedOut, passwordChangeRequired, viewerWatch } from '../features/auth/auth.slice';
import { razorpayReducer } from '../features/payments/razorpay.slice';
import { setPasswordChangeHandler, setUnauthorizedHandler } from '../lib/api-client';
import { lazyMiddleware, onLazySlice, type LazyLoadedSlices } from '../lib/lazy-slices';

/**
 * The store's areas: the login state (`auth`, kept in local storage) and the checkout's own state
 * (`razorpay`) from the start; the server-state cache joins with the first page that fetches. The
 * course list, lectures and statistics are read from the cache by each feature's selectors
 * (`selectCourseList`, `selectLectures`, `selectStats`), not copied into areas of their own.
 */
const rootReducer = combineSlices({ auth: authReducer, razorpay: razorpayReducer }).withLazyLoadedSlices<LazyLoadedSlices>();

/** The store made last: the one a lazily loaded slice must be initialised in at once. */
let latest: AppStore | undefined;

// A slice loaded later: stores made after it start with it; the current one gets its initial
// state now, before any component reads it.
onLazySlice((slice) => {
  rootReducer.inject(slice);
  latest?.dispatch({ type: 'app/lazySliceInjected', payload: slice.reducerPath });
});

export function createStore() {
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(lazyMiddleware.middleware, viewerWatch),
  });
  // A 401 from the API means the session is gone: the client logs out too.
  setUnauthorizedHandler(() => {
    if (store.getState().auth.isLoggedIn) store.dispatch(loggedOut());
  });
  // A 403 "choose a new password first": the layout then takes the user to the change-password page.
  setPasswordChangeHandler(() => {
    if (store.getState().auth.isLoggedIn) store.dispatch(passwordChangeRequired());
  });
  latest = store;
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<typeof rootReducer>;
export type AppDispatch = AppStore['dispatch'];
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
