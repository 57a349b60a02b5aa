import { act, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Course, Lecture } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import type { User } from '@lms/contract/users';
import { userLoaded } from '../auth/auth.slice';
import { renderPage, stubApi } from '../../test/render';
import AddLecturePage from './AddLecturePage';
import LecturePage from './LecturePage';

const course: Course = {
  _id: '00000000-0000-4000-8000-000000000001',
  title: 'Rust',
  description: 'Fearless.',
  category: 'Systems',
  createdBy: 'Ravi Kumar',
  thumbnail: { secure_url: '/media/thumbnails/1.webp' },
  numbersOfLectures: 2,
};
const lecture = (n: number): Lecture => ({ _id: `20000000-0000-4000-8000-00000000000${n}`, title: `Lesson ${n}`, description: `Part ${n}`, secure_url: `/media/private/videos/${n}.mp4?sig=x`, duration: null });
const admin: User = { _id: '10000000-0000-4000-8000-000000000000', fullName: 'Site Admin', email: 'a@b.co', avatar: { secure_url: '' }, role: 'ADMIN', subscription: { status: 'inactive' } };
const lecturesAnswer = { body: { success: true, message: 'ok', course, lectures: [lecture(1), lecture(2)] } };

function openLectures(who?: User) {
  const view = renderPage(<LecturePage />, { path: '/course/lecture' });
  if (who) view.store.dispatch(userLoaded(who));
  view.router.navigate(`/course/lecture?id=${course._id}`, { state: course });
  return view;
}

beforeEach(() => {
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
});

describe('/course/lecture', () => {
  it('plays the first lecture, and the one selected from the list', async () => {
    stubApi({ [`GET /api/v1/courses/${course._id}`]: lecturesAnswer });
    const { user } = openLectures();
    const player = await screen.findByLabelText('Lecture 1: Lesson 1');
    expect(player).toHaveAttribute('src', lecture(1).secure_url);
    await user.click(screen.getByRole('button', { name: /Lesson 2/ }));
    expect(await screen.findByLabelText('Lecture 2: Lesson 2')).toHaveAttribute('src', lecture(2).secure_url);
    expect(screen.getByRole('button', { name: /Lesson 2/ })).toHaveAttribute('aria-current', 'true');
    await vi.waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: messages.addNewLecture })).not.toBeInTheDocument();
  });

  it('changes the playback speed', async () => {
    stubApi({ [`GET /api/v1/courses/${course._id}`]: lecturesAnswer });
    const { user } = openLectures();
    const player = (await screen.findByLabelText('Lecture 1: Lesson 1')) as HTMLVideoElement;
    await user.selectOptions(screen.getByRole('combobox', { name: 'Speed' }), '1.5');
    expect(player.playbackRate).toBe(1.5);
  });

  it('says so and offers the checkout when the server refuses', async () => {
    stubApi({ [`GET /api/v1/courses/${course._id}`]: { status: 403, body: { success: false, message: 'Subscribe to watch the lectures of this course' } } });
    openLectures({ ...admin, role: 'USER' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Subscribe to watch the lectures of this course');
    expect(screen.getByRole('link', { name: messages.subscribe })).toHaveAttribute('href', '/checkout');
  });

  it('goes to /courses when no course was passed', async () => {
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/courses'));
  });

  it('lets an admin add a lecture, and delete one after confirming', async () => {
    const calls = stubApi({
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer,
      [`DELETE /api/v1/courses?courseId=${course._id}&lectureId=${lecture(1)._id}`]: { body: { success: true, message: 'Lecture deleted successfully', course: { ...course, lectures: [lecture(2)] } } },
    });
    const { user, router } = openLectures(admin);
    await screen.findByLabelText('Lecture 1: Lesson 1');
    window.confirm = vi.fn(() => false);
    await user.click(screen.getByRole('button', { name: `${messages.deleteLecture}: Lesson 1` }));
    expect(calls.filter((c) => c.init.method === 'DELETE')).toHaveLength(0);
    window.confirm = vi.fn(() => true);
    await user.click(screen.getByRole('button', { name: `${messages.deleteLecture}: Lesson 1` }));
    expect(await screen.findByLabelText('Lecture 1: Lesson 2')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Lesson 1/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: messages.addNewLecture }));
    expect(router.state.location.pathname).toBe('/course/addlecture');
    expect(router.state.location.state).toMatchObject({ _id: course._id });
  });

  it("shows 'failed to delete the lectures' when the server gives no reason", async () => {
    stubApi({ [`GET /api/v1/courses/${course._id}`]: lecturesAnswer, [`DELETE /api/v1/courses?courseId=${course._id}&lectureId=${lecture(1)._id}`]: { status: 500, body: {} } });
    const { user } = openLectures(admin);
    await screen.findByLabelText('Lecture 1: Lesson 1');
    window.confirm = vi.fn(() => true);
    await user.click(screen.getByRole('button', { name: `${messages.deleteLecture}: Lesson 1` }));
    expect(await screen.findByText(messages.failedDeleteLectures)).toBeInTheDocument();
  });
});

