import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiEndpoints } from '@lms/contract/api';
import { API_PREFIX } from '@lms/contract/http';
import type { TestApp } from './test/app.ts';

/** `GET /api/v1/courses/:id`: the form both the table and Fastify's routes are compared in. */
const routeOf = (method: string, url: string) => `${method} ${url}`;

/** Every route any app of this file registers, seen by an onRoute hook added as the app is made. */
const registered = vi.hoisted(() => [] as { method: RouteOptions['method']; url: string }[]);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const create = actual.default as unknown as (...args: unknown[]) => FastifyInstance;
  const fastify = (...args: unknown[]) => {
    const app = create(...args);
    app.addHook('onRoute', (route) => void registered.push({ method: route.method, url: route.url }));
    return app;
  };
  return { ...actual, default: Object.assign(fastify, actual.default), fastify };
});

let t: TestApp;
beforeAll(async () => {
  // Test files share their modules (isolate: false): the app must be built from a fresh import of
  // everything, so that its Fastify is the one mocked above.
  vi.resetModules();
  const { createTestApp } = await import('./test/app.ts');
  t = await createTestApp();
  await t.app.ready();
});
afterAll(() => t?.close());

describe('the contract and the server', () => {
  const table = apiEndpoints.flatMap((endpoint) => endpoint.methods.map((method) => routeOf(method, `${API_PREFIX}${endpoint.path}`)));
  /** The API's routes, each method apart; Fastify adds a HEAD beside every GET by itself. */
  const api = () =>
    registered
      .filter((route) => route.url.startsWith(`${API_PREFIX}/`))
      .flatMap((route) =>
        (Array.isArray(route.method) ? route.method : [route.method]).filter((method) => method !== 'HEAD').map((method) => routeOf(method, route.url)),
      );

  it('sees the routes as they are registered', () => {
    expect(api()).toContain(routeOf('GET', `${API_PREFIX}/courses`));
  });

  it('lists each endpoint once', () => {
    expect(new Set(table).size).toBe(table.length);
  });

  it('registers a route for every endpoint of the table', () => {
    expect(table.filter((route) => !api().includes(route))).toEqual([]);
  });

  it('registers no API route that the table does not list', () => {
    expect(api().filter((route) => !table.includes(route))).toEqual([]);
  });

  it('describes every endpoint at /api/docs, from the same table', async () => {
    const spec = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => routeOf(method.toUpperCase(), path.replace(/\{(\w+)\}/g, ':$1'))),
    );
    expect(table.filter((route) => !documented.includes(route))).toEqual([]);
  });
});
