import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { loggedOut } from '../features/auth/auth.slice';
import CourseDescriptionPage from '../features/courses/CourseDescriptionPage';
import CourseListPage from '../features/courses/CourseListPage';
import CreateCoursePage from '../features/courses/CreateCoursePage';
import LecturePage from '../features/lectures/LecturePage';
import { renderPage, sampleUser, storeLogin, stubApi } from '../test/render';
import { leaseAnswers } from '../test/playback';

const course = (n: number): Course => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  title: `Course ${n}`,
  description: `About course ${n}`,
  category: 'Web',
  createdBy: `Teacher ${n}`,
  thumbnail: { secure_url: `/media/thumbnails/${n}.webp` },
  numbersOfLectures: n,
  totalDuration: null,
  state: 'published',
  publishAt: null,
});
const list = (courses: Course[]) => ({ body: { success: true, message: 'ok', courses, total: courses.length, page: 1, limit: 12 } });
const key = (call: { url: string; init: RequestInit }) => `${call.init.method ?? 'GET'} ${call.url}`;
const FIRST_PAGE = 'GET /api/v1/courses?page=1&limit=12';
const CATEGORIES = 'GET /api/v1/courses?limit=100';

describe('the server-state cache', () => {
  it('keeps the catalogue page while one course is fetched by its link, and shows it again at once on the way back', async () => {
    const calls = stubApi({
      [FIRST_PAGE]: list([course(1), course(2)]),
      [CATEGORIES]: list([course(1), course(2)]),
      // The course page reads its course from the public curriculum.
      [`GET /api/v1/courses/${course(3)._id}/curriculum`]: {
        body: { success: true, message: 'ok', course: course(3), lectures: [], lectureCount: 0, totalDuration: null },
      },
    });
    const { router } = renderPage(<CourseListPage />, { path: '/courses', routes: [{ path: '/course/description', element: <CourseDescriptionPage /> }] });
    await screen.findByRole('button', { name: 'Course 2' });

    await act(() => router.navigate(`/course/description?id=${course(3)._id}`));
    expect(await screen.findByRole('heading', { name: 'Course 3' })).toBeInTheDocument();

    await act(() => router.navigate(-1));
    const cards = screen.getAllByRole('listitem').filter((item) => within(item).queryByRole('button'));
    expect(cards.map((item) => within(item).getByRole('button').textContent)).toEqual(['Course 1', 'Course 2']);
    expect(screen.queryAllByTestId('course-placeholder')).toHaveLength(0);
    expect(calls.map(key).filter((call) => call === FIRST_PAGE)).toHaveLength(1);
  });

  it('shows a course the admin has just created when they come back to the catalogue', async () => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
    let created = false;
    stubApi({
      [FIRST_PAGE]: () => list(created ? [course(1), course(9)] : [course(1)]),
      [CATEGORIES]: list([course(1)]),
      'POST /api/v1/courses': () => {
        created = true;
        return { status: 201, body: { success: true, message: 'Course created successfully', course: course(9) } };
      },
    });
    storeLogin(sampleUser({ role: 'ADMIN' }));
    const view = renderPage(<CourseListPage />, {
      path: '/courses',
      routes: [
        { path: '/course/create', element: <CreateCoursePage /> },
        { path: '/course/edit', element: <p>Its editor</p> },
      ],
    });
    await screen.findByRole('button', { name: 'Course 1' });

    await act(() => view.router.navigate('/course/create'));
    const fields = { 'Course title': 'Course 9', 'Course instructor': 'Teacher 9', 'Course category': 'Web', 'Course description': 'About course 9' };
    for (const [label, value] of Object.entries(fields)) await view.user.type(await screen.findByLabelText(label), value);
    await view.user.upload(
      screen.getByLabelText('Course thumbnail'),
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'cover.png', { type: 'image/png' }),
    );
    await view.user.click(screen.getByRole('button', { name: 'Create course' }));

    // The admin lands in its editor first, then comes back to the catalogue.
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/course/edit'));
    await act(() => view.router.navigate('/courses'));
    expect(await screen.findByRole('button', { name: 'Course 9' })).toBeInTheDocument();
  });

  it('drops the lectures a subscriber was given once the session ends, and shows the refusal instead', async () => {
    const lecture: Lecture = {
      _id: '20000000-0000-4000-8000-000000000001',
      sectionId: null,
      title: 'Lesson 1',
      description: 'Part 1',
      secure_url: '/media/private/1.mp4?sig=x',
      duration: 60,
      preview: false,
      processing: { state: 'ready', percent: null, reason: null },
      poster_url: null,
      hls_url: null,
      replacement: null,
    };
    let signedIn = true;
    stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course(1)._id}`]: () =>
        signedIn
          ? { body: { success: true, message: 'ok', course: course(1), lectures: [lecture] } }
          : { status: 401, body: { success: false, message: 'Please log in to continue' } },
    });
    storeLogin(sampleUser({ subscription: { status: 'active' } }));
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    await act(() => view.router.navigate(`/course/lecture?id=${course(1)._id}`, { state: course(1) }));
    await waitFor(() => expect(screen.getByLabelText('Lecture 1: Lesson 1')).toHaveAttribute('src', lecture.secure_url));

    signedIn = false;
    act(() => {
      view.store.dispatch(loggedOut());
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please log in to continue');
    expect(screen.queryByLabelText('Lecture 1: Lesson 1')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it('asks again for a list that failed when the visitor comes back to it', async () => {
    let answers = 0;
    const calls = stubApi({
      [FIRST_PAGE]: () => (++answers === 1 ? { status: 500, body: {} } : list([course(1)])),
      [CATEGORIES]: list([course(1)]),
    });
    const { router } = renderPage(<CourseListPage />, { path: '/courses' });
    expect(await screen.findByText(messages.failedGetCourses)).toBeInTheDocument();
    expect(await screen.findByText('No courses match your search.')).toBeInTheDocument();

    await act(() => router.navigate('/about'));
    await act(() => router.navigate('/courses'));
    expect(await screen.findByRole('button', { name: 'Course 1' })).toBeInTheDocument();
    expect(calls.map(key).filter((call) => call === FIRST_PAGE)).toHaveLength(2);
  });
});
