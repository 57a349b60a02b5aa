import { describe, expect, it } from 'vitest';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import { selectCourseList } from '../features/courses';
import { selectLectures } from '../features/lectures';
import { selectStats } from '../features/stats';
import { serverState } from '../lib/server-state';
import { stubApi } from '../test/render';
import { createStore } from './store';

const course: Course = {
  _id: '00000000-0000-4000-8000-000000000001',
  title: 'Rust',
  description: 'Fearless.',
  category: 'Systems',
  createdBy: 'Ravi Kumar',
  thumbnail: { secure_url: '/media/thumbnails/1.webp' },
  numbersOfLectures: 1,
  totalDuration: null,
  state: 'published',
  publishAt: null,
};
const lecture = { _id: '00000000-0000-4000-8000-0000000000a1', title: 'Lesson 1', description: 'First', secure_url: '/media/1.mp4' } as Lecture;

/** An endpoint of the cache by name: each feature injects its own, which the base's type does not list. */
const start = (name: string, arg: unknown) =>
  (serverState.endpoints as unknown as Record<string, { initiate: (arg: unknown) => Parameters<ReturnType<typeof createStore>['dispatch']>[0] }>)[
    name
  ]!.initiate(arg);

describe("the spec's state areas, read from the cache", () => {
  it('gives the course list, the lectures and the statistics that arrived last, and empty ones before', async () => {
    const store = createStore();
    expect(selectCourseList(store.getState())).toEqual([]);
    expect(selectLectures(store.getState())).toEqual([]);
    expect(selectStats(store.getState())).toEqual({ allUsersCount: 0, subscribedCount: 0 });

    stubApi({
      'GET /api/v1/courses?page=1&limit=12': { body: { success: true, message: 'ok', courses: [course], total: 1, page: 1, limit: 12 } },
      [`GET /api/v1/courses/${course._id}`]: { body: { success: true, message: 'ok', lectures: [lecture] } },
      'GET /api/v1/admin/status/users': { body: { success: true, message: 'ok', allUsersCount: 7, subscribedUsersCount: 3 } },
    });
    await store.dispatch(start('getCourses', { page: 1, limit: 12 }));
    await store.dispatch(start('getLectures', course._id));
    await store.dispatch(start('getUserStats', undefined));

    expect(selectCourseList(store.getState())).toEqual([course]);
    expect(selectLectures(store.getState())).toEqual([lecture]);
    expect(selectStats(store.getState())).toEqual({ allUsersCount: 7, subscribedCount: 3 });
  });
});
