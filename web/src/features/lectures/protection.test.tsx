import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { answers } from '@lms/contract/answers';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import type { Stream } from '@lms/contract/protection';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { holdLeaseStart, leaseAnswers, samplePlayback } from '../../test/playback';
import { playbackTexts } from '../protection';
import LecturePage from './LecturePage';
import { sampleCourse, sampleLecture } from '../../test/catalogue';

const course: Course = sampleCourse({ numbersOfLectures: 2 });
const lecture = (n: number, preview = false): Lecture => sampleLecture(n, { preview });
const learner = sampleUser({ subscription: { status: 'active' } });
const lecturesAnswer = (lectures = [lecture(1), lecture(2)]) => ({ body: { success: true, message: 'ok', course, lectures } });
const playback = samplePlayback();
const heartbeat = `POST /api/v1/playback/${playback.id}/heartbeat`;
const stop = `DELETE /api/v1/playback/${playback.id}`;

const streams: Stream[] = [
  {
    id: '40000000-0000-4000-8000-000000000001',
    device: 'Chrome on Windows',
    place: '203.0.113.0/24',
    lectureTitle: 'Ownership',
    lastSeenAt: new Date(Date.now() - 2 * 60_000).toISOString(),
    thisSession: false,
  },
  {
    id: '40000000-0000-4000-8000-000000000002',
    device: 'Safari on iPhone',
    place: 'Local network',
    lectureTitle: null,
    lastSeenAt: new Date(Date.now() - 10_000).toISOString(),
    thisSession: false,
  },
];
const refusal = { status: 409, body: { success: false, message: answers.streamLimit(2), limit: 2, streams } };

async function openLectures() {
  storeLogin(learner);
  const view = renderPage(<LecturePage />, { path: '/course/lecture' });
  await view.router.navigate(`/course/lecture?id=${course._id}`, { state: course });
  return view;
}

const player = (n = 1) => screen.findByLabelText(`Lecture ${n}: Lesson ${n}`) as Promise<HTMLVideoElement>;
const overlayIn = (video: HTMLVideoElement) => video.parentElement!.querySelector<HTMLElement>('[data-player-watermark]');

beforeEach(() => {
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
  HTMLMediaElement.prototype.pause = vi.fn();
});
afterEach(() => vi.useRealTimers());

