import type { z } from 'zod';

/**
 * The frame of the HTTP surface: the API root, the `{ success, message }` envelope, paging,
 * and how an endpoint is declared. No zod at run time here (only its types), so the web app's
 * first chunk can import the endpoint table without carrying the schemas; the schemas are
 * in `envelope.ts` and each domain's file, and the table names them by type.
 */

/** Every path of the table is under this root: the API's first version. */
export const API_PREFIX = '/api/v1';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every answer: `success: true` with the data beside the message, or `success: false` with the reason. */
export interface Reply {
  success: boolean;
  message: string;
}
/** A refusal: a 4xx (or a 5xx without details) carrying this body. */
export interface Failure {
  success: false;
  message: string;
}

/** A page of a list, beside the list in the answer: which page, its size, and how many there are in all. */
export interface Paged {
  total: number;
  page: number;
  limit: number;
}

/** The marker for a `multipart/form-data` body (files with text fields), sent as a `FormData`. */
export type Multipart = 'multipart';
/** The marker for a body the server reads as raw bytes: a webhook's signature covers the exact bytes sent. */
export type RawBody = 'raw';
/** The marker for an answer that is a file to download (a CSV, a PDF), not the JSON envelope. */
export type Download = 'download';

/**
 * Who may call an endpoint: anyone (`public`; a few public endpoints still read the session
 * when there is one), anyone logged in, even one who must first choose a new password
 * (`session`), a logged-in user who need not (`user`), or an administrator (`admin`).
 */
export type Access = 'public' | 'session' | 'user' | 'admin';

/** What an endpoint takes and answers, as the zod schemas the server validates with. */
export interface Schemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType | Multipart | RawBody;
  /** The successful answer (the envelope with the data), or a download. */
  response: z.ZodType | Download;
}

/**
 * One endpoint: its method, its path (relative to `API_PREFIX`, `:name` for a path parameter)
 * and who may call it. The schemas exist only in the type, for `ParamsOf`, `QueryOf`, `BodyOf`
 * and `ResponseOf`; the server's binding (api.ts) holds them at run time.
 */
export interface Endpoint<S extends Schemas = Schemas> {
  readonly method: Method;
  readonly path: string;
  readonly access: Access;
  /** Never set here: carries the schemas' types. */
  readonly schemas?: S;
}

/**
 * The declarer of the endpoints `access` may call: with `const admin = declarer('admin')`, an
 * entry reads `admin<{ query: typeof XSchema; response: typeof YSchema }>('GET', '/x')`.
 */
export const declarer =
  (access: Access) =>
  <S extends Schemas>(method: Method, path: string): Endpoint<S> => ({ method, path, access });

export type SchemasOf<E> = E extends Endpoint<infer S> ? S : never;
type InputOf<T> = T extends z.ZodType ? z.input<T> : undefined;

/** The path parameters, e.g. `{ id }` for `/courses/:id`. */
export type ParamsOf<E extends Endpoint> = InputOf<SchemasOf<E>['params']>;
/** The query string's fields as the client may send them (before the server's defaults). */
export type QueryOf<E extends Endpoint> = InputOf<SchemasOf<E>['query']>;
/** The body: a `FormData` for multipart endpoints, the bytes as text for a raw one, else the JSON the schema accepts. */
export type BodyOf<E extends Endpoint> = SchemasOf<E>['body'] extends Multipart
  ? FormData
  : SchemasOf<E>['body'] extends RawBody
    ? string
    : InputOf<SchemasOf<E>['body']>;
/** The successful answer, envelope included; a `Blob` for a download. */
export type ResponseOf<E extends Endpoint> = SchemasOf<E>['response'] extends z.ZodType ? z.output<SchemasOf<E>['response']> : Blob;

type Field<K extends string, T> = [T] extends [undefined] ? { [_ in K]?: undefined } : undefined extends T ? { [_ in K]?: T } : { [_ in K]: T };
/** What a call sends: `params` and `body` where the endpoint has them, `query` where it takes one. */
export type RequestOf<E extends Endpoint> = Field<'params', ParamsOf<E>> & Partial<Field<'query', QueryOf<E>>> & Field<'body', BodyOf<E>>;

type QueryValue = string | number | boolean | undefined | null;

/**
 * The URL of a call, relative to `API_PREFIX`: path parameters filled in (encoded), then the
 * query string with the fields in the order given, leaving out those that are undefined, null or ''.
 */
export function urlOf(endpoint: Endpoint, params?: Record<string, string>, query?: Record<string, QueryValue>): string {
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${endpoint.method} ${endpoint.path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  return search.size > 0 ? `${path}?${search}` : path;
}
