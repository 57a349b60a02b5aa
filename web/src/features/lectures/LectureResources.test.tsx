import { act, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import type { Resource } from '@lms/contract/resources';
import { FakeUpload } from '../../test/fake-upload';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import LecturePage from './LecturePage';
import { LectureResources } from './LectureResources';

const courseId = '00000000-0000-4000-8000-000000000001';
const lecture: Lecture = {
  _id: '20000000-0000-4000-8000-000000000001',
  title: 'Ledgers',
  description: 'Where every entry goes.',
  sectionId: null,
  secure_url: '/media/private/videos/1.mp4?sig=x',
  duration: null,
  preview: false,
  processing: { state: 'ready', percent: null, reason: null },
  poster_url: null,
  hls_url: null,
  replacement: null,
};
const resourcesPath = `/api/v1/courses/${courseId}/lectures/${lecture._id}/resources`;
const resource = (n: number, overrides: Partial<Resource> = {}): Resource => ({
  _id: `30000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  name: `Handout ${n}.pdf`,
  mime: 'application/pdf',
  bytes: 1_572_864,
  url: `/media/private/resources/${n}.pdf?viewer=v&expires=1&signature=s`,
  ...overrides,
});
const MAX_BYTES = 100 * 1024 * 1024;
const listAnswer = (resources: Resource[]) => ({ body: { success: true, message: 'Lecture files', resources, maxBytes: MAX_BYTES, maxFiles: 20 } });

function openResources(canEdit: boolean) {
  return renderPage(<LectureResources courseId={courseId} lecture={lecture} canEdit={canEdit} />);
}

afterEach(() => toast.remove());

describe('a lecture’s files, for a learner', () => {
  it('lists each file with its type and size, linked to download it, and nothing to change them', async () => {
    stubApi({ [`GET ${resourcesPath}`]: listAnswer([resource(1), resource(2, { name: 'Notes.txt', mime: 'text/plain', bytes: 2048 })]) });
    openResources(false);

    const section = await screen.findByRole('region', { name: 'Lecture files' });
    const pdf = within(section).getByRole('link', { name: 'Download Handout 1.pdf' });
    expect(pdf).toHaveAttribute('href', resource(1).url);
    expect(pdf).toHaveAttribute('download', 'Handout 1.pdf');
    expect(within(section).getByText('PDF · 1.5 MB')).toBeInTheDocument();
    expect(within(section).getByText('Text · 2 KB')).toBeInTheDocument();
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows nothing when the lecture has no files, or when they are not the learner’s to see', async () => {
    for (const answer of [listAnswer([]), { status: 403, body: { success: false, message: 'Subscribe to download the files of this lecture' } }]) {
      const calls = stubApi({ [`GET ${resourcesPath}`]: answer });
      const view = openResources(false);
      await waitFor(() => expect(calls).toHaveLength(1));
      // Let the answer arrive: still nothing, and no toast over the lecture.
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      expect(screen.queryByRole('region', { name: 'Lecture files' })).not.toBeInTheDocument();
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
      view.unmount();
    }
  });
});

describe('a lecture’s files, for an administrator', () => {
  beforeEach(() => {
    FakeUpload.install();
  });

  const pdf = (bytes = 64) => new File([new Uint8Array(bytes)], 'Workbook.pdf', { type: 'application/pdf' });

  it('says what may be attached, uploads a file with its progress, and lists it once attached', async () => {
    stubApi({ [`GET ${resourcesPath}`]: listAnswer([]) });
    const { user } = openResources(true);
    expect(await screen.findByText('No files yet. Attach handouts, slides or exercises for this lecture.')).toBeInTheDocument();
    const attach = screen.getByRole('button', { name: 'Attach file' });
    expect(attach).toHaveAccessibleDescription('PDF, ZIP, pictures or text, up to 100 MB each');

    await user.upload(screen.getByLabelText('Attach file', { selector: 'input' }), pdf());
    const upload = FakeUpload.last!;
    expect(upload.method).toBe('POST');
    expect(upload.url).toBe(resourcesPath);
    expect((upload.body!.get('file') as File).name).toBe('Workbook.pdf');
    act(() => upload.progress(0.42));
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '42');
    expect(screen.getByText('Uploading Workbook.pdf… 42%')).toBeInTheDocument();
    expect(attach).toBeDisabled();

    act(() => upload.answer(201, { success: true, message: 'File attached', resource: resource(1, { name: 'Workbook.pdf' }) }));
    expect(await findToast('File attached')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Download Workbook.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(attach).toBeEnabled();
  });

  it('refuses a file past the limit before uploading it, and shows the server’s refusal of another', async () => {
    stubApi({ [`GET ${resourcesPath}`]: listAnswer([]) });
    const { user } = openResources(true);
    const input = await screen.findByLabelText('Attach file', { selector: 'input' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Attach file' })).toBeEnabled());

    const big = pdf();
    Object.defineProperty(big, 'size', { value: MAX_BYTES + 1 });
    await user.upload(input, big);
    expect(await screen.findByText('Files may be up to 100 MB, and this one is 100.1 MB')).toBeInTheDocument();
    expect(FakeUpload.last).toBeUndefined();

    await user.upload(input, pdf());
    const refusal = 'Only PDF, ZIP, pictures (PNG, JPEG, GIF, WebP) and UTF-8 text can be attached';
    act(() => FakeUpload.last!.answer(400, { success: false, message: refusal }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('cancels an upload in flight', async () => {
    stubApi({ [`GET ${resourcesPath}`]: listAnswer([]) });
    const { user } = openResources(true);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Attach file' })).toBeEnabled());
    await user.upload(screen.getByLabelText('Attach file', { selector: 'input' }), pdf());
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(FakeUpload.last!.aborted).toBe(true);
    expect(await findToast('Upload cancelled')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('removes a file once the admin confirms', async () => {
    const calls = stubApi({
      [`GET ${resourcesPath}`]: listAnswer([resource(1), resource(2)]),
      [`DELETE ${resourcesPath}/${resource(1)._id}`]: { body: { success: true, message: 'File removed' } },
    });
    const { user } = openResources(true);
    const remove = await screen.findByRole('button', { name: 'Remove Handout 1.pdf' });

    window.confirm = vi.fn(() => false);
    await user.click(remove);
    expect(window.confirm).toHaveBeenCalledWith('Remove the file "Handout 1.pdf" from this lecture?');
    expect(calls.some((call) => call.init.method === 'DELETE')).toBe(false);

    window.confirm = vi.fn(() => true);
    await user.click(remove);
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Download Handout 1.pdf' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Download Handout 2.pdf' })).toBeInTheDocument();
    expect(await findToast('File removed')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Lecture files' })).toHaveFocus();
  });

  it('says when the lecture is full instead of offering another upload', async () => {
    stubApi({ [`GET ${resourcesPath}`]: listAnswer(Array.from({ length: 20 }, (_, n) => resource(n + 1))) });
    openResources(true);
    expect(await screen.findByText('20 of 20 files: remove one to attach another')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Attach file' })).toBeDisabled();
  });
});

describe('on the lecture page', () => {
  it('shows the files of the lecture being watched under the player', async () => {
    const course: Course = {
      _id: courseId,
      title: 'Bookkeeping',
      description: 'From zero.',
      category: 'Business',
      createdBy: 'Asha Verma',
      thumbnail: { secure_url: '/media/thumbnails/1.webp' },
      numbersOfLectures: 1,
      totalDuration: null,
      state: 'published',
      publishAt: null,
    };
    storeLogin(sampleUser({ subscription: { status: 'active' } }));
    stubApi({
      [`GET /api/v1/courses/${courseId}`]: { body: { success: true, message: 'ok', course, lectures: [lecture] } },
      [`GET ${resourcesPath}`]: listAnswer([resource(1)]),
      [`GET /api/v1/progress/courses/${courseId}`]: { status: 500, body: { success: false, message: 'not here' } },
    });
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    await view.router.navigate(`/course/lecture?id=${courseId}`, { state: course });
    expect(await screen.findByRole('link', { name: 'Download Handout 1.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Attach file' })).not.toBeInTheDocument();
  });
});
