import { act, screen, waitFor, within } from '@testing-library/react';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import type { User } from '@lms/contract/users';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findPlayer, renderPage, storeLogin, stubApi } from '../../test/render';
import { leaseAnswers } from '../../test/playback';
import { progressTexts } from '../progress';
import LecturePage from './LecturePage';
import { sampleCourse, sampleLecture } from '../../test/catalogue';

const course: Course = sampleCourse({ numbersOfLectures: 2 });
const lecture = (n: number): Lecture => sampleLecture(n, { duration: 600 });
const learner: User = {
  _id: '10000000-0000-4000-8000-000000000007',
  fullName: 'Asha Learner',
  email: 'asha@example.com',
  avatar: { secure_url: '' },
  role: 'USER',
  subscription: { status: 'active' },
};
const saved = (lectureId: string, position: number) => ({
  lectureId,
  position,
  watched: position,
  completed: false,
  completedAt: null,
  updatedAt: '2026-11-20T10:00:00.000Z',
});
const caption = (language: string, label: string, isDefault: boolean) => ({
  _id: `30000000-0000-4000-8000-0000000000${language === 'en' ? '01' : '02'}`,
  language,
  label,
  isDefault,
  cueCount: 2,
  version: 1,
  url: `/media/captions/${language}.vtt?sig=viewer`,
  updatedAt: '2026-11-20T10:00:00.000Z',
});
const vtt: Record<string, string> = {
  en: 'WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nWelcome to Rust.\n\n00:01:35.000 --> 00:01:40.000\nThe borrow checker.\n',
  hi: 'WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nरस्ट में स्वागत है।\n',
};

function stubLecturePage(captions: ReturnType<typeof caption>[]) {
  const calls = stubApi({
    ...leaseAnswers(),
    [`GET /api/v1/courses?id=${course._id}`]: { body: { success: true, message: 'ok', courses: [course], total: 1, page: 1, limit: 50 } },
    [`GET /api/v1/courses/${course._id}`]: { body: { success: true, message: 'ok', course, lectures: [lecture(1), lecture(2)] } },
    [`GET /api/v1/progress/courses/${course._id}`]: {
      body: {
        success: true,
        message: 'ok',
        course: { courseId: course._id, completedLectures: 0, lectureCount: 2, percent: 0 },
        lectures: [saved(lecture(2)._id, 250)],
        settings: { autoplayNext: true },
      },
    },
    'GET /api/v1/progress': { body: { success: true, message: 'ok', courses: [], settings: { autoplayNext: true } } },
    ...Object.fromEntries(
      [lecture(1), lecture(2)].map((item) => [
        `GET /api/v1/courses/${course._id}/lectures/${item._id}/captions`,
        { body: { success: true, message: 'ok', captions, maxBytes: 2_000_000, maxCaptions: 20 } },
      ]),
    ),
  });
  // The WebVTT files are media, not API answers.
  const api = globalThis.fetch;
  globalThis.fetch = (async (url: string, init?: RequestInit) => {
    const language = /\/media\/captions\/(\w+)\.vtt/.exec(url)?.[1];
    return language ? new Response(vtt[language]) : api(url, init);
  }) as typeof fetch;
  return calls;
}

beforeEach(() => {
  localStorage.clear();
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
  HTMLMediaElement.prototype.pause = vi.fn();
});

describe('/course/lecture?t=', () => {
  it('opens the linked lecture at that second on a fresh page load, over the saved place, for that opening only', async () => {
    stubLecturePage([]);
    storeLogin(learner);
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    await act(() => view.router.navigate(`/course/lecture?id=${course._id}&lecture=${lecture(2)._id}&t=95`));
    const player = await findPlayer('Lecture 2: Lesson 2');
    act(() => void player.dispatchEvent(new Event('loadedmetadata')));
    expect(player.currentTime).toBe(95);
    // Not "resumed": the learner followed a link to this moment.
    expect(screen.queryByText(/Resumed at/)).not.toBeInTheDocument();

    // Back to that lecture later: where the learner stopped, as usual.
    await view.user.click(screen.getByRole('button', { name: /Lesson 1/ }));
    await findPlayer('Lecture 1: Lesson 1');
    await view.user.click(screen.getByRole('button', { name: /Lesson 2/ }));
    const again = await findPlayer('Lecture 2: Lesson 2');
    act(() => void again.dispatchEvent(new Event('loadedmetadata')));
    expect(again.currentTime).toBe(250);
    expect(screen.getByText(progressTexts.resumedAt('4:10'))).toBeInTheDocument();
  });

  it('ignores a time that is not a number of seconds', async () => {
    stubLecturePage([]);
    storeLogin(learner);
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    await act(() => view.router.navigate(`/course/lecture?id=${course._id}&lecture=${lecture(2)._id}&t=-5e3`));
    const player = await findPlayer('Lecture 2: Lesson 2');
    act(() => void player.dispatchEvent(new Event('loadedmetadata')));
    expect(player.currentTime).toBe(250);
  });
});

describe('/course/lecture: captions and transcript', () => {
  it('shows the transcript beside the player; a line seeks the video; the CC choice is remembered for this user and followed by the transcript', async () => {
    stubLecturePage([caption('en', 'English', true), caption('hi', 'हिन्दी', false)]);
    storeLogin(learner);
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    await act(() => view.router.navigate(`/course/lecture?id=${course._id}`, { state: course }));
    const player = await findPlayer('Lecture 1: Lesson 1');
    const transcript = await screen.findByRole('region', { name: 'Transcript' });
    await view.user.click(await within(transcript).findByRole('button', { name: /The borrow checker/ }));
    expect(player.currentTime).toBe(95.25);

    await view.user.click(screen.getByRole('button', { name: 'Captions' }));
    await view.user.click(screen.getByRole('menuitemradio', { name: 'हिन्दी' }));
    expect(localStorage.getItem(`lms.captions.${learner._id}`)).toBe('hi');
    expect(await within(transcript).findByText('रस्ट में स्वागत है।')).toBeInTheDocument();
    expect(within(transcript).getByRole('combobox', { name: 'Transcript language' })).toHaveValue('hi');
  });

  it('has no transcript and no captions control for a lecture without captions', async () => {
    stubLecturePage([]);
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    storeLogin(learner);
    await act(() => view.router.navigate(`/course/lecture?id=${course._id}`, { state: course }));
    await findPlayer('Lecture 1: Lesson 1');
    await waitFor(() => expect(screen.getByRole('complementary', { name: 'Lectures list' })).toBeInTheDocument());
    expect(screen.queryByRole('region', { name: 'Transcript' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Captions' })).not.toBeInTheDocument();
  });
});
