import { endpoints } from '@lms/contract/endpoints';
import { PAGE_ANSWERS_ID } from '@lms/contract/pages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/render';

const me = { success: true, message: 'ok', user: { _id: 'u1', fullName: 'Sent with the page' } };
const fromNetwork = { success: true, message: 'ok', user: { _id: 'u1', fullName: 'From the network' } };

/** The page as the server sends it to a signed-in viewer, then the client as it loads (its answers are read on first use). */
async function loadPage(answers: Record<string, unknown> | string | null) {
  document.getElementById(PAGE_ANSWERS_ID)?.remove();
  if (answers !== null) {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = PAGE_ANSWERS_ID;
    script.textContent = typeof answers === 'string' ? answers : JSON.stringify(answers);
    document.body.append(script);
  }
  vi.resetModules();
  return (await import('./api-client')).call;
}

describe('the answers a page was sent with', () => {
  let calls: ReturnType<typeof stubApi>;
  beforeEach(() => {
    calls = stubApi({
      'GET /api/v1/user/me': { body: fromNetwork },
      'PUT /api/v1/certificates/name': { body: { success: true, message: 'ok', certificates: [] } },
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    document.getElementById(PAGE_ANSWERS_ID)?.remove();
  });

  it("answer the page's first read of their URL without a request, and leave the next one to the API", async () => {
    const call = await loadPage({ '/user/me': me });
    expect(await call(endpoints.users.me, {}, { fallback: 'x' })).toEqual(me);
    expect(calls).toEqual([]);
    // Read once from the document, which no longer holds them.
    expect(document.getElementById(PAGE_ANSWERS_ID)).toBeNull();
    expect(await call(endpoints.users.me, {}, { fallback: 'x' })).toEqual(fromNetwork);
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/user/me']);
  });

  it('are dropped by a write: what it changed is asked of the API', async () => {
    const call = await loadPage({ '/user/me': me });
    await call(endpoints.certificates.chooseName, { body: { name: 'Asha Verma' } } as never, { fallback: 'x' });
    expect(await call(endpoints.users.me, {}, { fallback: 'x' })).toEqual(fromNetwork);
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual(['PUT /api/v1/certificates/name', 'GET /api/v1/user/me']);
  });

  it('are dropped when the viewer changes (signed out, or another account signed in)', async () => {
    const call = await loadPage({ '/user/me': me });
    await import('./server-state');
    const [{ createStore }, { viewerChanged }] = await Promise.all([import('../app/store'), import('./viewer')]);
    createStore().dispatch(viewerChanged());
    expect(await call(endpoints.users.me, {}, { fallback: 'x' })).toEqual(fromNetwork);
  });

  it('stand in only for the first moments of the page: a read long after it loaded asks the API', async () => {
    const call = await loadPage({ '/user/me': me });
    vi.spyOn(performance, 'now').mockReturnValue(10 * 60 * 1000);
    expect(await call(endpoints.users.me, {}, { fallback: 'x' })).toEqual(fromNetwork);
  });

  it.each([
    ['no answers (a visitor’s page)', null],
    ['answers cut short', '{"/user/me": {"succ'],
  ])('leave every read to the API in a page with %s', async (_what, answers) => {
    const call = await loadPage(answers);
    expect(await call(endpoints.users.me, {}, { fallback: 'x' })).toEqual(fromNetwork);
    expect(calls).toHaveLength(1);
  });
});
