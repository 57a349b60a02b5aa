import { screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { describe, expect, it, vi } from 'vitest';
import type { Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { userLoaded } from '../auth/auth.slice';
import { renderPage, sampleUser, stubApi } from '../../test/render';
import CourseDescriptionPage from './CourseDescriptionPage';
import CourseListPage from './CourseListPage';
import CreateCoursePage from './CreateCoursePage';

const course = (n: number, overrides: Partial<Course> = {}): Course => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  title: `Course ${n}`,
  description: `About course ${n}`,
  category: n % 2 ? 'Web' : 'Data',
  createdBy: `Teacher ${n}`,
  thumbnail: { secure_url: `/media/thumbnails/${n}.webp` },
  numbersOfLectures: n,
  ...overrides,
});
const list = (courses: Course[], total = courses.length) => ({ body: { success: true, message: 'ok', courses, total, page: 1, limit: 12 } });

describe('/courses', () => {
  it('shows a card per course with its details, and opens the description with the course', async () => {
    stubApi({ 'GET /api/v1/courses?page=1&limit=12': list([course(1), course(2)]), 'GET /api/v1/courses?limit=100': list([course(1), course(2)]) });
    const { user: clicker, router } = renderPage(<CourseListPage />, { path: '/courses' });
    const first = (await screen.findByRole('button', { name: 'Course 1' })).closest('article')!;
    expect(within(first).getByText('About course 1')).toBeInTheDocument();
    expect(within(first).getByText('Web')).toBeInTheDocument();
    expect(within(first).getByText('Teacher 1')).toBeInTheDocument();
    expect(within(first).getByText('1')).toBeInTheDocument();
    await clicker.click(screen.getByRole('button', { name: 'Course 2' }));
    expect(router.state.location.pathname).toBe('/course/description');
    expect(router.state.location.search).toBe(`?id=${course(2)._id}`);
    expect(router.state.location.state).toMatchObject({ title: 'Course 2' });
  });

  it('keeps the place of the cards with placeholders while the first page loads', async () => {
    stubApi({ 'GET /api/v1/courses?page=1&limit=12': list([course(1)]), 'GET /api/v1/courses?limit=100': list([course(1)]) });
    renderPage(<CourseListPage />, { path: '/courses' });
    expect(screen.getAllByTestId('course-placeholder')).toHaveLength(6);
    await screen.findByRole('button', { name: 'Course 1' });
    expect(screen.queryAllByTestId('course-placeholder')).toHaveLength(0);
  });

  it('searches, filters by category and pages through the server', async () => {
    const calls = stubApi({
      'GET /api/v1/courses?page=1&limit=12': list([course(1)], 30),
      'GET /api/v1/courses?limit=100': list([course(1), course(2)]),
      'GET /api/v1/courses?search=rust&page=1&limit=12': list([course(3, { title: 'Rust' })], 1),
      'GET /api/v1/courses?search=rust&category=Data&page=1&limit=12': list([], 0),
      'GET /api/v1/courses?page=2&limit=12': list([course(4)], 30),
    });
    const { user: typist } = renderPage(<CourseListPage />, { path: '/courses' });
    await screen.findByRole('button', { name: 'Course 1' });
    await typist.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('button', { name: 'Course 4' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    await typist.type(screen.getByRole('searchbox', { name: 'Search courses' }), 'rust');
    await typist.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('button', { name: 'Rust' })).toBeInTheDocument();
    await typist.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'Data');
    expect(await screen.findByText('No courses match your search.')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain('/api/v1/courses?search=rust&category=Data&page=1&limit=12');
  });

  it("shows 'Failed to get the courses' when the server gives no reason", async () => {
    stubApi({ 'GET /api/v1/courses?page=1&limit=12': { status: 500, body: {} }, 'GET /api/v1/courses?limit=100': list([]) });
    renderPage(<CourseListPage />, { path: '/courses' });
    expect(await screen.findByText(messages.failedGetCourses)).toBeInTheDocument();
  });
});

describe('/course/description', () => {
  const open = (state: Course | null, search = '') => {
    const view = renderPage(<CourseDescriptionPage />, { path: '/course/description' });
    view.router.navigate(`/course/description${search}`, { state });
    return view;
  };

  it("offers 'Subscribe' (to /checkout) to a visitor or an unsubscribed user", async () => {
    const { user: clicker, router } = open(course(1));
    expect(await screen.findByRole('heading', { name: 'Course 1' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: messages.watchLectures })).not.toBeInTheDocument();
    await clicker.click(screen.getByRole('button', { name: messages.subscribe }));
    expect(router.state.location.pathname).toBe('/checkout');
  });

  it("offers 'watch lectures' to an active subscriber and to an admin", async () => {
    for (const who of [sampleUser({ subscription: { status: 'active' } }), sampleUser({ role: 'ADMIN' })]) {
      const view = open(course(1));
      view.store.dispatch(userLoaded(who));
      await view.user.click(await screen.findByRole('button', { name: messages.watchLectures }));
      expect(view.router.state.location.pathname).toBe('/course/lecture');
      expect(view.router.state.location.state).toMatchObject({ _id: course(1)._id });
      view.unmount();
    }
  });

  it('fetches the course by the id in the address when opened directly, and goes to /courses without one', async () => {
    stubApi({ [`GET /api/v1/courses?id=${course(5)._id}`]: list([course(5)]) });
    open(null, `?id=${course(5)._id}`);
    expect(await screen.findByRole('heading', { name: 'Course 5' })).toBeInTheDocument();

    const bare = open(null);
    await vi.waitFor(() => expect(bare.router.state.location.pathname).toBe('/courses'));
  });
});

describe('/course/create', () => {
  const png = () => new File([new Uint8Array([137, 80, 78, 71])], 'cover.png', { type: 'image/png' });
  async function fill(view: ReturnType<typeof renderPage>, values: Record<string, string>, thumbnail = true) {
    for (const [label, value] of Object.entries(values)) await view.user.type(await screen.findByLabelText(label), value);
    if (thumbnail) await view.user.upload(await screen.findByLabelText('Course thumbnail'), png());
  }
  const all = { 'Course title': 'Rust', 'Course instructor': 'Ravi Kumar', 'Course category': 'Systems', 'Course description': 'Fearless.' };

  it("answers 'All fields are mandatory' for any missing field, sending nothing", async () => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
    for (const missing of [...Object.keys(all), 'thumbnail']) {
      const calls = stubApi({});
      const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
      const { [missing]: _, ...rest } = all as Record<string, string>;
      await fill(view, rest, missing !== 'thumbnail');
      await view.user.click(screen.getByRole('button', { name: 'Create course' }));
      expect(await screen.findByText(messages.allFieldsMandatory)).toBeInTheDocument();
      expect(calls).toHaveLength(0);
      view.unmount();
      toast.remove();
    }
  });

  it('shows the thumbnail preview, sends the form and goes to /courses', async () => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
    const calls = stubApi({ 'POST /api/v1/courses': { status: 201, body: { success: true, message: 'Course created successfully', course: course(9) } } });
    const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
    await fill(view, all);
    expect(screen.getByAltText('Preview of the thumbnail')).toHaveAttribute('src', 'blob:preview');
    await view.user.click(screen.getByRole('button', { name: 'Create course' }));
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/courses'));
    const body = calls[0]!.init.body as FormData;
    expect([...body.keys()].sort()).toEqual(['category', 'createdBy', 'description', 'thumbnail', 'title']);
    expect(body.get('createdBy')).toBe('Ravi Kumar');
  });

  it("shows the server's message, or 'Failed to create course'", async () => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
    stubApi({ 'POST /api/v1/courses': { status: 400, body: { success: false, message: 'Thumbnail must be a jpg, jpeg or png image' } } });
    const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
    await fill(view, all);
    await view.user.click(screen.getByRole('button', { name: 'Create course' }));
    expect(await screen.findByText('Thumbnail must be a jpg, jpeg or png image')).toBeInTheDocument();
    view.unmount();

    stubApi({ 'POST /api/v1/courses': { status: 500, body: {} } });
    const again = renderPage(<CreateCoursePage />, { path: '/course/create' });
    await fill(again, all);
    await again.user.click(screen.getByRole('button', { name: 'Create course' }));
    expect(await screen.findByText(messages.failedCreateCourse)).toBeInTheDocument();
  });
});