/** A stand-in for the browser's XMLHttpRequest: the test decides progress and the answer. */
type ProgressListener = (event: { lengthComputable: boolean; loaded: number; total: number }) => void;

class FakeUpload {
  static last: FakeUpload;
  listeners: Record<string, (() => void)[]> = {};
  progressListeners: ProgressListener[] = [];
  upload = { addEventListener: (_type: string, fn: ProgressListener) => this.progressListeners.push(fn) };
  status = 0;
  response: unknown = null;
  withCredentials = false;
  responseType = '';
  method = '';
  url = '';
  body?: FormData;
  aborted = false;
  constructor() {
    FakeUpload.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  addEventListener(type: string, fn: () => void) {
    (this.listeners[type] ??= []).push(fn);
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.listeners.abort?.forEach((fn) => fn());
  }
  progress(fraction: number) {
    this.progressListeners.forEach((fn) => fn({ lengthComputable: true, loaded: fraction * 1000, total: 1000 }));
  }
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    this.listeners.load?.forEach((fn) => fn());
  }
}

describe('/course/addlecture', () => {
  const mp4 = () => new File([new Uint8Array(64)], 'intro.mp4', { type: 'video/mp4' });
  beforeEach(() => {
    URL.createObjectURL = () => 'blob:video';
    URL.revokeObjectURL = () => undefined;
    globalThis.XMLHttpRequest = FakeUpload as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => toast.remove());

  function openForm() {
    const view = renderPage(<AddLecturePage />, { path: '/course/addlecture' });
    view.router.navigate('/course/lecture', { state: course });
    view.router.navigate(`/course/addlecture?id=${course._id}`, { state: course });
    return view;
  }

  it("answers 'All fields are mandatory' for a missing title, description or video, uploading nothing", async () => {
    for (const missing of ['Title', 'Description', 'Video']) {
      const view = openForm();
      FakeUpload.last = undefined as unknown as FakeUpload;
      if (missing !== 'Title') await view.user.type(await screen.findByLabelText('Title'), 'Intro');
      if (missing !== 'Description') await view.user.type(await screen.findByLabelText('Description'), 'Start here');
      if (missing !== 'Video') await view.user.upload(await screen.findByLabelText('Video'), mp4());
      await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));
      expect(await screen.findByText(messages.allFieldsMandatory)).toBeInTheDocument();
      expect(FakeUpload.last).toBeUndefined();
      view.unmount();
      toast.remove();
    }
  });

  it('previews the video, shows the upload progress, and goes back one page on success', async () => {
    const view = openForm();
    await view.user.type(await screen.findByLabelText('Title'), 'Intro');
    await view.user.type(screen.getByLabelText('Description'), 'Start here');
    await view.user.upload(screen.getByLabelText('Video'), mp4());
    expect(screen.getByLabelText('Preview of the chosen video')).toHaveAttribute('src', 'blob:video');
    await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));

    const upload = FakeUpload.last;
    expect(upload.method).toBe('POST');
    expect(upload.url).toBe(`/api/v1/courses/${course._id}`);
    expect([...upload.body!.keys()].sort()).toEqual(['description', 'lectures', 'title']);
    act(() => upload.progress(0.42));
    expect(await screen.findByText('Uploading… 42%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '42');
    act(() => upload.answer(201, { success: true, message: 'Lecture added successfully', course: { ...course, lectures: [] } }));
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/course/lecture'));
  });

  it('cancels an upload in flight', async () => {
    const view = openForm();
    await view.user.type(await screen.findByLabelText('Title'), 'Intro');
    await view.user.type(screen.getByLabelText('Description'), 'Start here');
    await view.user.upload(screen.getByLabelText('Video'), mp4());
    await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));
    act(() => FakeUpload.last.progress(0.1));
    await view.user.click(await screen.findByRole('button', { name: 'Cancel upload' }));
    expect(FakeUpload.last.aborted).toBe(true);
    expect(await screen.findByText('Upload cancelled')).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/course/addlecture');
  });

  it("shows the server's message, or 'failed to Add the lectures'", async () => {
    const view = openForm();
    await view.user.type(await screen.findByLabelText('Title'), 'Intro');
    await view.user.type(screen.getByLabelText('Description'), 'Start here');
    await view.user.upload(screen.getByLabelText('Video'), mp4());
    await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));
    act(() => FakeUpload.last.answer(500, null));
    expect(await screen.findByText(messages.failedAddLectures)).toBeInTheDocument();
  });
});
