import { screen, waitFor } from '@testing-library/react';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { loadHls } from '../../lib/components/hls-loader';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { leaseAnswers } from '../../test/playback';
import LecturePage from './LecturePage';
import { sampleCourse, sampleLecture } from '../../test/catalogue';

// Never settles: the test looks at when hls.js is asked for, not at playing through it.
vi.mock('../../lib/components/hls-loader', () => ({ loadHls: vi.fn(() => new Promise(() => undefined)) }));

const course: Course = sampleCourse({ numbersOfLectures: 2 });
const lecture = (n: number, hls_url: string | null): Lecture => sampleLecture(n, { hls_url });

beforeEach(() => {
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
  HTMLMediaElement.prototype.pause = vi.fn();
  vi.mocked(loadHls).mockClear();
});

describe('/course/lecture and hls.js', () => {
  it('runs hls.js for a lecture with a ladder only: the MP4 lecture opened plays without it, the ladder picked next asks for it', async () => {
    stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: {
        body: { success: true, message: 'ok', course, lectures: [lecture(1, null), lecture(2, '/media/hls/grant/2/master.m3u8')] },
      },
    });
    storeLogin(sampleUser({ subscription: { status: 'active' } }));
    const { router, user } = renderPage(<LecturePage />, { path: '/course/lecture' });
    await router.navigate(`/course/lecture?id=${course._id}`, { state: course });
    const video = await screen.findByLabelText('Lecture 1: Lesson 1');
    await waitFor(() => expect(video).toHaveAttribute('src', lecture(1, null).secure_url));
    expect(loadHls).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: /Lesson 2/ }));
    await waitFor(() => expect(loadHls).toHaveBeenCalled());
  });
});
