import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import toast from 'react-hot-toast';
import { FakeUpload } from '../../test/fake-upload';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { bulkTexts, titleFromFileName } from './BulkUpload';
import CourseEditorPage from './CourseEditorPage';
import { publishTexts } from './PublishPanel';

const ID = '00000000-0000-4000-8000-000000000042';
const course = (overrides: Partial<Course> = {}): Course => ({
  _id: ID,
  title: 'Bookkeeping basics',
  description: 'Ledgers and invoices.',
  category: 'Business',
  createdBy: 'Asha Verma',
  thumbnail: { secure_url: '/media/thumbnails/b.webp' },
  numbersOfLectures: 1,
  totalDuration: null,
  state: 'draft',
  publishAt: null,
  subscribersWatching: 0,
  ...overrides,
});
const lecture = (n: number): Lecture => ({
  _id: `10000000-0000-4000-8000-00000000000${n}`,
  sectionId: null,
  title: `Lesson ${n}`,
  description: `Part ${n}`,
  secure_url: `/media/private/${n}.mp4?sig=x`,
  duration: null,
  preview: false,
  processing: { state: 'waiting', percent: null, reason: null },
  poster_url: null,
  hls_url: null,
  replacement: null,
});

const COURSE = `GET /api/v1/courses?id=${ID}`;
const LECTURES = `GET /api/v1/courses/${ID}`;
const courseAnswer = (c: Course) => ({ body: { success: true, message: 'ok', courses: [c], total: 1, page: 1, limit: 50 } });
const lecturesAnswer = (c: Course, lectures: Lecture[]) => ({ body: { success: true, message: 'ok', course: c, lectures } });

async function openEditor() {
  storeLogin(sampleUser({ role: 'ADMIN' }));
  const view = renderPage(<CourseEditorPage />, { path: '/course/edit' });
  await act(() => view.router.navigate(`/course/edit?id=${ID}`));
  await screen.findByRole('heading', { level: 1, name: 'Bookkeeping basics' });
  return view;
}

afterEach(() => {
  toast.remove();
  vi.restoreAllMocks();
});

describe('the course editor', () => {
  it('says a draft is seen by administrators alone, and will not publish it before it has a lecture', async () => {
    const draft = course({ numbersOfLectures: 0 });
    const calls = stubApi({ [COURSE]: courseAnswer(draft), [LECTURES]: lecturesAnswer(draft, []) });
    await openEditor();
    expect(screen.getByText('Draft')).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: publishTexts.heading });
    expect(within(panel).getByText(publishTexts.draft)).toBeInTheDocument();
    expect(within(panel).getByText(publishTexts.needsLecture)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: publishTexts.publishNow })).toBeDisabled();
    expect(calls.some((call) => call.init.method === 'POST')).toBe(false);
  });

  it('publishes now, and then shows the course as published', async () => {
    let state: Course = course();
    const calls = stubApi({
      [COURSE]: () => courseAnswer(state),
      [LECTURES]: () => lecturesAnswer(state, [lecture(1)]),
      [`POST /api/v1/courses/${ID}/publish`]: () => {
        state = course({ state: 'published' });
        return { body: { success: true, message: 'Course published: visitors can see it now', course: state } };
      },
    });
    const view = await openEditor();
    await view.user.click(screen.getByRole('button', { name: publishTexts.publishNow }));
    const panel = screen.getByRole('region', { name: publishTexts.heading });
    expect(await within(panel).findByText(publishTexts.published)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: publishTexts.unpublish })).toBeInTheDocument();
    const publish = calls.find((call) => call.init.method === 'POST')!;
    expect(JSON.parse(String(publish.init.body))).toEqual({});
  });

  it('schedules publishing at the time chosen, in the admin’s time zone', async () => {
    let state: Course = course();
    const calls = stubApi({
      [COURSE]: () => courseAnswer(state),
      [LECTURES]: lecturesAnswer(state, [lecture(1)]),
      [`POST /api/v1/courses/${ID}/publish`]: (init) => {
        state = course({ state: 'scheduled', publishAt: JSON.parse(String(init.body)).publishAt });
        return { body: { success: true, message: 'Course scheduled', course: state } };
      },
    });
    const view = await openEditor();
    const input = screen.getByLabelText(publishTexts.scheduleLabel);
    await view.user.type(input, '2030-01-15T09:30');
    await view.user.click(screen.getByRole('button', { name: publishTexts.schedule }));
    const sent = JSON.parse(String(calls.find((call) => call.init.method === 'POST')!.init.body));
    expect(sent).toEqual({ publishAt: new Date('2030-01-15T09:30').toISOString() });
    expect(await screen.findByText(/^Scheduled · 15 Jan 2030/)).toBeInTheDocument();
    const panel = screen.getByRole('region', { name: publishTexts.heading });
    expect(within(panel).getByText(/^It will be published on 15 Jan 2030/)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: publishTexts.cancelSchedule })).toBeInTheDocument();
  });

  it('asks before unpublishing a course subscribers are watching, and sends nothing if told no', async () => {
    const published = course({ state: 'published', subscribersWatching: 3 });
    const calls = stubApi({
      [COURSE]: courseAnswer(published),
      [LECTURES]: lecturesAnswer(published, [lecture(1)]),
      [`POST /api/v1/courses/${ID}/unpublish`]: { body: { success: true, message: 'Course unpublished', course: course() } },
    });
    const view = await openEditor();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    await view.user.click(screen.getByRole('button', { name: publishTexts.unpublish }));
    expect(confirm).toHaveBeenCalledWith(publishTexts.confirmUnpublish(3));
    expect(calls.some((call) => call.init.method === 'POST')).toBe(false);
    confirm.mockReturnValue(true);
    await view.user.click(screen.getByRole('button', { name: publishTexts.unpublish }));
    await waitFor(() => expect(calls.some((call) => call.url === `/api/v1/courses/${ID}/unpublish`)).toBe(true));
  });
});

