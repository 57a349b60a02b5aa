import { act, render, screen } from '@testing-library/react';
import { endpoints } from '@lms/contract/endpoints';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStore } from '../app/store';
import { stubApi } from '../test/render';
import { usePublicAnswer } from './public-answer';
import { viewerChanged } from './viewer';

const LIST = 'GET /api/v1/courses?page=1&limit=3';
const list = (title: string) => ({ body: { success: true, message: 'ok', courses: [{ title }], total: 1, page: 1, limit: 3 } });

/** The first course's title once the answer is there, "loading" before, "failed" after a failure, with a way to ask again. */
function Newest() {
  const { data, isLoading, isError, refetch } = usePublicAnswer(
    endpoints.courses.list,
    { query: { page: 1, limit: 3 } },
    { fallback: 'no courses', quiet: true },
  );
  return (
    <>
      <p>{isLoading ? 'loading' : isError ? 'failed' : data?.courses[0]?.title}</p>
      <button type="button" onClick={() => void refetch()}>
        again
      </button>
    </>
  );
}

const show = (store: ReturnType<typeof createStore>) =>
  render(
    <Provider store={store}>
      <Newest />
    </Provider>,
  );

afterEach(() => vi.restoreAllMocks());

describe('a public read on a visitor’s page', () => {
  it('shows the answer kept for the page at once when the visitor comes back within a minute, without asking again', async () => {
    const calls = stubApi({ [LIST]: list('Course 1') });
    const store = createStore();
    const first = show(store);
    expect(screen.getByText('loading')).toBeInTheDocument();
    await screen.findByText('Course 1');
    first.unmount();

    stubApi({ [LIST]: list('Course 2') });
    show(store);
    expect(screen.getByText('Course 1')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it('asks again once the kept answer is a minute old, after someone signed in or out, and for a new store', async () => {
    stubApi({ [LIST]: list('Course 1') });
    const store = createStore();
    show(store).unmount();
    await act(async () => undefined);

    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    stubApi({ [LIST]: list('Course 2') });
    const aged = show(store);
    expect(screen.getByText('loading')).toBeInTheDocument();
    await screen.findByText('Course 2');
    aged.unmount();

    act(() => void store.dispatch(viewerChanged()));
    stubApi({ [LIST]: list('Course 3') });
    const signedOut = show(store);
    expect(screen.getByText('loading')).toBeInTheDocument();
    await screen.findByText('Course 3');
    signedOut.unmount();

    stubApi({ [LIST]: list('Course 4') });
    show(createStore());
    expect(screen.getByText('loading')).toBeInTheDocument();
    await screen.findByText('Course 4');
  });

  it('says a read failed, and asks again when told to', async () => {
    stubApi({ [LIST]: { status: 500, body: { success: false, message: 'down' } } });
    const { getByRole } = show(createStore());
    await screen.findByText('failed');

    stubApi({ [LIST]: list('Course 1') });
    act(() => getByRole('button', { name: 'again' }).click());
    expect(screen.getByText('loading')).toBeInTheDocument();
    await screen.findByText('Course 1');
  });
});
