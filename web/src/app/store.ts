import { combineSlices, configureStore, createDynamicMiddleware, type Middleware, type Reducer } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { loggedOut, authReducer, passwordChangeRequired } from '../features/auth/auth.slice';
import { courseReducer } from '../features/courses/course.slice';
import { lectureReducer } from '../features/lectures/lecture.slice';
import { razorpayReducer } from '../features/payments/razorpay.slice';
import { statReducer } from '../features/stats/stat.slice';
import { setPasswordChangeHandler, setUnauthorizedHandler } from '../lib/api-client';

/**
 * Slices that arrive with the pages that need them, not with the first chunk: the server-state
 * cache (`server-state.ts`) declares itself here, so `RootState` knows it as optional.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

/** Spec §3's state areas: auth, course, razorpay, lecture, stat; lazily loaded slices join them. */
const rootReducer = combineSlices({
  auth: authReducer,
  course: courseReducer,
  razorpay: razorpayReducer,
  lecture: lectureReducer,
  stat: statReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

/** Middleware of lazily loaded modules, shared by every store (the app has one; each test makes its own). */
const lazyMiddleware = createDynamicMiddleware();

/** The store made last: the one a lazily loaded slice must be initialised in at once. */
let latest: AppStore | undefined;

/**
 * Adds a slice (with its middleware) loaded after the store was made. Stores made later start
 * with it; the current one gets its initial state now, before any component reads it.
 */
export function injectLazySlice(slice: { reducerPath: string; reducer: Reducer }, ...middleware: Middleware[]) {
  rootReducer.inject(slice);
  lazyMiddleware.addMiddleware(...middleware);
  latest?.dispatch({ type: 'app/lazySliceInjected', payload: slice.reducerPath });
}

export function createStore() {
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(lazyMiddleware.middleware),
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