describe('bulk upload', () => {
  beforeEach(() => FakeUpload.install());

  it('titles a lecture from its file name', () => {
    expect(titleFromFileName('02_closing-the-books.mp4')).toBe('02 closing the books');
    expect(titleFromFileName('Intro.final.MOV')).toBe('Intro final');
    expect(titleFromFileName('.mp4')).toBe('Mp4');
    expect(titleFromFileName('a'.repeat(300) + '.mp4')).toHaveLength(120);
  });

  it('uploads every video dropped, one at a time in the order of their names, each with its progress; refuses what is not a video', async () => {
    const draft = course({ numbersOfLectures: 0 });
    stubApi({ [COURSE]: courseAnswer(draft), [LECTURES]: lecturesAnswer(draft, []) });
    await openEditor();
    const files = [
      new File([new Uint8Array(64)], '10-wrap-up.mp4', { type: 'video/mp4' }),
      new File([new Uint8Array(64)], 'notes.pdf', { type: 'application/pdf' }),
      new File([new Uint8Array(64)], '2-first-ledger.mp4', { type: 'video/mp4' }),
    ];
    fireEvent.drop(screen.getByTestId('bulk-drop'), { dataTransfer: { files } });

    expect(await screen.findByText(bulkTexts.notVideo)).toBeInTheDocument();
    await waitFor(() => expect(FakeUpload.made).toHaveLength(1));
    const [first] = FakeUpload.made;
    expect(first!.url).toBe(`/api/v1/courses/${ID}`);
    expect(first!.body!.get('title')).toBe('2 first ledger');
    expect(first!.body!.get('description')).toBe('2-first-ledger.mp4');
    act(() => first!.progress(0.4));
    expect(await screen.findByRole('progressbar', { name: `2 first ledger: ${bulkTexts.uploading(40)}` })).toHaveAttribute('value', '40');
    expect(screen.getByRole('progressbar', { name: `10 wrap up: ${bulkTexts.waiting}` })).toBeInTheDocument();

    act(() => first!.answer(201, { success: true, message: 'Lecture added', course: { ...draft, lectures: [lecture(1)] } }));
    await waitFor(() => expect(FakeUpload.made).toHaveLength(2));
    expect(FakeUpload.made[1]!.body!.get('title')).toBe('10 wrap up');
    act(() => FakeUpload.made[1]!.answer(400, { success: false, message: 'Video must be a video file' }));
    expect(await screen.findByText('Video must be a video file')).toBeInTheDocument();
    expect(screen.getByText(bulkTexts.summary(1, 3))).toBeInTheDocument();
    expect(FakeUpload.made).toHaveLength(2);
  });
});
