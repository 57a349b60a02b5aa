import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CaptionMatch } from '@lms/contract/captions';
import type { Course } from '@lms/contract/courses';
import { renderPage, stubApi } from '../../test/render';
import CourseListPage from './CourseListPage';

const course: Course = {
  _id: '00000000-0000-4000-8000-000000000001',
  title: 'Python from zero',
  description: 'From the first line on',
  category: 'Programming',
  createdBy: 'Asha Verma',
  thumbnail: { secure_url: '/media/thumbnails/1.webp' },
  numbersOfLectures: 2,
  totalDuration: null,
  state: 'published',
  publishAt: null,
};
const courses = (list: Course[]) => ({ body: { success: true, message: 'ok', courses: list, total: list.length, page: 1, limit: 12 } });
const loops: CaptionMatch = {
  course: { _id: course._id, title: course.title },
  lecture: { _id: '20000000-0000-4000-8000-000000000001', title: 'Loops' },
  language: 'en',
  label: 'English',
  start: 130,
  parts: [
    { text: 'Here ', hit: false },
    { text: 'python', hit: true },
    { text: ' loops over <b>lists</b>', hit: false },
  ],
  canWatch: true,
};
const closures: CaptionMatch = {
  course: { _id: '00000000-0000-4000-8000-000000000002', title: 'Advanced Python' },
  lecture: { _id: '20000000-0000-4000-8000-000000000002', title: 'Closures' },
  language: 'hi',
  label: 'हिन्दी',
  start: 3725,
  parts: [
    { text: 'आज हम ', hit: false },
    { text: 'python', hit: true },
    { text: ' सीखेंगे', hit: false },
  ],
  canWatch: false,
};
const matches = (list: CaptionMatch[]) => ({ body: { success: true, message: 'Found in lectures', matches: list } });

async function openCatalogue(search: string) {
  const view = renderPage(<CourseListPage />, { path: '/courses' });
  await act(() => view.router.navigate(`/courses${search}`));
  return view;
}

describe('/courses: what lectures say', () => {
  it('lists the best cue of each lecture that says the search, its words marked, each opening the lecture at that moment or the course', async () => {
    stubApi({
      'GET /api/v1/courses?search=python&page=1&limit=12': courses([course]),
      'GET /api/v1/courses?limit=100': courses([course]),
      'GET /api/v1/captions/search?q=python': matches([loops, closures]),
    });
    await openCatalogue('?search=python');
    const section = await screen.findByRole('region', { name: 'Said in lectures' });
    const [first, second] = await within(section).findAllByRole('listitem');

    const watch = within(first!).getByRole('link', { name: 'Loops, from 2:10' });
    expect(watch).toHaveAttribute('href', `/course/lecture?id=${course._id}&lecture=${loops.lecture._id}&t=130`);
    expect(within(first!).getByText('Python from zero')).toBeInTheDocument();
    expect([...first!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['python']);
    // A cue's text is text: what looks like markup is shown as written.
    expect(first!.querySelector('blockquote')).toHaveTextContent('Here python loops over <b>lists</b>');
    expect(first!.querySelector('b')).toBeNull();
    expect(within(first!).getByText('Plays from here')).toBeInTheDocument();

    const about = within(second!).getByRole('link', { name: 'Closures, from 1:02:05' });
    expect(about).toHaveAttribute('href', `/course/description?id=${closures.course._id}`);
    expect(within(second!).getByText('Subscribe to watch: opens the course')).toBeInTheDocument();
    expect(second!.querySelector('blockquote')).toHaveAttribute('lang', 'hi');
    expect([...second!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['python']);
  });

  it('says so when no lecture says the search', async () => {
    stubApi({
      'GET /api/v1/courses?search=zebra&page=1&limit=12': courses([]),
      'GET /api/v1/courses?limit=100': courses([course]),
      'GET /api/v1/captions/search?q=zebra': matches([]),
    });
    await openCatalogue('?search=zebra');
    expect(await screen.findByText('No lecture mentions “zebra”.')).toBeInTheDocument();
    expect(screen.getByText('No courses match your search.')).toBeInTheDocument();
  });

  it('shows nothing, and asks nothing, without a search', async () => {
    const calls = stubApi({ 'GET /api/v1/courses?page=1&limit=12': courses([course]), 'GET /api/v1/courses?limit=100': courses([course]) });
    await openCatalogue('');
    await screen.findByRole('button', { name: 'Python from zero' });
    expect(screen.queryByRole('region', { name: 'Said in lectures' })).toBeNull();
    expect(calls.map((call) => call.url).filter((url) => url.includes('captions'))).toEqual([]);
  });

  it('stays quiet when the search inside lectures fails: the courses are still the answer', async () => {
    const calls = stubApi({
      'GET /api/v1/courses?search=python&page=1&limit=12': courses([course]),
      'GET /api/v1/courses?limit=100': courses([course]),
      'GET /api/v1/captions/search?q=python': { status: 500, body: { success: false, message: 'Something went wrong' } },
    });
    await openCatalogue('?search=python');
    await screen.findByRole('button', { name: 'Python from zero' });
    await waitFor(() => expect(calls.map((call) => call.url)).toContain('/api/v1/captions/search?q=python'));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Said in lectures' })).toBeNull());
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('region', { name: 'Said in lectures' })).toBeNull();
    expect(screen.queryByText('Something went wrong')).toBeNull();
    expect(screen.queryByText('The lectures could not be searched.')).toBeNull();
  });
});
