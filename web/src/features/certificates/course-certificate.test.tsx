import { answers } from '@lms/contract/answers';
import type { Certificate } from '@lms/contract/certificates';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { useMarkCompletedMutation } from '../progress';
import { CourseCertificate } from './CourseCertificate';
import { certificatesTexts as texts } from './certificates-texts';
import { sampleCertificate } from './sample-certificate';

const COURSE = '60000000-0000-4000-8000-000000000001';
const LECTURE = '70000000-0000-4000-8000-000000000005';
const standing = (certificate: Certificate | null, lecturesCompleted: number, lectures = 5) => ({
  body: { success: true, message: answers.certificateFetched, certificate, requirements: { lecturesCompleted, lectures, quizzesPassed: 0, quizzes: 0 } },
});
const figures = (completedLectures: number) => ({
  courseId: COURSE,
  completedLectures,
  lectureCount: 5,
  percent: completedLectures * 20,
  lastLectureId: LECTURE,
  lastWatchedAt: '2026-11-27T06:30:00.000Z',
});
const progress = (completedLectures: number) => ({
  body: { success: true, message: 'Progress', course: figures(completedLectures), lectures: [], settings: { autoplayNext: true } },
});

/** The lecture page's "mark as completed", as the block sees it: through the progress cache. */
function MarkDone() {
  const [markCompleted] = useMarkCompletedMutation();
  return (
    <button type="button" onClick={() => void markCompleted({ courseId: COURSE, lectureId: LECTURE, completed: true })}>
      Mark as completed
    </button>
  );
}

function open() {
  storeLogin(sampleUser());
  return renderPage(
    <>
      <MarkDone />
      <CourseCertificate courseId={COURSE} />
    </>,
  );
}

describe("the lecture page's certificate block", () => {
  it('before it is earned: how many lectures are completed of how many', async () => {
    stubApi({ [`GET /api/v1/courses/${COURSE}/certificate`]: standing(null, 3), [`GET /api/v1/progress/courses/${COURSE}`]: progress(3) });
    open();
    const block = await screen.findByRole('region', { name: texts.earnHeading });
    expect(within(block).getByText(texts.lecturesCompleted(3, 5))).toBeInTheDocument();
    expect(within(block).getByText('3 of 5 lectures completed')).toBeInTheDocument();
    expect(within(block).getByRole('progressbar', { name: texts.progressLabel })).toHaveAttribute('value', '3');
    expect(within(block).queryByRole('link')).not.toBeInTheDocument();
  });

  it('a course without lectures shows nothing', async () => {
    const calls = stubApi({ [`GET /api/v1/courses/${COURSE}/certificate`]: standing(null, 0, 0), [`GET /api/v1/progress/courses/${COURSE}`]: progress(0) });
    const { store } = open();
    // The standing has come (and says no lectures), not merely not yet.
    await waitFor(() =>
      expect(
        Object.values(store.getState().api?.queries ?? {}).some((entry) => entry?.endpointName === 'getCourseCertificate' && entry.status === 'fulfilled'),
      ).toBe(true),
    );
    expect(calls.some((call) => call.url.endsWith('/certificate'))).toBe(true);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });

  it('once earned: says so, with the PDF, LinkedIn, the link to copy and the public page', async () => {
    stubApi({ [`GET /api/v1/courses/${COURSE}/certificate`]: standing(sampleCertificate(), 5), [`GET /api/v1/progress/courses/${COURSE}`]: progress(5) });
    open();
    const block = await screen.findByRole('region', { name: texts.earnedHeading });
    const course = 'Data Structures in TypeScript';
    expect(within(block).getByRole('link', { name: texts.downloadPdfOf(course) })).toHaveAttribute('href', '/api/v1/certificates/7K2M9QXD4T8RB3HW/pdf');
    expect(within(block).getByRole('link', { name: texts.addToLinkedInOf(course) })).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(block).getByRole('button', { name: texts.copyLinkOf(course) })).toBeInTheDocument();
    expect(within(block).getByRole('link', { name: texts.viewOf(course) })).toHaveAttribute('href', '/certificates/7K2M9QXD4T8RB3HW');
    expect(within(block).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('completing the last lecture reads the standing again: the certificate appears, being made', async () => {
    let completed = 4;
    stubApi({
      [`GET /api/v1/courses/${COURSE}/certificate`]: () => standing(completed === 5 ? sampleCertificate({ state: 'issuing' }) : null, completed),
      [`GET /api/v1/progress/courses/${COURSE}`]: () => progress(completed),
      [`PUT /api/v1/progress/lectures/${LECTURE}/completed`]: () => {
        completed = 5;
        return { body: { success: true, message: 'Saved', course: figures(5) } };
      },
    });
    const { user } = open();
    expect(await screen.findByText(texts.lecturesCompleted(4, 5))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark as completed' }));
    const block = await screen.findByRole('region', { name: texts.earnedHeading });
    expect(within(block).getByText(texts.stillBeingMade)).toBeInTheDocument();
  });
});
