import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@lms/contract/messages';
import { routes } from './router';
import { createStore } from './store';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the first page of a visit', () => {
  it("paints the layout at once, holds the page's place while its chunk loads, then shows it, without React Router's warning", async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const router = createMemoryRouter(routes, { initialEntries: ['/denied'] });
    render(
      <Provider store={createStore()}>
        <RouterProvider router={router} />
      </Provider>,
    );

    // Before the lazy page has arrived: the navigation bar and the footer are there, the page's place is busy.
    expect(router.state.initialized).toBe(false);
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).queryByRole('heading')).not.toBeInTheDocument();
    expect(screen.getByRole('main').querySelector('[aria-busy="true"]')).not.toBeNull();

    expect(await screen.findByRole('heading', { level: 1, name: messages.accessDenied })).toBeInTheDocument();
    expect(screen.getByRole('main').querySelector('[aria-busy="true"]')).toBeNull();
    const said = [...warn.mock.calls, ...error.mock.calls].map((args) => args.map(String).join(' '));
    expect(said.filter((line) => /HydrateFallback/.test(line))).toEqual([]);
  });
});
