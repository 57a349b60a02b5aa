import type { Endpoint, RequestOf } from '@lms/contract/http';
import type { Middleware, WithSlice } from '@reduxjs/toolkit';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { ApiError, call, type CallOptions } from './api-client';
import { injectLazySlice } from './lazy-slices';
import { dropPageAnswers } from './page-answers';
import { viewerChanged } from './viewer';

/**
 * What the server holds, as the web app caches it (RTK Query): one entry per endpoint and
 * arguments, so the catalogue's page, the dashboard's hundred courses and one course by id
 * live side by side; each with its loading state; refreshed when a write invalidates its tags.
 *
 * This module is the cache's base and holds no endpoint: each feature injects its own reads
 * (queries) and writes (mutations) in `features/<domain>/<domain>.api.ts`, and other features use
 * them through that feature's index.
 *
 * Every call goes through `apiCall` (lib/api-client.ts): the fallback texts as error toasts,
 * success toasts, 401 logs out, the "choose a new password first" handler. This module loads
 * with the first page that fetches, not with the first chunk (see `injectLazySlice`).
 */

/** A call as a query or mutation describes it: an endpoint of the contract's table, what to send, and how to report it. */
export interface ServerCall {
  endpoint: Endpoint;
  request: RequestOf<Endpoint>;
  options: Omit<CallOptions, 'signal'>;
}
/** A failed call: the HTTP status (0 without an answer) and the message the client showed (or would have). */
export interface ServerError {
  status: number;
  message: string;
  /** The refusal's body, when the server sent one (see ApiError). */
  body?: unknown;
}

export type { AppDispatch as CacheDispatch } from './store-hooks';

/** A failed call as a mutation's `unwrap()` throws it (anything else, such as an abort, is not). */
export const isServerError = (error: unknown): error is ServerError =>
  typeof error === 'object' && error !== null && typeof (error as ServerError).status === 'number' && typeof (error as ServerError).message === 'string';

/** What to say about a failed query or mutation: the client's message, else `fallback`. */
export const messageOf = (error: ServerError | { message?: string } | undefined, fallback: string) => error?.message || fallback;

/** Describes a call to `endpoint`, typed by the contract's table. */
export const serverCall = <E extends Endpoint>(endpoint: E, request: RequestOf<E>, options: Omit<CallOptions, 'signal'>): ServerCall => ({
  endpoint,
  request: request as RequestOf<Endpoint>,
  options,
});

const baseQuery: BaseQueryFn<ServerCall, unknown, ServerError> = async ({ endpoint, request, options }, { signal }) => {
  try {
    return { data: await call(endpoint, request, { ...options, signal }) };
  } catch (error) {
    if (error instanceof ApiError) return { error: { status: error.status, message: error.message, ...(error.body !== undefined && { body: error.body }) } };
    if ((error as Error).name === 'AbortError') return { error: { status: 0, message: (error as Error).message } };
    throw error;
  }
};

/** Every list of a tag type (`{ type: 'Course', id: LIST }`), beside each item by id. */
export const LIST = 'LIST';

export const serverState = createApi({
  reducerPath: 'api',
  baseQuery,
  /**
   * The tags more than one feature provides or invalidates. Course: `LIST` for every list, and each
   * course by id. Curriculum and Lecture: by course id. Viewer: what depends on who is signed in
   * (video URLs, access, admin figures), invalidated when the viewer changes. A feature adds the
   * tags only it uses with `enhanceEndpoints({ addTagTypes })`.
   */
  tagTypes: ['Course', 'Curriculum', 'Lecture', 'Viewer'],
  endpoints: () => ({}),
});

/** Answers made for the previous viewer (cached, or sent with the page) are dropped when the session says the viewer changed. */
const viewerChanges: Middleware = (store) => (next) => (action) => {
  const result = next(action);
  if (viewerChanged.match(action)) {
    dropPageAnswers();
    store.dispatch(serverState.util.invalidateTags(['Viewer']));
  }
  return result;
};

declare module './lazy-slices' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof serverState> {}
}

injectLazySlice(serverState, serverState.middleware, viewerChanges);

/** The store as the cache's selectors read it: the cache is there once a page that fetches has loaded. */
export interface CacheState {
  api?: ReturnType<typeof serverState.reducer>;
}

/**
 * The answer to `endpointName` that arrived last, whatever its arguments; undefined before any.
 * What the spec calls a state area (the course list, the lectures, the statistics) is read this way.
 */
export function latestAnswer<T>(state: CacheState, endpointName: string): T | undefined {
  let latest: { data?: unknown; fulfilledTimeStamp?: number } | undefined;
  for (const entry of Object.values(state.api?.queries ?? {})) {
    if (entry?.endpointName !== endpointName || entry.status !== 'fulfilled') continue;
    if (!latest || (entry.fulfilledTimeStamp ?? 0) >= (latest.fulfilledTimeStamp ?? 0)) latest = entry;
  }
  return latest?.data as T | undefined;
}
