import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { TITLE_MAX, type Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { findPlayer, findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
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
  totalDuration: null,
  state: 'published',
  publishAt: null,
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
    // Announced to screen readers, in English.
    expect(screen.getByText('1 course found')).toBeInTheDocument();
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
  const lessons = [
    {
      _id: '20000000-0000-4000-8000-000000000001',
      title: 'Welcome',
      description: 'What the course holds.',
      duration: 8,
      preview: true,
      secure_url: '/media/videos/1.mp4?viewer=any&sig=x',
    },
    { _id: '20000000-0000-4000-8000-000000000002', title: 'Closures', description: 'Functions that remember.', duration: 754, preview: false },
    { _id: '20000000-0000-4000-8000-000000000003', title: 'Modules', description: 'Not measured yet.', duration: null, preview: false },
  ];
  const curriculumOf = (c: Course, lectures = lessons) => ({
    body: { success: true, message: 'Course curriculum', course: c, lectures, lectureCount: lectures.length, totalDuration: 762 },
  });
  const plan = { body: { success: true, message: 'Subscription plan', price: 99, currency: 'INR', refundWindowDays: 14 } };
  const curriculumUrl = (c: Course) => `GET /api/v1/courses/${c._id}/curriculum`;

  const open = (state: Course | null, search = '') => {
    const view = renderPage(<CourseDescriptionPage />, { path: '/course/description' });
    void view.router.navigate(`/course/description${search}`, { state });
    return view;
  };

  beforeEach(() => {
    HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
    HTMLMediaElement.prototype.pause = vi.fn();
  });

  it('opened by its link alone: placeholders, then the course, its curriculum with lengths and previews, and the price card', async () => {
    let answer!: () => void;
    const arrived = new Promise<void>((resolve) => (answer = resolve));
    stubApi({ 'GET /api/v1/payments/plan': plan });
    const stubbed = globalThis.fetch;
    globalThis.fetch = (async (url: string, init?: RequestInit) => {
      if (url !== `/api/v1/courses/${course(5)._id}/curriculum`) return stubbed(url, init);
      await arrived;
      return new Response(JSON.stringify(curriculumOf(course(5, { description: 'Line one.\nLine two.' })).body), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const { container } = open(null, `?id=${course(5)._id}`);
    await vi.waitFor(() => expect(container.querySelector('article[aria-busy="true"] .skeleton')).toBeInTheDocument());
    expect(screen.queryByRole('heading', { level: 1 })).not.toBeInTheDocument();
    answer();

    expect(await screen.findByRole('heading', { level: 1, name: 'Course 5' })).toBeInTheDocument();
    await vi.waitFor(() => expect(document.title).toBe('Course 5 · LMS'));
    expect(screen.getAllByText('Teacher 5').length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Web' })).toHaveAttribute('href', '/courses?category=Web');
    expect(screen.getByText(/Line one\.\s+Line two\./)).toBeInTheDocument();

    const content = screen.getByRole('region', { name: messages.courseContent });
    expect(within(content).getByText('3 lectures · 13m total length')).toBeInTheDocument();
    const rows = within(content).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      `${messages.playPreview}: Welcome${messages.previewBadge}0:08`,
      `Closures (${messages.forSubscribers})12:34`,
      `Modules (${messages.forSubscribers})`,
    ]);

    const card = screen.getByRole('region', { name: 'Subscription Bundle' });
    expect(await within(card).findByText('₹99')).toBeInTheDocument();
    expect(within(card).getByText(messages.perMonth)).toBeInTheDocument();
    expect(within(card).getByText(messages.refundPlain(14))).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: messages.watchLectures })).not.toBeInTheDocument();
    expect(container.querySelector('[aria-busy="true"]')).not.toBeInTheDocument();
  });

  it("offers 'Subscribe' (to /checkout) to a visitor or an unsubscribed user", async () => {
    stubApi({ [curriculumUrl(course(1))]: curriculumOf(course(1)), 'GET /api/v1/payments/plan': plan });
    const { user: clicker, router } = open(course(1), `?id=${course(1)._id}`);
    expect(await screen.findByRole('heading', { name: 'Course 1' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: messages.watchLectures })).not.toBeInTheDocument();
    await clicker.click(screen.getByRole('button', { name: messages.subscribe }));
    expect(router.state.location.pathname).toBe('/checkout');
  });

  it('shows a course passed by the catalogue at once, while its curriculum loads', async () => {
    // The curriculum is held until the test lets it go; any other call (the plan) gets no answer at all.
    let answer!: (value: Response) => void;
    const held = new Promise<Response>((resolve) => (answer = resolve));
    globalThis.fetch = ((url: string) => (url.endsWith('/curriculum') ? held : new Promise<Response>(() => undefined))) as typeof fetch;
    open(course(2), `?id=${course(2)._id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Course 2' })).toBeInTheDocument();
    const content = screen.getByRole('region', { name: messages.courseContent });
    expect(within(content).queryByRole('listitem')).not.toBeInTheDocument();
    answer(new Response(JSON.stringify(curriculumOf(course(2)).body), { headers: { 'content-type': 'application/json' } }));
    expect(await within(content).findByText('Closures')).toBeInTheDocument();
  });

  it("offers 'watch lectures' to an active subscriber and to an admin, without a price", async () => {
    for (const who of [sampleUser({ subscription: { status: 'active' } }), sampleUser({ role: 'ADMIN' })]) {
      stubApi({ [curriculumUrl(course(1))]: curriculumOf(course(1)), 'GET /api/v1/payments/plan': plan });
      storeLogin(who);
      const view = open(course(1), `?id=${course(1)._id}`);
      await view.user.click(await screen.findByRole('button', { name: messages.watchLectures }));
      expect(view.router.state.location.pathname).toBe('/course/lecture');
      expect(view.router.state.location.search).toBe(`?id=${course(1)._id}`);
      expect(view.router.state.location.state).toMatchObject({ _id: course(1)._id });
      expect(screen.queryByRole('button', { name: messages.subscribe })).not.toBeInTheDocument();
      expect(screen.queryByText('₹99')).not.toBeInTheDocument();
      view.unmount();
    }
  });

  it("goes to the lectures when 'watch lectures' is pressed before the course has loaded", async () => {
    stubApi({ 'GET /api/v1/payments/plan': plan });
    // The course's curriculum is slow to come: the page knows the course only by the id in its address.
    const answered = globalThis.fetch;
    globalThis.fetch = ((url: string, init?: RequestInit) =>
      url.endsWith('/curriculum') ? new Promise<Response>(() => undefined) : answered(url, init)) as typeof fetch;
    storeLogin(sampleUser({ subscription: { status: 'active' } }));
    const view = open(null, `?id=${course(1)._id}`);
    await view.user.click(await screen.findByRole('button', { name: messages.watchLectures }));
    expect(view.router.state.location.pathname).toBe('/course/lecture');
    expect(view.router.state.location.search).toBe(`?id=${course(1)._id}`);
  });

  it('plays a free preview in a dialog that Escape closes, stopping the video; other lectures do not play', async () => {
    stubApi({ [curriculumUrl(course(1))]: curriculumOf(course(1)), 'GET /api/v1/payments/plan': plan });
    const { user: clicker } = open(null, `?id=${course(1)._id}`);
    await screen.findByRole('heading', { level: 1, name: 'Course 1' });
    expect(screen.queryByRole('button', { name: /Closures/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Modules/ })).not.toBeInTheDocument();

    await clicker.click(screen.getByRole('button', { name: `${messages.playPreview}: Welcome` }));
    // The dialog and its player load when a preview is first opened.
    const dialog = await screen.findByRole('dialog', { name: 'Course 1' });
    const video = within(dialog).getByLabelText(messages.previewFor('Welcome'));
    expect(video).toHaveAttribute('src', lessons[0]!.secure_url);
    await vi.waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalled());

    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();

    // The cover plays the first preview too, and the close button closes it.
    await clicker.click(screen.getByRole('button', { name: messages.previewThisCourse }));
    expect(within(await screen.findByRole('dialog')).getByLabelText(messages.previewFor('Welcome'))).toBeInTheDocument();
    await clicker.click(screen.getByRole('button', { name: messages.closePreview }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("keeps a signed-in visitor's place in a free preview: resumed where they stopped, saved when they pause", async () => {
    storeLogin(sampleUser());
    const welcome = lessons[0]!;
    const calls = stubApi({
      [curriculumUrl(course(1))]: curriculumOf(course(1), [{ ...welcome, duration: 600 }, ...lessons.slice(1)]),
      'GET /api/v1/payments/plan': plan,
      'GET /api/v1/progress': { body: { success: true, message: 'ok', courses: [], settings: { autoplayNext: true } } },
      [`GET /api/v1/progress/courses/${course(1)._id}`]: {
        body: {
          success: true,
          message: 'ok',
          course: null,
          lectures: [{ lectureId: welcome._id, position: 125, watched: 125, completed: false, completedAt: null, updatedAt: '2026-11-20T10:00:00.000Z' }],
          settings: { autoplayNext: true },
        },
      },
      [`POST /api/v1/progress/lectures/${welcome._id}`]: { body: { success: true, message: answers.progressSaved } },
    });
    const { user: clicker } = open(null, `?id=${course(1)._id}`);
    await screen.findByRole('heading', { level: 1, name: 'Course 1' });
    await clicker.click(screen.getByRole('button', { name: `${messages.playPreview}: Welcome` }));
    const video = await findPlayer(messages.previewFor('Welcome'), await screen.findByRole('dialog'));
    act(() => void video.dispatchEvent(new Event('loadedmetadata')));
    expect(video.currentTime).toBe(125);

    video.currentTime = 140;
    act(() => void video.dispatchEvent(new Event('seeked')));
    act(() => void video.dispatchEvent(new Event('pause')));
    await vi.waitFor(() => expect(calls.some((call) => call.init.method === 'POST')).toBe(true));
    expect(JSON.parse(calls.find((call) => call.init.method === 'POST')!.init.body as string)).toMatchObject({ position: 140 });
  });

  it('says plainly that an unknown course is not there, with the way to the catalogue, and no error toast', async () => {
    const id = '00000000-0000-4000-8000-0000000000ff';
    stubApi({
      [`GET /api/v1/courses/${id}/curriculum`]: { status: 404, body: { success: false, message: messages.courseNotFound } },
      'GET /api/v1/payments/plan': plan,
    });
    const { router } = open(null, `?id=${id}`);
    expect(await screen.findByRole('heading', { level: 1, name: messages.courseNotFound })).toBeInTheDocument();
    expect(screen.getByText(messages.courseNotFoundText)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.browseCourses })).toHaveAttribute('href', '/courses');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(document.title).toBe(`${messages.courseNotFound} · LMS`);
    expect(router.state.location.pathname).toBe('/course/description');
  });

  it('offers to try again when the server fails, and shows the course when it answers', async () => {
    let fail = true;
    stubApi({
      [curriculumUrl(course(3))]: () => (fail ? { status: 500, body: {} } : curriculumOf(course(3))),
      'GET /api/v1/payments/plan': plan,
    });
    const { user: clicker } = open(null, `?id=${course(3)._id}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(messages.courseLoadFailed);
    fail = false;
    await clicker.click(within(alert).getByRole('button', { name: messages.tryAgain }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Course 3' })).toBeInTheDocument();
  });

  it('goes to /courses without an id', async () => {
    const bare = open(null);
    await vi.waitFor(() => expect(bare.router.state.location.pathname).toBe('/courses'));
  });
});

describe('/course/create', () => {
  const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'cover.png', { type: 'image/png' });
  async function fill(view: ReturnType<typeof renderPage>, values: Record<string, string>, thumbnail = true) {
    for (const [label, value] of Object.entries(values)) await view.user.type(await screen.findByLabelText(label), value);
    if (thumbnail) await view.user.upload(await screen.findByLabelText('Course thumbnail'), png());
  }
  const all = { 'Course title': 'Rust', 'Course instructor': 'Ravi Kumar', 'Course category': 'Systems', 'Course description': 'Fearless.' };

  it("answers 'All fields are mandatory' for any missing field, naming it, sending nothing", async () => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
    for (const missing of [...Object.keys(all), 'Course thumbnail']) {
      const calls = stubApi({});
      const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
      const { [missing]: _, ...rest } = all as Record<string, string>;
      await fill(view, rest, missing !== 'Course thumbnail');
      await view.user.click(screen.getByRole('button', { name: 'Create course' }));
      // Named without the label's "Course": the page is about a course.
      expect(
        await findToast(`${messages.allFieldsMandatory} — ${missing.replace('Course ', '').replace(/^./, (c) => c.toUpperCase())} is missing`),
      ).toBeInTheDocument();
      expect(calls).toHaveLength(0);
      view.unmount();
      toast.remove();
    }
  });

  it('names every field left empty, in the order of the form', async () => {
    const calls = stubApi({});
    const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
    await fill(view, { 'Course instructor': 'Ravi Kumar', 'Course description': 'Fearless.' }, false);
    await view.user.click(screen.getByRole('button', { name: 'Create course' }));
    expect(await findToast(`${messages.allFieldsMandatory} — Thumbnail, Title and Category are missing`)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("shows the thumbnail preview, sends the form and goes to the new course's editor, not the public catalogue", async () => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
    const calls = stubApi({ 'POST /api/v1/courses': { status: 201, body: { success: true, message: 'Course created successfully', course: course(9) } } });
    const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
    await fill(view, all);
    expect(await screen.findByAltText('Preview of the thumbnail')).toHaveAttribute('src', 'blob:preview');
    await view.user.click(screen.getByRole('button', { name: 'Create course' }));
    // The editor, where its lectures are added and it is published: the course in the address (a reload finds it) and passed along.
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/course/edit'));
    expect(view.router.state.location.search).toBe(`?id=${course(9)._id}`);
    expect(view.router.state.location.state).toEqual(course(9));
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

  it('counts the title as it is typed, and says so clearly once it is longer than the limit, cutting nothing', async () => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
    const calls = stubApi({});
    const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
    const title = await screen.findByLabelText('Course title');
    expect(title).toHaveAccessibleDescription(`0/${TITLE_MAX} characters`);
    await view.user.type(title, 'Rust for people in a hurry');
    expect(title).toHaveAccessibleDescription(`26/${TITLE_MAX} characters`);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await view.user.click(title);
    await view.user.paste('x'.repeat(TITLE_MAX - 26 + 3));
    expect(title).toHaveValue(`Rust for people in a hurry${'x'.repeat(TITLE_MAX - 26 + 3)}`);
    expect(screen.getByRole('alert')).toHaveTextContent(`${messages.titleTooLong} (3 characters too many)`);
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(`${TITLE_MAX + 3}/${TITLE_MAX}`)).toBeInTheDocument();

    await fill(view, { 'Course instructor': 'Ravi', 'Course category': 'Systems', 'Course description': 'Fast.' });
    await view.user.click(screen.getByRole('button', { name: 'Create course' }));
    expect(await findToast(messages.titleTooLong)).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await view.user.type(title, '{Backspace}{Backspace}{Backspace}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(title).toHaveAccessibleDescription(`${TITLE_MAX}/${TITLE_MAX} characters`);
  });

  it('refuses a picture over the size limit when it is picked, before any upload, and says the limit beforehand', async () => {
    URL.createObjectURL = () => 'blob:preview';
    URL.revokeObjectURL = () => undefined;
    const calls = stubApi({});
    const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
    const input = await screen.findByLabelText('Course thumbnail');
    expect(input).toHaveAccessibleDescription(messages.thumbnailHint('5 MB'));
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await view.user.upload(input, new File([big], 'poster.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.pickedFileRefused('poster.png', messages.imageTooLarge('5 MB', '6 MB')));
    expect(screen.queryByAltText('Preview of the thumbnail')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('refuses a picked file that is not a jpeg or png at once, under the input, and keeps the previous thumbnail', async () => {
    let urls = 0;
    URL.createObjectURL = () => `blob:preview-${++urls}`;
    URL.revokeObjectURL = () => undefined;
    const view = renderPage(<CreateCoursePage />, { path: '/course/create' });
    const input = await screen.findByLabelText('Course thumbnail');
    await view.user.upload(input, png());
    expect(await screen.findByAltText('Preview of the thumbnail')).toHaveAttribute('src', 'blob:preview-1');

    // A PDF named and typed as a picture: its first bytes give it away.
    const disguised = new File([new TextEncoder().encode('%PDF-1.7 not a picture')], 'notes.png', { type: 'image/png' });
    await view.user.upload(input, disguised);
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent(messages.pickedFileRefused('notes.png', messages.thumbnailType));
    expect(input).toHaveAccessibleDescription(messages.pickedFileRefused('notes.png', messages.thumbnailType));
    expect(screen.getByAltText('Preview of the thumbnail')).toHaveAttribute('src', 'blob:preview-1');

    // One whose type says what it is (picked with the file dialog showing all files), refused without reading it.
    await userEvent.setup({ applyAccept: false }).upload(input, new File(['%PDF'], 'notes.pdf', { type: 'application/pdf' }));
    await vi.waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('“notes.pdf” was not used'));

    // A good picture clears the message.
    await view.user.upload(input, png());
    await vi.waitFor(() => expect(screen.getByAltText('Preview of the thumbnail')).toHaveAttribute('src', 'blob:preview-2'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
