import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { Course } from '@lms/contract/courses';
import type { Lecture, VideoProcessing } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { FakeUpload } from '../../test/fake-upload';
import { findToast, renderPage, stubApi } from '../../test/render';
import { useGetLecturesQuery } from './lectures.api';
import { replaceVideoTexts as texts } from './replace-video-texts';
import { ReplaceVideoButton } from './ReplaceVideoButton';

const course: Course = {
  _id: '00000000-0000-4000-8000-000000000001',
  title: 'Rust',
  description: 'Fearless.',
  category: 'Systems',
  createdBy: 'Ravi Kumar',
  thumbnail: { secure_url: '/media/thumbnails/1.webp' },
  numbersOfLectures: 1,
  totalDuration: 300,
  state: 'published',
  publishAt: null,
};
const READY: VideoProcessing = { state: 'ready', percent: null, reason: null };
const current: Lecture = {
  _id: '20000000-0000-4000-8000-000000000001',
  sectionId: null,
  title: 'Ownership',
  description: 'Who frees what.',
  secure_url: '/media/private/videos/old.mp4?sig=x',
  duration: 300,
  preview: false,
  processing: READY,
  poster_url: '/media/posters/old.webp',
  hls_url: '/media/hls/grant/old/master.m3u8',
  replacement: null,
};
const withReplacement = (replacement: VideoProcessing | null, changes: Partial<Lecture> = {}): Lecture => ({ ...current, ...changes, replacement });
const listUrl = `GET /api/v1/courses/${course._id}`;
const replaceUrl = `/api/v1/courses/${course._id}/lectures/${current._id}/video`;
const video = () => new File([new Uint8Array(64)], 'better take.mp4', { type: 'video/mp4' });

/** The lecture as a page shows it: read from the course's lecture list, which the button keeps fresh. */
function Host() {
  const lecture = useGetLecturesQuery(course._id).data?.lectures[0];
  return lecture ? (
    <div className="flex flex-wrap">
      <ReplaceVideoButton courseId={course._id} lecture={lecture} />
    </div>
  ) : null;
}

function renderButton(list: () => Lecture) {
  const calls = stubApi({ [listUrl]: () => ({ body: { success: true, message: 'ok', course, lectures: [list()] } }) });
  const view = renderPage(<Host />);
  // Files the picker would not offer (accept="video/*") can still be dropped on it by some browsers.
  const user = userEvent.setup({ applyAccept: false });
  return { ...view, user, calls };
}

const pickVideo = async (user: ReturnType<typeof userEvent.setup>, file = video()) =>
  user.upload(await screen.findByLabelText(texts.chooseVideoFor('Ownership')), file);

