import { NEXT_PARAM } from './with-next';

const ORIGIN = 'https://lms.invalid';

/**
 * `value` if it is a path of this site ("/checkout", "/course/description?id=…"), else undefined.
 * Never an absolute URL, a protocol-relative one ("//evil.example") or one the browser would
 * read as such ("/\evil.example", control characters): an open redirect is a bug.
 */
export function sameSitePath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value) || value.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== ORIGIN) return undefined;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Coming back to the login or signup page itself would be a loop. (Their paths, as in paths.ts: importing
  // that here made the bundler split it out of the first chunk, which costs every page's first load.)
  if (url.pathname === '/login' || url.pathname === '/Signup') return undefined;
  return path;
}

/**
 * Where to go after logging in or signing up: the `next` of the address if it is ours, else the page
 * the route guard sent the visitor from (`state.from`, see RequireAuth) if it is ours, else undefined.
 */
export function nextPath(search: string, state: unknown): string | undefined {
  const fromQuery = sameSitePath(new URLSearchParams(search).get(NEXT_PARAM));
  return fromQuery ?? sameSitePath((state as { from?: unknown } | null)?.from);
}
