import { createDynamicMiddleware, type Middleware, type Reducer } from '@reduxjs/toolkit';

/**
 * Slices that arrive with the pages that need them, not with the first chunk (the server-state
 * cache, the checkout's payment state). Each declares itself here, so the store's state type knows
 * it as optional:
 *
 *   declare module '<path>/lib/lazy-slices' { interface LazyLoadedSlices extends WithSlice<typeof slice> {} }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export interface LazySlice {
  reducerPath: string;
  reducer: Reducer;
}

/** Middleware of lazily loaded modules, shared by every store (the app has one; each test makes its own). */
export const lazyMiddleware = createDynamicMiddleware();

let join: ((slice: LazySlice) => void) | undefined;
const waiting: LazySlice[] = [];

/**
 * Adds a slice (with its middleware) loaded after the store module. The store decides how it joins
 * its root reducer (`onLazySlice`); a slice that came before the store module waits for it.
 */
export function injectLazySlice(slice: LazySlice, ...middleware: Middleware[]) {
  lazyMiddleware.addMiddleware(...middleware);
  if (join) join(slice);
  else waiting.push(slice);
}

/** Called once by the store module: how a slice loaded later joins the state. */
export function onLazySlice(joinSlice: (slice: LazySlice) => void) {
  join = joinSlice;
  for (const slice of waiting.splice(0)) joinSlice(slice);
}