describe('/course/lecture under a playback lease', () => {
  it('starts the lease before the player gets its source, draws the watermark with the code, and renews the lease every heartbeatSeconds', async () => {
    const calls = stubApi({
      ...leaseAnswers(samplePlayback({ heartbeatSeconds: 1 })),
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer(),
    });
    // The start is held until the test lets it go: no video before it.
    const leaseStart = holdLeaseStart();
    await openLectures();
    await waitFor(() => expect(leaseStart.asked()).toBe(true));
    expect(screen.queryByLabelText('Lecture 1: Lesson 1')).not.toBeInTheDocument();

    leaseStart.answer();
    await waitFor(() => expect(calls.some((call) => call.url === '/api/v1/playback')).toBe(true));
    expect(JSON.parse(calls.find((call) => call.url === '/api/v1/playback')!.init.body as string)).toEqual({ lectureId: lecture(1)._id });
    const video = await player();
    await waitFor(() => expect(video).toHaveAttribute('src', lecture(1).secure_url));
    const overlay = overlayIn(video)!;
    expect(overlay.shadowRoot!.textContent).toBe('as•••@example.com' + 'K7M2-Q9XD');
    expect(overlay.style.getPropertyPriority('opacity')).toBe('important');
    expect(overlay.style.getPropertyValue('opacity')).toBe('0.3');

    await vi.waitFor(() => expect(calls.filter((call) => call.url.endsWith('/heartbeat')).length).toBeGreaterThanOrEqual(2), { timeout: 4000 });
  });

  it("shows the lecture's poster where the player will be while the lease starts, then the player over it", async () => {
    const withPoster = { ...lecture(1), poster_url: '/media/posters/1.webp' };
    stubApi({ ...leaseAnswers(samplePlayback()), [`GET /api/v1/courses/${course._id}`]: lecturesAnswer([withPoster, lecture(2)]) });
    const leaseStart = holdLeaseStart();
    const view = await openLectures();
    await waitFor(() => expect(leaseStart.asked()).toBe(true));
    const poster = () => view.container.querySelector('img[src="/media/posters/1.webp"]');
    expect(poster()).toBeInTheDocument();
    expect(screen.queryByLabelText('Lecture 1: Lesson 1')).not.toBeInTheDocument();

    leaseStart.answer();
    expect(await player()).toHaveAttribute('poster', '/media/posters/1.webp');
    expect(poster()).not.toBeInTheDocument();
  });

  it('opened by its address, asks for the lectures with the course and starts the lease of the lecture named there only', async () => {
    const calls = stubApi({
      ...leaseAnswers(samplePlayback()),
      [`GET /api/v1/courses?id=${course._id}`]: { body: { success: true, message: 'ok', courses: [course], total: 1, page: 1, limit: 50 } },
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer(),
    });
    // The course's answer is held: the list and the lease do not wait for it.
    let answerCourse: (() => void) | undefined;
    const stubbed = globalThis.fetch;
    globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
      if (url === `/api/v1/courses?id=${course._id}`) await new Promise<void>((resolve) => (answerCourse = resolve));
      return stubbed(url, init);
    }) as typeof fetch;
    storeLogin(learner);
    const view = renderPage(<LecturePage />, { path: '/course/lecture' });
    await view.router.navigate(`/course/lecture?id=${course._id}&lecture=${lecture(2)._id}`);
    await waitFor(() => expect(calls.some((call) => call.url === '/api/v1/playback')).toBe(true));
    expect(answerCourse).toBeDefined();

    answerCourse!();
    await waitFor(() => expect(screen.getByLabelText('Lecture 2: Lesson 2')).toHaveAttribute('src', lecture(2).secure_url));
    const starts = calls.filter((call) => call.url === '/api/v1/playback');
    expect(starts.map((call) => JSON.parse(call.init.body as string))).toEqual([{ lectureId: lecture(2)._id }]);
    // Nothing was asked about the first lecture, which the page does not show.
    expect(calls.filter((call) => call.url.includes(lecture(1)._id))).toEqual([]);
  });

  it('plays a free preview with no lease and no watermark', async () => {
    const calls = stubApi({ [`GET /api/v1/courses/${course._id}`]: lecturesAnswer([lecture(1, true)]) });
    await openLectures();
    const video = await player();
    await waitFor(() => expect(video).toHaveAttribute('src', lecture(1).secure_url));
    expect(overlayIn(video)).toBeNull();
    expect(calls.some((call) => call.url.startsWith('/api/v1/playback'))).toBe(false);
  });

  it('shows the refusal instead of the video, naming the devices playing; "Stop playback there" stops that one, then plays here', async () => {
    let starts = 0;
    const calls = stubApi({
      ...leaseAnswers(),
      'POST /api/v1/playback': () => (++starts === 1 ? refusal : { status: 201, body: { success: true, message: 'ok', playback } }),
      [`DELETE /api/v1/playback/${streams[0]!.id}`]: { body: { success: true, message: answers.playbackStopped } },
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer(),
    });
    const { user } = await openLectures();
    const panel = await screen.findByRole('region', { name: playbackTexts.refusedTitle });
    expect(screen.queryByLabelText('Lecture 1: Lesson 1')).not.toBeInTheDocument();
    expect(within(panel).getByRole('alert')).toHaveTextContent(answers.streamLimit(2));
    // Focus goes to the refusal, so it is read at once.
    expect(within(panel).getByRole('heading', { name: playbackTexts.refusedTitle })).toHaveFocus();
    const [first, second] = within(panel).getAllByRole('listitem');
    expect(first).toHaveTextContent('Chrome on Windows');
    expect(first).toHaveTextContent('203.0.113.0/24 · last seen 2 min ago');
    expect(first).toHaveTextContent('Watching “Ownership”');
    expect(second).toHaveTextContent('Safari on iPhone');
    expect(second).toHaveTextContent('Local network · last seen just now');

    await user.click(within(first!).getByRole('button', { name: `${playbackTexts.stopThere} (Chrome on Windows, 203.0.113.0/24)` }));
    const video = await player();
    const sent = calls.filter((call) => call.url.startsWith('/api/v1/playback')).map((call) => `${call.init.method} ${call.url}`);
    expect(sent).toEqual(['POST /api/v1/playback', `DELETE /api/v1/playback/${streams[0]!.id}`, 'POST /api/v1/playback']);
    await waitFor(() => expect(video).toHaveAttribute('src', lecture(1).secure_url));
    // The viewer asked to watch: it plays.
    await vi.waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalled());
    expect(screen.queryByRole('region', { name: playbackTexts.refusedTitle })).not.toBeInTheDocument();
  });

  it('pauses with the server’s words when the lease was stopped elsewhere, and "Play here" starts again', async () => {
    let starts = 0;
    const calls = stubApi({
      ...leaseAnswers(samplePlayback({ heartbeatSeconds: 1 })),
      'POST /api/v1/playback': () => ({
        status: 201,
        body: {
          success: true,
          message: 'ok',
          playback: { ...playback, heartbeatSeconds: 1, watermark: { ...playback.watermark, code: ++starts === 1 ? 'K7M2Q9XD' : 'ABCD2345' } },
        },
      }),
      [heartbeat]: { status: 410, body: { success: false, message: answers.playbackEnded } },
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer(),
    });
    const { user } = await openLectures();
    const video = await player();
    const alert = await screen.findByText(answers.playbackEnded, {}, { timeout: 4000 });
    expect(alert).toHaveAttribute('role', 'alert');
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();
    const playHere = screen.getByRole('button', { name: playbackTexts.playHere });
    expect(playHere).toHaveFocus();
    // The video's own play is refused while the lease is gone.
    vi.mocked(HTMLMediaElement.prototype.pause).mockClear();
    act(() => void video.dispatchEvent(new Event('play')));
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();

    vi.mocked(HTMLMediaElement.prototype.play).mockClear();
    await user.click(playHere);
    await waitFor(() => expect(screen.queryByText(answers.playbackEnded)).not.toBeInTheDocument());
    expect(calls.filter((call) => call.url === '/api/v1/playback')).toHaveLength(2);
    // The source is attached again (segments need the new lease) and plays; the new code is drawn.
    await vi.waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalled());
    await waitFor(() => expect(overlayIn(video)!.shadowRoot!.textContent).toContain('ABCD-2345'));
  });

  it('starts a lapsed lease again by itself, saying nothing', async () => {
    const calls = stubApi({
      ...leaseAnswers(samplePlayback({ heartbeatSeconds: 1 })),
      [heartbeat]: { status: 410, body: { success: false, message: answers.playbackLapsed } },
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer(),
    });
    await openLectures();
    await player();
    await vi.waitFor(() => expect(calls.filter((call) => call.url === '/api/v1/playback').length).toBeGreaterThanOrEqual(2), { timeout: 4000 });
    expect(screen.queryByText(answers.playbackLapsed)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: playbackTexts.playHere })).not.toBeInTheDocument();
  });

  it('keeps renewing through a heartbeat that got no answer', async () => {
    let beats = 0;
    stubApi({
      ...leaseAnswers(samplePlayback({ heartbeatSeconds: 1 })),
      [`GET /api/v1/courses/${course._id}`]: lecturesAnswer(),
    });
    const stubbed = globalThis.fetch;
    globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
      if (url.endsWith('/heartbeat') && ++beats === 1) throw new TypeError('Failed to fetch');
      return stubbed(url, init);
    }) as typeof fetch;
    await openLectures();
    await player();
    // The first heartbeat fails on the network; the next comes after the retry delay (5 s).
    await vi.waitFor(() => expect(beats).toBe(2), { timeout: 8000 });
    expect(screen.queryByRole('button', { name: playbackTexts.playHere })).not.toBeInTheDocument();
  }, 12_000);

  it('stops the lease when another lecture is picked (whose player waits for its own) and when the page is left; a free preview needs none', async () => {
    const calls = stubApi({ ...leaseAnswers(), [`GET /api/v1/courses/${course._id}`]: lecturesAnswer([lecture(1), lecture(2), lecture(3, true)]) });
    let starts = 0;
    let answerSecond: (() => void) | undefined;
    const stubbed = globalThis.fetch;
    globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
      if (url === '/api/v1/playback' && ++starts === 2) await new Promise<void>((resolve) => (answerSecond = resolve));
      return stubbed(url, init);
    }) as typeof fetch;
    // Every source a video is given, even for a moment.
    const sources: string[] = [];
    const src = Object.getOwnPropertyDescriptor(HTMLMediaElement.prototype, 'src')!;
    vi.spyOn(HTMLMediaElement.prototype, 'src', 'set').mockImplementation(function (this: HTMLMediaElement, value: string) {
      sources.push(value);
      src.set!.call(this, value);
    });
    const { user, unmount } = await openLectures();
    await player();
    await user.click(screen.getByRole('button', { name: /Lesson 2/ }));
    await waitFor(() => expect(answerSecond).toBeDefined());
    // Lesson 1's lease is not Lesson 2's: no player, and no source, until its own comes.
    expect(screen.queryByLabelText('Lecture 2: Lesson 2')).not.toBeInTheDocument();
    expect(sources).toEqual([lecture(1).secure_url]);
    answerSecond!();
    await player(2);
    const stops = () => calls.filter((call) => `${call.init.method} ${call.url}` === stop);
    await waitFor(() => expect(stops()).toHaveLength(1));
    expect(stops()[0]!.init).toMatchObject({ keepalive: true, credentials: 'include' });
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/v1/playback')).toHaveLength(2));

    // A free preview plays at once, with no lease; Lesson 2's is stopped.
    await user.click(screen.getByRole('button', { name: /Lesson 3/ }));
    const preview = await player(3);
    await waitFor(() => expect(preview).toHaveAttribute('src', lecture(3).secure_url));
    await waitFor(() => expect(stops()).toHaveLength(2));
    expect(calls.filter((call) => call.url === '/api/v1/playback')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: /Lesson 1/ }));
    await player(1);
    await waitFor(() => expect(calls.filter((call) => call.url === '/api/v1/playback')).toHaveLength(3));
    fireEvent(window, new Event('pagehide'));
    await waitFor(() => expect(stops()).toHaveLength(3));
    unmount();
    // Already stopped as the page went: not stopped twice.
    expect(stops()).toHaveLength(3);
  });
});
