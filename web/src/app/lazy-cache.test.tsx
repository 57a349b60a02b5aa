import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryRouter, stubApi } from '../test/render';
import { createStore } from './store';

// As in the browser: the store is made with the first chunk; the cache arrives later with a page's chunk.
// Nothing in this file imports a page or the cache before the store exists.

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the server-state cache, loaded after the store', () => {
  it('serves the first page that needs it, without errors in the console', async () => {
    const errors = vi.spyOn(console, 'error');
    const store = createStore();
    expect(store.getState()).not.toHaveProperty('api');

    const { default: CourseListPage } = await import('../features/courses/CourseListPage');
    const course = {
      _id: '00000000-0000-4000-8000-000000000001',
      title: 'Rust',
      description: 'Fearless.',
      category: 'Systems',
      createdBy: 'Ravi Kumar',
      thumbnail: { secure_url: '/media/thumbnails/1.webp' },
      numbersOfLectures: 2,
    };
    const page = { success: true, message: 'ok', courses: [course], total: 1, page: 1, limit: 12 };
    stubApi({ 'GET /api/v1/courses?page=1&limit=12': { body: page }, 'GET /api/v1/courses?limit=100': { body: { ...page, limit: 100 } } });
    const { routed } = memoryRouter([{ path: '/courses', element: <CourseListPage /> }], '/courses');
    render(<Provider store={store}>{routed}</Provider>);

    expect(await screen.findByRole('button', { name: 'Rust' })).toBeInTheDocument();
    expect(errors).not.toHaveBeenCalled();
  });
});
