import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { ApiEndpoint } from '@lms/contract/api';
import type { Access, Schemas } from '@lms/contract/http';
import { recordAdminAction } from './features/audit/admin-actions.ts';
import { requireLogin, requireRole, requireUser } from './features/auth/guards.ts';
import type { RateLimited } from './rate-limit.ts';
import { jsonBody } from './validation.ts';

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

/** The request a route's handler gets: params, query and JSON body as the contract's schemas parse them. */
export type RouteRequest<S extends Schemas> = FastifyRequest<{
  Params: Parsed<S['params']>;
  Querystring: Parsed<S['query']>;
  // A multipart body is read by the handler from the request's stream; a raw one is a Buffer.
  Body: S['body'] extends z.ZodType ? z.output<S['body']> : S['body'] extends 'raw' ? Buffer : unknown;
}>;

/** What a handler answers with: the contract's response, which the route sends with the contract's status. */
export type RouteAnswer<S extends Schemas> = S['response'] extends z.ZodType ? z.output<S['response']> : never;

/**
 * A route's handler: parse, one service call, answer. It returns the answer (checked against the
 * contract's response), or the reply when it has sent something else itself: a download, or
 * another status the contract lists (`alsoAnswers`).
 */
export type RouteHandler<S extends Schemas> = (request: RouteRequest<S>, reply: FastifyReply) => Promise<RouteAnswer<S> | FastifyReply>;

export interface RouteSetup<S extends Schemas> {
  handler: RouteHandler<S>;
  /** The route's limits, from `rateLimited(...)`; they run after the access guard. */
  rateLimit?: RateLimited<RouteRequest<S>>;
  /**
   * The route answers before it writes: what it was sent is held and written with others later, so
   * its answer has no change of its own to wait for (caught-up.ts).
   */
  writesLater?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** See RouteSetup's `writesLater`. */
    writesLater?: boolean;
  }
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Who may call, as the contract says it, and the pre-handler that enforces it. */
const GUARDS: Record<Access, Guard[]> = {
  public: [],
  session: [requireLogin],
  user: [requireUser],
  admin: [requireRole('ADMIN')],
};

/**
 * Registers one endpoint of the contract (`api` in @lms/contract/api) with its handler: the
 * method, the full path under the API root, the schemas (params, query, JSON body, the response
 * by status), the OpenAPI summary and the access guard all come from the contract. A JSON body
 * left out reads as `{}`, so that it gets the form's own "fill in" text. A raw body is kept as
 * the bytes sent, in a scope of its own so that no other route reads JSON that way.
 */
export function route<S extends Schemas>(app: FastifyInstance, endpoint: ApiEndpoint<S>, setup: RouteSetup<S>): void {
  const { schemas, status } = endpoint;
  const { body, response } = schemas as Schemas;
  const handler = setup.handler as unknown as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  const options: RouteOptions = {
    method: [...endpoint.methods],
    url: endpoint.path,
    schema: {
      summary: endpoint.summary,
      ...(schemas.params && { params: schemas.params }),
      ...(schemas.query && { querystring: schemas.query }),
      ...(typeof body === 'object' && { body: jsonBody(body) }),
      ...(body === 'multipart' && { consumes: ['multipart/form-data'] }),
      ...(response !== 'download' && { response: { [status]: response, ...endpoint.alsoAnswers } }),
    },
    ...(setup.writesLater && { config: { writesLater: true } }),
    // An administrator's endpoint refuses anyone else before it reads their input: a learner gets
    // 403 whatever they send, never the form's validation texts. The others check input first.
    ...(endpoint.access === 'admin' && { preValidation: GUARDS.admin }),
    preHandler: [...(endpoint.access === 'admin' ? [] : GUARDS[endpoint.access]), ...(setup.rateLimit ? [setup.rateLimit as unknown as Guard] : [])],
    handler: async (request, reply) => {
      const answer = await handler(request, reply);
      // A reply is a thenable: a handler that returns it has been awaited until it was sent.
      if (reply.sent) return reply;
      // An administrator's write is appended to the audit trail once it has succeeded (outside
      // its transaction; the services of learners' access, money and suspension record their own).
      await recordAdminAction(request, endpoint, answer);
      return reply.code(status).send(answer);
    },
  };
  if (body !== 'raw') {
    app.route(options);
    return;
  }
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, raw, done) => done(null, raw));
    scope.route(options);
  });
}
