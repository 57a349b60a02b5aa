/** The query parameter that carries where to go after logging in or signing up (read by next-path.ts). */
export const NEXT_PARAM = 'next';

/**
 * `path` (login or signup) carrying `next` when there is one, as a React Router `to`. Apart from
 * next-path.ts, which checks what comes back, so that the layout's first chunk carries only this.
 */
export function withNext(path: string, next: string | undefined) {
  return { pathname: path, search: next ? `?${new URLSearchParams({ [NEXT_PARAM]: next })}` : '' };
}
