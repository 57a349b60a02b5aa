import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { api, type Bindings } from '@lms/contract/api';
import { answers } from '@lms/contract/answers';
import { LoginSchema, MessageSchema, UserResponseSchema } from '@lms/contract/users';
import { route } from './route.ts';

/**
 * Type checks, run by `npm run typecheck`: each `@ts-expect-error` marks code that must not
 * compile. A handler or a binding that disagrees with the contract is refused.
 */
function handlersThatDisagree(app: FastifyInstance) {
  route(app, api.courses.delete, {
    // @ts-expect-error: the answer lacks the envelope's message.
    handler: async () => ({ success: true }),
  });
  route(app, api.users.me, {
    // @ts-expect-error: `me` answers a user beside the envelope.
    handler: async () => ({ success: true, message: answers.userDetailsFetched }),
  });
  route(app, api.courses.delete, {
    handler: async (request) => {
      // @ts-expect-error: the path has an `id`, no `courseId`.
      void request.params.courseId;
      return { success: true, message: answers.courseDeleted };
    },
  });
  route(app, api.contact.send, {
    handler: async (request) => {
      // @ts-expect-error: the contact form has no subject.
      void request.body.subject;
      return { success: true, message: answers.contactMessages };
    },
  });
  route(app, api.courses.list, {
    handler: async (request) => {
      // @ts-expect-error: page is a number once parsed.
      const page: string = request.query.page;
      void page;
      return { success: true, message: answers.coursesFetched, courses: [], total: 0, page: 1, limit: 1 };
    },
  });
}

function bindingsThatDisagree() {
  // @ts-expect-error: an entry of the table left without its schemas.
  const missing: Bindings['video'] = {};
  const swapped: Bindings['users']['login'] = {
    // @ts-expect-error: the table answers login with a user.
    schemas: { body: LoginSchema, response: MessageSchema },
    summary: 'Log in',
  };
  const extra: Bindings['users']['me'] = {
    // @ts-expect-error: `me` takes no body.
    schemas: { body: LoginSchema, response: UserResponseSchema },
    summary: 'The logged-in user',
  };
  return [missing, swapped, extra];
}

describe('route', () => {
  it('is typed by the contract (the cases above are checked by the type checker)', () => {
    expect(typeof handlersThatDisagree).toBe('function');
    expect(typeof bindingsThatDisagree).toBe('function');
  });
});
