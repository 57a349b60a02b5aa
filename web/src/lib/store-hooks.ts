import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';

/**
 * The store's dispatch as features use it: actions, and the cache's own thunks (`util.updateQueryData`,
 * `endpoints.x.initiate`). Typed without the app's state, which features do not know as a whole: each
 * reads its own area through its own selectors.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AppDispatch = ThunkDispatch<any, unknown, UnknownAction>;
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
