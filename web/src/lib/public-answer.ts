import type { Endpoint, RequestOf, ResponseOf } from '@lms/contract/http';
import { useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { call, urlFor, type CallOptions } from './api-client';
import { lazyMiddleware } from './lazy-slices';
import { viewerChanged } from './viewer';

/** A read as a page shows it (the shape of an RTK Query hook's answer): loading until the first answer, and whether the last try failed. */
export interface Answer<T> {
  data?: T;
  isLoading: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/** As long as the server-state cache keeps an answer no page shows (RTK Query's `keepUnusedDataFor`). */
const KEEP_MS = 60_000;

/**
 * The answers kept, by URL, and the store they were kept for: a new store (a test's) starts
 * without them, as a new cache would.
 */
let kept: { store: unknown; answers: Map<string, { data: unknown; at: number }> } = { store: undefined, answers: new Map() };
function keptAnswers(store: unknown) {
  if (kept.store !== store) kept = { store, answers: new Map() };
  return kept.answers;
}

// Someone signed in or out: what a visitor was shown may have changed since (an administrator's edits).
lazyMiddleware.addMiddleware(() => (next) => (action) => {
  if (viewerChanged.match(action)) kept.answers.clear();
  return next(action);
});

/**
 * A public read on a logged-out visitor's page, straight through the one API client (its fallback
 * texts and toasts), without the server-state cache: RTK Query would be 14 KB of the visitor's first
 * download for reads that nothing of theirs changes. An answer is kept a minute, as the cache keeps
 * one, so coming back to the page shows it at once. What a signed-in user reads goes through the
 * cache (`features/<domain>/<domain>.api.ts`), whose writes refresh it.
 */
export function usePublicAnswer<E extends Endpoint>(endpoint: E, request: RequestOf<E>, options: Omit<CallOptions, 'signal'>): Answer<ResponseOf<E>> {
  const answers = keptAnswers(useStore());
  const keptAnswer = (url: string) => {
    const answer = answers.get(url);
    return answer && Date.now() - answer.at < KEEP_MS ? answer.data : undefined;
  };
  const url = `${endpoint.method} ${urlFor(endpoint, request)}`;
  const [state, setState] = useState(() => ({ url, data: keptAnswer(url), isError: false, tries: 0 }));
  // Other arguments: start again from what is kept for them.
  const current = state.url === url ? state : { url, data: keptAnswer(url), isError: false, tries: 0 };
  if (current !== state) setState(current);
  const asking = current.data === undefined || current.tries > 0;
  const { fallback, quiet, toastSuccess } = options;

  useEffect(() => {
    if (!asking || current.isError) return;
    const controller = new AbortController();
    // An answer that comes after the page let go of it (left, or asked again) is dropped.
    const settle = (change: { data?: unknown; isError: boolean }) => {
      if (!controller.signal.aborted) setState((now) => (now.url === url ? { ...now, ...change } : now));
    };
    call(endpoint, request, { fallback, quiet, toastSuccess, signal: controller.signal }).then(
      (data) => {
        if (!controller.signal.aborted) answers.set(url, { data, at: Date.now() });
        settle({ data, isError: false });
      },
      (error: unknown) => {
        if ((error as Error).name !== 'AbortError') settle({ isError: true });
      },
    );
    return () => controller.abort();
    // The URL stands for `endpoint` and `request`, which are new objects on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, current.tries, asking, current.isError, fallback, quiet, toastSuccess]);

  return {
    data: current.data as ResponseOf<E> | undefined,
    isLoading: current.data === undefined && !current.isError,
    isError: current.isError,
    refetch: () => setState((now) => ({ ...now, isError: false, tries: now.tries + 1 })),
  };
}
