import { act, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import type { User } from '@lms/contract/users';
import { findPlayer, renderPage, storeLogin, stubApi } from '../../test/render';
import AddLecturePage from './AddLecturePage';
import LecturePage from './LecturePage';
import { progressTexts } from '../progress';
import { FakeUpload } from '../../test/fake-upload';
import { leaseAnswers } from '../../test/playback';
import { sampleCourse, sampleLecture } from '../../test/catalogue';

const course: Course = sampleCourse({ numbersOfLectures: 2 });
const lecture = (n: number): Lecture => sampleLecture(n);
const admin: User = {
  _id: '10000000-0000-4000-8000-000000000000',
  fullName: 'Site Admin',
  email: 'a@b.co',
  avatar: { secure_url: '' },
  role: 'ADMIN',
  subscription: { status: 'inactive' },
};
const lecturesAnswer = { body: { success: true, message: 'ok', course, lectures: [lecture(1), lecture(2)] } };

async function openLectures(who?: User) {
  if (who) storeLogin(who);
  const view = renderPage(<LecturePage />, { path: '/course/lecture' });
  await view.router.navigate(`/course/lecture?id=${course._id}`, { state: course });
  return view;
}

beforeEach(() => {
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
});

describe('/course/lecture', () => {
  it('plays the first lecture, and the one selected from the list', async () => {
    stubApi({ ...leaseAnswers(), [`GET /api/v1/courses/${course._id}`]: lecturesAnswer });
    const { user } = await openLectures();
    // The player gets its source just after it appears (in its effect): waited for, not raced.
    await waitFor(() => expect(screen.getByLabelText('Lecture 1: Lesson 1')).toHaveAttribute('src', lecture(1).secure_url));
    await user.click(screen.getByRole('button', { name: /Lesson 2/ }));
    await waitFor(() => expect(screen.getByLabelText('Lecture 2: Lesson 2')).toHaveAttribute('src', lecture(2).secure_url));
    expect(screen.getByRole('button', { name: /Lesson 2/ })).toHaveAttribute('aria-current', 'true');
    await vi.waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: messages.addNewLecture })).not.toBeInTheDocument();
  });

  it('changes the playback speed', async () => {
    stubApi({ ...leaseAnswers(), [`GET /api/v1/courses/${course._id}`]: lecturesAnswer });
    const { user } = await openLectures();
    const player = await findPlayer('Lecture 1: Lesson 1');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Speed' }), '1.5');
    expect(player.playbackRate).toBe(1.5);
  });

  it('says so and offers the checkout when the server refuses', async () => {
    stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: { status: 403, body: { success: false, message: 'Subscribe to watch the lectures of this course' } },
    });
    await openLectures({ ...admin, role: 'USER' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Subscribe to watch the lectures of this course');
    // The checkout comes back to this course after paying.
    expect(screen.getByRole('link', { name: messages.subscribe })).toHaveAttribute(
      'href',
      `/checkout?from=${encodeURIComponent(`/course/lecture?id=${course._id}`)}`,
    );
  });

  it('goes to /courses when no course was passed', async () => {
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/courses'));
  });

  it('lets an admin add a lecture, and delete one after confirming', async () => {
    const calls = stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer,
      [`DELETE /api/v1/courses?courseId=${course._id}&lectureId=${lecture(1)._id}`]: {
        body: { success: true, message: 'Lecture deleted successfully', course: { ...course, lectures: [lecture(2)] } },
      },
    });
    const { user, router } = await openLectures(admin);
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

  it('shows an admin which lectures are free previews, and switches one on and off through the server', async () => {
    const calls = stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: {
        body: { success: true, message: 'ok', course, lectures: [{ ...lecture(1), preview: true, duration: 75 }, lecture(2)] },
      },
      [`PATCH /api/v1/courses/${course._id}/lectures/${lecture(2)._id}`]: (init) => ({
        body: { success: true, message: answers.lecturePreviewOn, lecture: { ...lecture(2), preview: JSON.parse(String(init.body)).preview } },
      }),
    });
    const { user } = await openLectures(admin);
    const first = await screen.findByRole('checkbox', { name: messages.previewOn('Lesson 1') });
    const second = screen.getByRole('checkbox', { name: messages.previewOn('Lesson 2') });
    expect(first).toBeChecked();
    expect(second).not.toBeChecked();
    expect(screen.getByRole('button', { name: '1. Lesson 1 1:15' })).toBeInTheDocument();
    // The preview lecture's row carries the badge; the other row says the same words quietly.
    const rows = within(screen.getByRole('complementary', { name: 'Lectures list' })).getAllByRole('listitem');
    expect(within(rows[0]!).getByText(messages.freePreview)).toHaveClass('badge');
    expect(within(rows[1]!).getByText(messages.freePreview)).not.toHaveClass('badge');

    await user.click(second);
    await vi.waitFor(() => expect(second).toBeChecked());
    expect(within(rows[1]!).getByText(messages.freePreview)).toHaveClass('badge');
    const patch = calls.find((c) => c.init.method === 'PATCH')!;
    expect(JSON.parse(String(patch.init.body))).toEqual({ preview: true });
    expect(await screen.findByText(answers.lecturePreviewOn)).toBeInTheDocument();

    // Ready again once the list holds the answer.
    await vi.waitFor(() => expect(second).toBeEnabled());
    await user.click(second);
    await vi.waitFor(() => expect(second).not.toBeChecked());
    expect(calls.filter((c) => c.init.method === 'PATCH').map((c) => JSON.parse(String(c.init.body)))).toEqual([{ preview: true }, { preview: false }]);
  });

  it('keeps the switch as it was when the server refuses it', async () => {
    stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer,
      [`PATCH /api/v1/courses/${course._id}/lectures/${lecture(1)._id}`]: { status: 500, body: {} },
    });
    const { user } = await openLectures(admin);
    const toggle = await screen.findByRole('checkbox', { name: messages.previewOn('Lesson 1') });
    await user.click(toggle);
    expect(await screen.findByText(messages.operationFailed)).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
    expect(toggle).toBeEnabled();
  });

  it('moves the switch as it is clicked, before the server answers, and keeps the lecture being watched', async () => {
    // Lecture 2's video is being processed: the admin's list is read again every few seconds.
    const processing = { ...lecture(2), processing: { state: 'processing' as const, percent: 40, reason: null } };
    const calls = stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: { body: { ...lecturesAnswer.body, lectures: [lecture(1), processing] } },
      [`PATCH /api/v1/courses/${course._id}/lectures/${lecture(2)._id}`]: {
        body: { success: true, message: answers.lecturePreviewOn, lecture: { ...lecture(2), preview: true } },
      },
    });
    // The server takes its time over the switch.
    const stubbed = globalThis.fetch;
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
      if (init.method === 'PATCH') await answered;
      return stubbed(url, init);
    }) as typeof fetch;
    const { user } = await openLectures(admin);
    await user.click(await screen.findByRole('button', { name: '2. Lesson 2' }));
    expect(await screen.findByLabelText('Lecture 2: Lesson 2')).toBeInTheDocument();

    const toggle = screen.getByRole('checkbox', { name: messages.previewOn('Lesson 2') });
    await user.click(toggle);
    await vi.waitFor(() => expect(toggle).toBeChecked());
    expect(toggle).toBeDisabled();
    expect(screen.queryByText(answers.lecturePreviewOn)).not.toBeInTheDocument();
    // The list is read again meanwhile, and its answer predates the switch: the switch stays where it was put.
    const reads = () => calls.filter((call) => call.url === `/api/v1/courses/${course._id}` && (call.init.method ?? 'GET') === 'GET').length;
    await vi.waitFor(() => expect(reads()).toBe(2), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toggle).toBeChecked();

    act(() => answer());
    expect(await screen.findByText(answers.lecturePreviewOn)).toBeInTheDocument();
    await vi.waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toBeChecked();
    // Still watching the second lecture: switching a preview is not a new list.
    expect(screen.getByLabelText('Lecture 2: Lesson 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '2. Lesson 2' })).toHaveAttribute('aria-current', 'true');
  });

  it('shows learners no preview switches', async () => {
    stubApi({ ...leaseAnswers(), [`GET /api/v1/courses/${course._id}`]: lecturesAnswer });
    await openLectures({ ...admin, role: 'USER', subscription: { status: 'active' } });
    await screen.findByLabelText('Lecture 1: Lesson 1');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: new RegExp(messages.deleteLecture) })).not.toBeInTheDocument();
  });

  it("shows 'failed to delete the lectures' when the server gives no reason", async () => {
    stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer,
      [`DELETE /api/v1/courses?courseId=${course._id}&lectureId=${lecture(1)._id}`]: { status: 500, body: {} },
    });
    const { user } = await openLectures(admin);
    await screen.findByLabelText('Lecture 1: Lesson 1');
    window.confirm = vi.fn(() => true);
    await user.click(screen.getByRole('button', { name: `${messages.deleteLecture}: Lesson 1` }));
    expect(await screen.findByText(messages.failedDeleteLectures)).toBeInTheDocument();
  });
});

