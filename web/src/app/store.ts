import { configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { loggedOut, authReducer } from '../features/auth/auth.slice';
import { courseReducer } from '../features/course/course.slice';
import { lectureReducer } from '../features/lecture/lecture.slice';
import { razorpayReducer } from '../features/payments/razorpay.slice';
import { statReducer } from '../features/stats/stat.slice';
import { setUnauthorizedHandler } from './api';

/** Spec §3's state areas: auth, course, razorpay, lecture, stat. */
export function createStore() {
  const store = configureStore({
    reducer: { auth: authReducer, course: courseReducer, razorpay: razorpayReducer, lecture: lectureReducer, stat: statReducer },
  });
  // A 401 from the API means the session is gone: the client logs out too.
  setUnauthorizedHandler(() => {
    if (store.getState().auth.isLoggedIn) store.dispatch(loggedOut());
  });
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
