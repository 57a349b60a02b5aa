import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { answers } from '@lms/contract/answers';
import { AppError } from './errors.ts';
import type { WebAppPage } from './web-app.ts';

/** Every error becomes `{ success: false, message }` with its status; a 5xx is logged and says nothing of its cause. */
export function handleErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, message } = toHttpError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(status).send({ success: false, message });
  });
}

/** Known errors keep their status and a message fit for the user; anything else is a 500 that says nothing. */
function toHttpError(error: FastifyError): { status: number; message: string } {
  if (error instanceof AppError) return { status: error.statusCode, message: error.message };
  if (hasZodFastifySchemaValidationErrors(error)) {
    return { status: 400, message: error.validation[0]?.message ?? answers.invalidRequest };
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return { status, message: answers.requestTooLarge };
  if (status === 415) return { status, message: answers.unsupportedContentType };
  if (status === 429) return { status, message: answers.tooManyRequests };
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
    return { status: 400, message: answers.invalidJson };
  }
  if (status >= 400 && status < 500) return { status, message: answers.invalidRequest };
  return { status: 500, message: answers.internalError };
}

/**
 * What no route took: the web app routes its own pages (and shows its 404, sent with 404);
 * anything else, the API's included, is answered with a JSON 404.
 */
export function notFoundHandler(webApp: WebAppPage | undefined) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0]!;
    // Pages are paths without a file extension outside the API, media and sandbox.
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !/^\/(api|media|sandbox)\//.test(path) && !/\.[a-z0-9]+$/i.test(path);
    if (webApp && isPage) return webApp.sendAt(path, request, reply);
    return reply.code(404).send({ success: false, message: answers.notFound });
  };
}