describe('/course/addlecture', () => {
  const mp4 = () => new File([new Uint8Array(64)], 'intro.mp4', { type: 'video/mp4' });
  beforeEach(() => {
    URL.createObjectURL = () => 'blob:video';
    URL.revokeObjectURL = () => undefined;
    FakeUpload.install();
  });
  afterEach(() => toast.remove());

  async function openForm() {
    const view = renderPage(<AddLecturePage />, { path: '/course/addlecture' });
    await view.router.navigate('/course/lecture', { state: course });
    await view.router.navigate(`/course/addlecture?id=${course._id}`, { state: course });
    return view;
  }

  it("answers 'All fields are mandatory' for a missing title, description or video, naming it, uploading nothing", async () => {
    for (const missing of ['Title', 'Description', 'Video']) {
      const view = await openForm();
      FakeUpload.last = undefined;
      if (missing !== 'Title') await view.user.type(await screen.findByLabelText('Title'), 'Intro');
      if (missing !== 'Description') await view.user.type(await screen.findByLabelText('Description'), 'Start here');
      if (missing !== 'Video') await view.user.upload(await screen.findByLabelText('Video'), mp4());
      await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));
      expect(await screen.findByText(`${messages.allFieldsMandatory} — ${missing} is missing`)).toBeInTheDocument();
      expect(FakeUpload.last).toBeUndefined();
      view.unmount();
      toast.remove();
    }
  });

  it('previews the video, shows the upload progress, and goes back one page on success', async () => {
    const view = await openForm();
    await view.user.type(await screen.findByLabelText('Title'), 'Intro');
    await view.user.type(screen.getByLabelText('Description'), 'Start here');
    await view.user.upload(screen.getByLabelText('Video'), mp4());
    expect(screen.getByLabelText('Preview of the chosen video')).toHaveAttribute('src', 'blob:video');
    await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));

    const upload = FakeUpload.last!;
    expect(upload.method).toBe('POST');
    expect(upload.url).toBe(`/api/v1/courses/${course._id}`);
    expect([...upload.body!.keys()].sort()).toEqual(['description', 'lectures', 'preview', 'title']);
    expect(upload.body!.get('preview')).toBe('false');
    act(() => upload.progress(0.42));
    expect(await screen.findByText('Uploading… 42%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '42');
    act(() => upload.answer(201, { success: true, message: 'Lecture added successfully', course: { ...course, lectures: [] } }));
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/course/lecture'));
  });

  it('cancels an upload in flight', async () => {
    const view = await openForm();
    await view.user.type(await screen.findByLabelText('Title'), 'Intro');
    await view.user.type(screen.getByLabelText('Description'), 'Start here');
    await view.user.upload(screen.getByLabelText('Video'), mp4());
    await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));
    act(() => FakeUpload.last!.progress(0.1));
    await view.user.click(await screen.findByRole('button', { name: 'Cancel upload' }));
    expect(FakeUpload.last!.aborted).toBe(true);
    expect(await screen.findByText('Upload cancelled')).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/course/addlecture');
  });

  it("shows the server's message, or 'failed to Add the lectures'", async () => {
    const view = await openForm();
    await view.user.type(await screen.findByLabelText('Title'), 'Intro');
    await view.user.type(screen.getByLabelText('Description'), 'Start here');
    await view.user.upload(screen.getByLabelText('Video'), mp4());
    await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));
    act(() => FakeUpload.last!.answer(500, null));
    expect(await screen.findByText(messages.failedAddLectures)).toBeInTheDocument();
  });

  it('sends a lecture marked as a free preview', async () => {
    const view = await openForm();
    await view.user.type(await screen.findByLabelText('Title'), 'Intro');
    await view.user.type(screen.getByLabelText('Description'), 'Start here');
    await view.user.upload(screen.getByLabelText('Video'), mp4());
    const preview = screen.getByRole('checkbox', { name: messages.freePreview });
    expect(preview).toHaveAccessibleDescription(messages.previewHint);
    expect(preview).not.toBeChecked();
    await view.user.click(preview);
    await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));
    expect(FakeUpload.last!.body!.get('preview')).toBe('true');
    act(() => FakeUpload.last!.answer(201, { success: true, message: 'Lecture added successfully', course: { ...course, lectures: [] } }));
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/course/lecture'));
  });

  it('asks before leaving while the video uploads: Stay keeps it going, Leave stops it and goes', async () => {
    const view = await openForm();
    const listeners = vi.spyOn(window, 'addEventListener');
    await view.user.type(await screen.findByLabelText('Title'), 'Intro');
    await view.user.type(screen.getByLabelText('Description'), 'Start here');
    await view.user.upload(screen.getByLabelText('Video'), mp4());
    await view.user.click(screen.getByRole('button', { name: 'Add new lecture' }));
    act(() => FakeUpload.last!.progress(0.3));

    // Closing or reloading the tab: the browser asks.
    expect(listeners).toHaveBeenCalledWith('beforeunload', expect.any(Function));
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    // In the app: the page asks.
    await view.user.click(screen.getByRole('button', { name: 'Go back' }));
    const question = await screen.findByRole('dialog', { name: messages.leaveUploadTitle });
    expect(question).toHaveAccessibleDescription(messages.leaveUploadText);
    await view.user.click(within(question).getByRole('button', { name: messages.stayHere }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/course/addlecture');
    expect(FakeUpload.last!.aborted).toBe(false);
    expect(screen.getByText('Uploading… 30%')).toBeInTheDocument();

    await act(() => view.router.navigate('/courses'));
    await view.user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: messages.leaveAndCancel }));
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/courses'));
    expect(FakeUpload.last!.aborted).toBe(true);

    // Nothing uploads any more: leaving is free, and the tab closes without a question.
    const later = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    listeners.mockRestore();
  });

  it('lets the admin leave without a question when nothing uploads', async () => {
    const view = await openForm();
    await screen.findByLabelText('Title');
    await view.user.click(screen.getByRole('button', { name: 'Go back' }));
    await vi.waitFor(() => expect(view.router.state.location.pathname).toBe('/course/lecture'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('/course/lecture: the video pipeline, as the admin sees it', () => {
  const withState = (n: number, processing: Lecture['processing']): Lecture => ({ ...lecture(n), processing });
  const statusAnswer = (available: boolean, ffmpeg = 'ffmpeg 5.1.9 (Debian, /usr/bin/ffmpeg)', ffmpegWarning: string | null = null) => ({
    body: {
      success: true,
      message: 'ok',
      available,
      reason: available ? null : answers.videoProcessingOff('no ffmpeg found'),
      ffmpeg: available ? ffmpeg : null,
      ffmpegWarning: available ? ffmpegWarning : null,
    },
  });

  it('shows each lecture’s state, with a progress bar while processing, and retries a failed one', async () => {
    const failed = withState(2, { state: 'failed', percent: null, reason: 'This file could not be read as a video (moov atom not found).' });
    let retried = false;
    stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: () => ({
        body: {
          success: true,
          message: 'ok',
          course,
          lectures: [
            withState(1, { state: 'processing', percent: 42, reason: null }),
            retried ? withState(2, { state: 'waiting', percent: null, reason: null }) : failed,
          ],
        },
      }),
      'GET /api/v1/video/status': statusAnswer(true),
      // The open lecture's files load beside it; a failure there would be a second alert.
      [`GET /api/v1/courses/${course._id}/lectures/${lecture(1)._id}/resources`]: {
        body: { success: true, message: 'Lecture files', resources: [], maxBytes: 1024, maxFiles: 20 },
      },
      // And its captions, for the admin.
      [`GET /api/v1/courses/${course._id}/lectures/${lecture(1)._id}/captions`]: {
        body: { success: true, message: 'Captions', captions: [], maxBytes: 1024, maxCaptions: 20 },
      },
      [`POST /api/v1/courses/${course._id}/lectures/${failed._id}/processing`]: () => {
        retried = true;
        return { body: { success: true, message: answers.videoRetryStarted, lecture: withState(2, { state: 'waiting', percent: null, reason: null }) } };
      },
    });
    const { user } = await openLectures(admin);
    expect(await screen.findByRole('progressbar', { name: messages.videoProcessing(42) })).toHaveAttribute('value', '42');
    expect(screen.getByRole('alert')).toHaveTextContent(`${messages.videoFailed}: This file could not be read as a video (moov atom not found).`);
    await user.click(screen.getByRole('button', { name: messages.videoRetryFor('Lesson 2') }));
    expect(await screen.findByText(messages.videoWaiting)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: messages.videoRetryFor('Lesson 2') })).not.toBeInTheDocument();
  });

  it('tells the admin why processing is off', async () => {
    stubApi({ ...leaseAnswers(), [`GET /api/v1/courses/${course._id}`]: lecturesAnswer, 'GET /api/v1/video/status': statusAnswer(false) });
    await openLectures(admin);
    expect(await screen.findByText(answers.videoProcessingOff('no ffmpeg found'))).toBeInTheDocument();
    expect(screen.queryByText(/^Videos are processed with/)).not.toBeInTheDocument();
  });

  it('names the ffmpeg that processes the videos under the list, without a warning for a current one', async () => {
    stubApi({ ...leaseAnswers(), [`GET /api/v1/courses/${course._id}`]: lecturesAnswer, 'GET /api/v1/video/status': statusAnswer(true) });
    await openLectures(admin);
    const note = await screen.findByText(messages.videoProcessedWith('ffmpeg 5.1.9 (Debian, /usr/bin/ffmpeg)'));
    expect(within(screen.getByRole('complementary', { name: 'Lectures list' })).getByText(note.textContent!)).toBe(note);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it("warns the admin whose server processes videos with the npm package's old ffmpeg", async () => {
    const warning = answers.videoFfmpegOutdated(2018);
    stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer,
      'GET /api/v1/video/status': statusAnswer(true, 'ffmpeg 4.1 (bundled npm build, 2018)', warning),
    });
    await openLectures(admin);
    expect(await screen.findByRole('status')).toHaveTextContent(warning);
    expect(screen.getByText(messages.videoProcessedWith('ffmpeg 4.1 (bundled npm build, 2018)'))).toBeInTheDocument();
  });

  it('shows a subscriber neither states nor the notice', async () => {
    stubApi({ ...leaseAnswers(), [`GET /api/v1/courses/${course._id}`]: lecturesAnswer });
    await openLectures({ ...admin, role: 'USER' });
    await screen.findByLabelText('Lecture 1: Lesson 1');
    expect(screen.queryByText(messages.videoReady)).not.toBeInTheDocument();
  });
});

