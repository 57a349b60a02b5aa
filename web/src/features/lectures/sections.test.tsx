import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Course } from '@lms/contract/courses';
import type { Lecture, Section } from '@lms/contract/lectures';
import type { User } from '@lms/contract/users';
import { findPlayer, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import LecturePage from './LecturePage';
import { progressTexts } from '../progress';
import { leaseAnswers } from '../../test/playback';
import { sampleCourse, sampleLecture } from '../../test/catalogue';

const course: Course = sampleCourse({ numbersOfLectures: 4 });
const ownership: Section = { _id: '30000000-0000-4000-8000-000000000001', title: 'Ownership' };
const traits: Section = { _id: '30000000-0000-4000-8000-000000000002', title: 'Traits' };
const empty: Section = { _id: '30000000-0000-4000-8000-000000000003', title: 'Coming later' };
const lecture = (n: number, sectionId: string | null): Lecture => sampleLecture(n, { sectionId, duration: 600 });
const learner: User = sampleUser({ subscription: { status: 'active' } });
/** In display order, as the server lists them: Lesson 1 of no section, then Ownership's two, then Traits' one. */
const lectures = [lecture(1, null), lecture(2, ownership._id), lecture(3, ownership._id), lecture(4, traits._id)];
const progressRow = (n: number, completed: boolean) => ({
  lectureId: lecture(n, null)._id,
  position: completed ? 600 : 120,
  watched: 120,
  completed,
  completedAt: completed ? '2026-11-20T10:00:00.000Z' : null,
  updatedAt: '2026-11-20T10:00:00.000Z',
});

function stubCourse(rows: ReturnType<typeof progressRow>[]) {
  return stubApi({
    ...leaseAnswers(),
    [`GET /api/v1/courses/${course._id}`]: { body: { success: true, message: 'ok', course, sections: [ownership, traits, empty], lectures } },
    [`GET /api/v1/progress/courses/${course._id}`]: {
      body: {
        success: true,
        message: 'ok',
        course: {
          courseId: course._id,
          completedLectures: rows.filter((row) => row.completed).length,
          lectureCount: 4,
          percent: 25,
          lastLectureId: lecture(1, null)._id,
          lastWatchedAt: '2026-11-20T10:00:00.000Z',
        },
        lectures: rows,
        settings: { autoplayNext: false },
      },
    },
    'GET /api/v1/progress': { body: { success: true, message: 'ok', courses: [], settings: { autoplayNext: false } } },
    [`POST /api/v1/progress/lectures/${lecture(1, null)._id}`]: { body: { success: true, message: 'ok' } },
  });
}

async function openLectures() {
  storeLogin(learner);
  const view = renderPage(<LecturePage />, { path: '/course/lecture' });
  await view.router.navigate(`/course/lecture?id=${course._id}`, { state: course });
  return view;
}

beforeEach(() => {
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
});

describe('the lecture list of a course with sections', () => {
  it('lists the lectures of no section first, then each section under its title with how many of its lectures are done', async () => {
    stubCourse([progressRow(2, true), progressRow(3, false)]);
    await openLectures();
    const list = await screen.findByRole('complementary', { name: 'Lectures list' });
    const first = await within(list).findByRole('region', { name: 'Ownership' });
    expect(within(first).getByText(progressTexts.sectionDone(1, 2))).toBeInTheDocument();
    expect(
      within(first)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Lesson 2'), expect.stringContaining('Lesson 3')]);
    expect(within(within(list).getByRole('region', { name: 'Traits' })).getByText(progressTexts.sectionDone(0, 1))).toBeInTheDocument();
    // A section without lectures is left out; the numbers run on across sections.
    expect(within(list).queryByText('Coming later')).not.toBeInTheDocument();
    expect(within(list).getByRole('button', { name: /^4\. Lesson 4/ })).toBeInTheDocument();
    // Lesson 1, of no section, comes before every heading.
    const buttons = within(list).getAllByRole('button');
    expect(buttons[0]).toHaveTextContent('Lesson 1');
  });

  it('says nothing of progress to a learner who has not started the course', async () => {
    stubApi({
      ...leaseAnswers(),
      [`GET /api/v1/courses/${course._id}`]: { body: { success: true, message: 'ok', course, sections: [ownership, traits], lectures } },
      [`GET /api/v1/progress/courses/${course._id}`]: { body: { success: true, message: 'ok', course: null, lectures: [], settings: { autoplayNext: false } } },
      'GET /api/v1/progress': { body: { success: true, message: 'ok', courses: [], settings: { autoplayNext: false } } },
    });
    await openLectures();
    const section = await screen.findByRole('region', { name: 'Ownership' });
    expect(within(section).queryByText(/done/)).not.toBeInTheDocument();
  });

  it('plays next the first lecture of the next section', async () => {
    stubCourse([]);
    const { user } = await openLectures();
    const player = await findPlayer('Lecture 1: Lesson 1');
    player.currentTime = 600;
    act(() => void player.dispatchEvent(new Event('ended')));
    const upNext = await screen.findByRole('region', { name: progressTexts.upNext });
    expect(within(upNext).getByText('Lesson 2')).toBeInTheDocument();
    await user.click(within(upNext).getByRole('button', { name: progressTexts.playNextNow }));
    expect(await screen.findByLabelText('Lecture 2: Lesson 2')).toBeInTheDocument();
  });
});
