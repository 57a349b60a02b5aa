import { API_PREFIX, urlOf, type Endpoint, type Method, type RequestOf, type ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import toast from 'react-hot-toast';
import { dropPageAnswers, takePageAnswer } from './page-answers';

/** The API root (version v1; cookies are sent). */
export const API_ROOT = API_PREFIX;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The refusal's whole body, for the few that carry more than a message (a 409 naming what is in the way). */
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Body = FormData | Record<string, unknown> | undefined;

export interface CallOptions {
  /** Shown when the server's answer carries no message. */
  fallback: string;
  /** Show the server's success message as a toast. */
  toastSuccess?: boolean;
  /** Leave error toasts to the caller (e.g. a page that shows the error inline). */
  quiet?: boolean;
  signal?: AbortSignal;
  /** A write that changes none of the reads a page is sent with (a playback lease): their answers stay for them. */
  keepsPageAnswers?: boolean;
}

let onUnauthorized: () => void = () => undefined;
/** The store registers what a 401 does: the session is gone, so the client logs out. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

let onPasswordChangeRequired: () => void = () => undefined;
/**
 * The store registers what the server's "choose a new password first" refusal does: the app
 * takes the user to the change-password page, instead of showing the refusal as an error.
 */
export function setPasswordChangeHandler(handler: () => void) {
  onPasswordChangeRequired = handler;
}

/** A 401 logs the client out; a 403 "choose a new password first" leads to the change-password page. */
function onRefusal(status: number, message: string | undefined, options: CallOptions): CallOptions {
  if (status === 401) onUnauthorized();
  if (status === 403 && message === messages.choosePasswordFirst) {
    onPasswordChangeRequired();
    return { ...options, quiet: true };
  }
  return options;
}

/**
 * The one API client. Every failure shows the server's message, or the spec's
 * fallback text for that call, as an error toast, and is thrown as an ApiError.
 */
export async function apiCall<T extends object>(method: Method, path: string, body: Body, options: CallOptions): Promise<T & { message?: string }> {
  // A page's first reads may have come with it, answered by the API for this session.
  if (method === 'GET') {
    const sent = takePageAnswer(path);
    if (sent !== undefined) return sent as T & { message?: string };
  } else if (!options.keepsPageAnswers) dropPageAnswers();
  const isForm = body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(`${API_ROOT}${path}`, {
      method,
      credentials: 'include',
      headers: body && !isForm ? { 'content-type': 'application/json' } : undefined,
      body: isForm ? body : body && JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    return fail(0, undefined, options);
  }
  const data = (await response.json().catch(() => undefined)) as (T & { success?: boolean; message?: string }) | undefined;
  if (!response.ok || data?.success === false) {
    return fail(response.status, data?.message, onRefusal(response.status, data?.message, options), data);
  }
  if (options.toastSuccess && data?.message) toast.success(data.message);
  return data as T & { message?: string };
}

function fail(status: number, message: string | undefined, options: CallOptions, body?: unknown): never {
  const text = message || options.fallback;
  if (!options.quiet) toast.error(text);
  throw new ApiError(status, text, body);
}

/**
 * A form upload with progress (fetch cannot report upload progress), for large
 * files such as lecture videos. Errors are handled as in `apiCall`; aborting
 * through `signal` rejects with an AbortError and shows nothing.
 */
export function uploadWithProgress<T extends object>(
  path: string,
  form: FormData,
  options: CallOptions & { onProgress: (fraction: number) => void; method?: Method },
): Promise<T & { message?: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(options.method ?? 'POST', `${API_ROOT}${path}`);
    xhr.withCredentials = true;
    xhr.responseType = 'json';
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      const data = xhr.response as (T & { success?: boolean; message?: string }) | null;
      if (xhr.status >= 400 || data?.success === false) {
        try {
          fail(xhr.status, data?.message, onRefusal(xhr.status, data?.message, options));
        } catch (error) {
          reject(error);
        }
        return;
      }
      if (options.toastSuccess && data?.message) toast.success(data.message);
      resolve((data ?? {}) as T & { message?: string });
    });
    xhr.addEventListener('error', () => {
      try {
        fail(0, undefined, options);
      } catch (error) {
        reject(error);
      }
    });
    xhr.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** The URL of a call to `endpoint` below the API root, from the contract's table. */
export function urlFor<E extends Endpoint>(endpoint: E, request: RequestOf<E>): string {
  const { params, query } = request as { params?: Record<string, string>; query?: Record<string, string | number | undefined> };
  return urlOf(endpoint, params, query);
}

/** One endpoint of the contract's table (`@lms/contract/endpoints`), typed by it, through `apiCall`. */
export function call<E extends Endpoint>(endpoint: E, request: RequestOf<E>, options: CallOptions): Promise<ResponseOf<E>> {
  const { body } = request as { body?: Body };
  return apiCall<ResponseOf<E> & object>(endpoint.method, urlFor(endpoint, request), body, options);
}