describe('/course/lecture: learner progress', () => {
  const learner: User = { ...admin, role: 'USER', subscription: { status: 'active' } };
  const timed = (n: number): Lecture => ({ ...lecture(n), duration: 600 });
  const progressAt = (lectureId: string, position: number, completed = false) => ({
    lectureId,
    position,
    watched: position,
    completed,
    completedAt: completed ? '2026-11-20T10:00:00.000Z' : null,
    updatedAt: '2026-11-20T10:00:00.000Z',
  });
  const courseFigures = (completedLectures: number) => ({
    courseId: course._id,
    completedLectures,
    lectureCount: 2,
    percent: completedLectures * 50,
    lastLectureId: lecture(1)._id,
    lastWatchedAt: '2026-11-20T10:00:00.000Z',
  });
  const answersWith = (rows: ReturnType<typeof progressAt>[], extra: Parameters<typeof stubApi>[0] = {}) => ({
    ...leaseAnswers(),
    [`GET /api/v1/courses/${course._id}`]: { body: { ...lecturesAnswer.body, lectures: [timed(1), timed(2)] } },
    [`GET /api/v1/progress/courses/${course._id}`]: {
      body: {
        success: true,
        message: 'ok',
        course: courseFigures(rows.filter((row) => row.completed).length),
        lectures: rows,
        settings: { autoplayNext: true },
      },
    },
    'GET /api/v1/progress': { body: { success: true, message: 'ok', courses: [], settings: { autoplayNext: true } } },
    ...extra,
  });

  it('opens the lecture where the learner stopped, says so, and starts over on request; completed lectures have a check', async () => {
    stubApi(answersWith([progressAt(lecture(1)._id, 250), progressAt(lecture(2)._id, 600, true)]));
    const { user } = await openLectures(learner);
    const player = await findPlayer('Lecture 1: Lesson 1');
    expect(await screen.findByText(progressTexts.resumedAt('4:10'))).toBeInTheDocument();
    // The saved position is applied once the browser knows the length.
    act(() => void player.dispatchEvent(new Event('loadedmetadata')));
    expect(player.currentTime).toBe(250);
    expect(screen.getByText(progressTexts.courseProgress(1, 2, 50))).toBeInTheDocument();
    const list = screen.getByRole('complementary', { name: 'Lectures list' });
    expect(within(within(list).getByRole('button', { name: /Lesson 2/ })).getByText(progressTexts.completedLecture)).toBeInTheDocument();
    expect(within(list).getByText(progressTexts.watchedUntil('4:10'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: progressTexts.startOver }));
    expect(player.currentTime).toBe(0);
    expect(screen.queryByText(progressTexts.resumedAt('4:10'))).not.toBeInTheDocument();
  });

  it('saves the position on pause, and marks a lecture done on request', async () => {
    const saved = { success: true, message: answers.progressSaved, lecture: progressAt(lecture(1)._id, 42), course: courseFigures(0) };
    const calls = stubApi(
      answersWith([], {
        [`POST /api/v1/progress/lectures/${lecture(1)._id}`]: { body: saved },
        [`PUT /api/v1/progress/lectures/${lecture(1)._id}/completed`]: {
          body: { ...saved, lecture: progressAt(lecture(1)._id, 42, true), course: courseFigures(1) },
        },
      }),
    );
    const { user } = await openLectures(learner);
    const player = await findPlayer('Lecture 1: Lesson 1');
    expect(screen.queryByText(/Resumed at/)).not.toBeInTheDocument();
    // Played from 40 s to 42 s, then paused.
    Object.defineProperty(player, 'paused', { configurable: true, get: () => false });
    player.currentTime = 40;
    act(() => void player.dispatchEvent(new Event('timeupdate')));
    player.currentTime = 42;
    act(() => void player.dispatchEvent(new Event('timeupdate')));
    Object.defineProperty(player, 'paused', { configurable: true, get: () => true });
    act(() => void player.dispatchEvent(new Event('pause')));
    await vi.waitFor(() => expect(calls.some((call) => call.init.method === 'POST' && call.url.includes('/progress/'))).toBe(true));
    const body = JSON.parse(calls.find((call) => call.init.method === 'POST' && call.url.includes('/progress/'))!.init.body as string);
    expect(body).toMatchObject({ position: 42, watched: 2 });
    expect(body.at).toBeGreaterThan(Date.now() - 10_000);

    await user.click(screen.getByRole('button', { name: progressTexts.markDone }));
    expect(JSON.parse(calls.find((call) => call.init.method === 'PUT')!.init.body as string)).toEqual({ completed: true });
    expect(await screen.findByRole('button', { name: progressTexts.markNotDone })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(progressTexts.courseProgress(1, 2, 50))).toBeInTheDocument();
  });

  it('at the end, counts down to the next lecture, which the learner may cancel or start at once', async () => {
    const saved = { success: true, message: answers.progressSaved, lecture: progressAt(lecture(1)._id, 600, true), course: courseFigures(1) };
    const calls = stubApi(answersWith([], { [`POST /api/v1/progress/lectures/${lecture(1)._id}`]: { body: saved } }));
    const { user } = await openLectures(learner);
    const player = await findPlayer('Lecture 1: Lesson 1');
    player.currentTime = 600;
    act(() => void player.dispatchEvent(new Event('ended')));
    const countdown = await screen.findByRole('region', { name: progressTexts.upNext });
    expect(within(countdown).getByText(progressTexts.nextLectureIn(5))).toBeInTheDocument();
    expect(within(countdown).getByText('Lesson 2')).toBeInTheDocument();
    expect(JSON.parse(calls.find((call) => call.init.method === 'POST' && call.url.includes('/progress/'))!.init.body as string)).toMatchObject({
      position: 600,
      ended: true,
    });
    await user.click(within(countdown).getByRole('button', { name: progressTexts.cancelNext }));
    expect(screen.queryByRole('region', { name: progressTexts.upNext })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Lecture 1: Lesson 1')).toBeInTheDocument();

    act(() => void player.dispatchEvent(new Event('ended')));
    await user.click(within(await screen.findByRole('region', { name: progressTexts.upNext })).getByRole('button', { name: progressTexts.playNextNow }));
    expect(await screen.findByLabelText('Lecture 2: Lesson 2')).toBeInTheDocument();
  });
});