describe('ReplaceVideoButton', () => {
  beforeEach(() => {
    FakeUpload.install();
    window.confirm = vi.fn(() => true);
  });
  afterEach(() => toast.remove());

  it('uploads the chosen video with a progress bar, then shows the new video’s state until it plays in the lecture’s place', async () => {
    let onServer = current;
    const { user, calls } = renderButton(() => onServer);
    const button = await screen.findByRole('button', { name: texts.replaceVideoOf('Ownership') });
    await user.click(button);
    await pickVideo(user);
    expect(window.confirm).toHaveBeenCalledWith(texts.confirm('Ownership', 'better take.mp4'));

    const upload = FakeUpload.last!;
    expect(upload.method).toBe('PUT');
    expect(upload.url).toBe(replaceUrl);
    expect((upload.body!.get('lectures') as File).name).toBe('better take.mp4');
    act(() => upload.progress(0.42));
    expect(screen.getByRole('progressbar', { name: texts.uploadProgressOf('Ownership') })).toHaveAttribute('value', '42');
    expect(screen.getByText(texts.uploading(42))).toBeInTheDocument();
    expect(button).toBeDisabled();

    // The server keeps the current video playing while it processes the new one.
    onServer = withReplacement({ state: 'processing', percent: 40, reason: null });
    act(() =>
      upload.answer(200, {
        success: true,
        message: answers.videoReplacementStarted,
        lecture: withReplacement({ state: 'waiting', percent: null, reason: null }),
      }),
    );
    expect(await findToast(answers.videoReplacementStarted)).toBeInTheDocument();
    const state = await screen.findByRole('group', { name: texts.newVideoOf('Ownership') });
    expect(within(state).getByText(messages.videoWaiting)).toBeInTheDocument();
    expect(state).toHaveTextContent(texts.currentPlaysUntilReady);
    expect(button).toBeEnabled();

    // Read again every few seconds: processing, then swapped in.
    expect(await within(state).findByRole('progressbar', { name: messages.videoProcessing(40) }, { timeout: 5000 })).toHaveAttribute('value', '40');
    onServer = { ...current, secure_url: '/media/private/videos/new.mp4?sig=y', duration: 240, hls_url: '/media/hls/grant/new/master.m3u8' };
    expect(await screen.findByText(texts.replaced('Ownership'), { selector: '[role="status"]' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: texts.newVideoOf('Ownership') })).not.toBeInTheDocument();
    // Nothing more is asked once the new video plays.
    const reads = calls.filter((call) => call.url === `/api/v1/courses/${course._id}`).length;
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(calls.filter((call) => call.url === `/api/v1/courses/${course._id}`)).toHaveLength(reads);
  }, 15_000);

  it('asks first, and uploads nothing when the admin says no, or picks a file that is not a video', async () => {
    const { user } = renderButton(() => current);
    window.confirm = vi.fn(() => false);
    await pickVideo(user);
    expect(FakeUpload.last).toBeUndefined();

    window.confirm = vi.fn(() => true);
    await pickVideo(user, new File(['%PDF-1.7'], 'notes.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(messages.videoType)).toBeInTheDocument();
    expect(window.confirm).not.toHaveBeenCalled();
    expect(FakeUpload.last).toBeUndefined();
  });

  it('stops the upload on Cancel, leaving the lecture as it was', async () => {
    const { user } = renderButton(() => current);
    await pickVideo(user);
    await user.click(screen.getByRole('button', { name: texts.cancelUpload }));
    expect(FakeUpload.last!.aborted).toBe(true);
    expect(await findToast(messages.uploadCancelled)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: texts.replaceVideoOf('Ownership') })).toBeEnabled());
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal, and lets the admin try again', async () => {
    const { user } = renderButton(() => current);
    await pickVideo(user);
    act(() => FakeUpload.last!.answer(400, { success: false, message: messages.videoType }));
    expect(await findToast(messages.videoType)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: texts.replaceVideoOf('Ownership') })).toBeEnabled());
    expect(screen.queryByRole('group', { name: texts.newVideoOf('Ownership') })).not.toBeInTheDocument();
  });

  it('shows why a new video failed, beside the current one that keeps playing, and retries it', async () => {
    const failed = withReplacement({ state: 'failed', percent: null, reason: 'This file could not be read as a video (moov atom not found).' });
    let onServer = failed;
    const calls = stubApi({
      [listUrl]: () => ({ body: { success: true, message: 'ok', course, lectures: [onServer] } }),
      [`POST /api/v1/courses/${course._id}/lectures/${current._id}/processing`]: () => {
        onServer = withReplacement({ state: 'waiting', percent: null, reason: null });
        return { body: { success: true, message: answers.videoRetryStarted, lecture: onServer } };
      },
    });
    const { user } = renderPage(<Host />);
    const state = await screen.findByRole('group', { name: texts.newVideoOf('Ownership') });
    expect(within(state).getByRole('alert')).toHaveTextContent(`${messages.videoFailed}: This file could not be read as a video (moov atom not found).`);
    expect(state).toHaveTextContent(texts.currentKeepsPlaying);
    await user.click(within(state).getByRole('button', { name: messages.videoRetryFor('Ownership') }));
    expect(await within(state).findByText(messages.videoWaiting)).toBeInTheDocument();
    expect(calls.some((call) => call.init.method === 'POST')).toBe(true);
  });
});
