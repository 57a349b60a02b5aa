import { endpoints } from '@lms/contract/endpoints';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../test/render';
import { call } from './api-client';

describe('call: an endpoint of the contract through the one client', () => {
  it('fills path parameters, encoded, below the API root', async () => {
    const calls = stubApi({ 'POST /api/v1/user/reset/a%2Fb%20c': { body: { success: true, message: 'ok' } } });
    await call(endpoints.users.reset, { params: { token: 'a/b c' }, body: { password: 'secret#1' } }, { fallback: 'x' });
    expect(calls[0]!.url).toBe('/api/v1/user/reset/a%2Fb%20c');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ password: 'secret#1' });
  });

  it('sends the query fields in order, leaving out the empty ones', async () => {
    const calls = stubApi({ 'GET /api/v1/courses?category=Data+%26+AI&page=2&limit=12': { body: { success: true, message: 'ok', courses: [] } } });
    await call(endpoints.courses.list, { query: { search: '', category: 'Data & AI', page: 2, limit: 12 } }, { fallback: 'x' });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/courses?category=Data+%26+AI&page=2&limit=12']);
  });

  it('refuses to send a call whose path lacks a parameter', () => {
    expect(() => call(endpoints.courses.delete, { params: { id: undefined as unknown as string } }, { fallback: 'x' })).toThrow(
      'DELETE /courses/:id: no value for :id',
    );
  });
});
