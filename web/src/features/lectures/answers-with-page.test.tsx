import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';
import type { LectureProgress } from '@lms/contract/progress';
import { messages } from '@lms/contract/messages';
import { PAGE_ANSWERS_ID } from '@lms/contract/pages';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { sampleUser } from '../../test/render';
import { holdLeaseStart, leaseAnswers } from '../../test/playback';
import { sampleCourse, sampleLecture } from '../../test/catalogue';

/** hls.js as an early start and the player drive it: each one made, its source, the video attached, its levels once read. */
const fakeHls = vi.hoisted(() => {
  interface Made {
    config: Record<string, unknown>;
    loadSource: ReturnType<typeof vi.fn>;
    attachMedia: ReturnType<typeof vi.fn>;
    levels: { height: number }[];
    subtitleTracks: { lang?: string }[];
  }
  const made: Made[] = [];
  const Hls = Object.assign(
    vi.fn(function Hls(config: Record<string, unknown>) {
      const instance: Made & { on: () => void; destroy: () => void } = {
        config,
        loadSource: vi.fn(),
        attachMedia: vi.fn(),
        levels: [],
        subtitleTracks: [],
        on: () => undefined,
        destroy: () => undefined,
      };
      made.push(instance);
      return instance;
    }),
    {
      isSupported: () => true,
      Events: { MANIFEST_PARSED: 'manifestParsed', SUBTITLE_TRACKS_UPDATED: 'subtitles', LEVEL_SWITCHED: 'levelSwitched', ERROR: 'error' },
    },
  );
  return { Hls, made };
});
vi.mock('hls.js', () => ({ default: fakeHls.Hls }));

const course: Course = sampleCourse();
const lecture: Lecture = sampleLecture(1);
const learner = sampleUser({ subscription: { status: 'active' } });

beforeEach(() => {
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
  HTMLMediaElement.prototype.pause = vi.fn();
});
afterEach(() => {
  vi.useRealTimers();
  document.getElementById(PAGE_ANSWERS_ID)?.remove();
});

/** The page as the server sends it to a signed-in subscriber (server/src/web-app.ts): the course's reads carried in its HTML. */
function sendAnswersWithPage(lectures: Lecture[], progress: LectureProgress[] = []) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = PAGE_ANSWERS_ID;
  script.textContent = JSON.stringify({
    '/user/me': { success: true, message: 'ok', user: learner },
    [`/courses?id=${course._id}`]: { success: true, message: 'ok', courses: [course], page: 1, totalPages: 1, total: 1 },
    [`/courses/${course._id}`]: { success: true, message: 'ok', course, lectures },
    [`/progress/courses/${course._id}`]: { success: true, message: 'ok', course: null, lectures: progress, quizzes: [], settings: { autoplayNext: true } },
  });
  document.body.append(script);
}

it("starts a subscriber's lecture from the answers sent with the page: the lease is the first request, the reads are not made again", async () => {
  sendAnswersWithPage([lecture]);
  // The client as it loads with that page: its modules fresh, so the answers are read from this document.
  vi.resetModules();
  const [{ renderPage, storeLogin, stubApi }, { default: LecturePage }] = await Promise.all([import('../../test/render'), import('./LecturePage')]);
  const calls = stubApi({ ...leaseAnswers() });
  storeLogin(learner);
  const view = renderPage(<LecturePage />, { path: '/course/lecture' });
  await view.router.navigate(`/course/lecture?id=${course._id}`);

  const video = (await screen.findByLabelText('Lecture 1: Lesson 1')) as HTMLVideoElement;
  await waitFor(() => expect(video).toHaveAttribute('src', lecture.secure_url));
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Rust');
  const asked = calls.map((call) => `${call.init.method ?? 'GET'} ${call.url}`);
  expect(asked[0]).toBe('POST /api/v1/playback');
  expect(asked).not.toContain(`GET /api/v1/courses/${course._id}`);
  expect(asked).not.toContain(`GET /api/v1/courses?id=${course._id}`);
  expect(asked).not.toContain(`GET /api/v1/progress/courses/${course._id}`);
});

it('opens the lecture the address names with its lease asked before the first render, which shows it without asking again', async () => {
  const first = sampleLecture(1);
  const named = sampleLecture(2);
  sendAnswersWithPage([first, named]);
  const address = `/course/lecture?id=${course._id}&lecture=${named._id}`;
  window.history.replaceState(null, '', address);
  vi.resetModules();
  const [{ findPlayer, memoryRouter, stubApi, storeLogin }, { createStore }, { default: LecturePage, beforeFirstRender }] = await Promise.all([
    import('../../test/render'),
    import('../../app/store'),
    import('./LecturePage'),
  ]);
  const calls = stubApi({ ...leaseAnswers() });
  storeLogin(learner);
  const store = createStore();

  // As the app's entry does for the page the browser opened (app/router.tsx): before anything renders,
  // and the first render waits for what it answers.
  const ready = beforeFirstRender(store);
  expect(calls.map((call) => `${call.init.method} ${call.url} ${String(call.init.body)}`)).toEqual([
    `POST /api/v1/playback ${JSON.stringify({ lectureId: named._id })}`,
  ]);
  await ready;

  const { routed } = memoryRouter([{ path: '/course/lecture', element: <LecturePage /> }], address);
  render(<Provider store={store}>{routed}</Provider>);
  // The first render has the course and its lectures (no skeleton, no request for them), and the
  // lease's answer: the player, with its source.
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Rust');
  expect(screen.getByLabelText('Lecture 2: Lesson 2')).toHaveAttribute('src', named.secure_url);
  await findPlayer('Lecture 2: Lesson 2');
  expect(calls.map((call) => `${call.init.method ?? 'GET'} ${call.url}`)).not.toContain(`GET /api/v1/courses/${course._id}`);
  expect(calls.filter((call) => call.url === '/api/v1/playback')).toHaveLength(1);
  window.history.replaceState(null, '', '/');
});

it('holds the first render back for the lease 200 ms at most, then shows the poster until it is answered', async () => {
  const withPoster = { ...sampleLecture(1), poster_url: '/media/posters/1.webp' };
  sendAnswersWithPage([withPoster]);
  window.history.replaceState(null, '', `/course/lecture?id=${course._id}`);
  vi.resetModules();
  const [{ findPlayer, memoryRouter, stubApi, storeLogin }, { createStore }, { default: LecturePage, beforeFirstRender }] = await Promise.all([
    import('../../test/render'),
    import('../../app/store'),
    import('./LecturePage'),
  ]);
  stubApi({ ...leaseAnswers() });
  const leaseStart = holdLeaseStart();
  storeLogin(learner);
  const store = createStore();

  vi.useFakeTimers();
  let settled = false;
  void beforeFirstRender(store).then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(199);
  expect(leaseStart.asked()).toBe(true);
  expect(settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(settled).toBe(true);
  vi.useRealTimers();

  const { routed } = memoryRouter([{ path: '/course/lecture', element: <LecturePage /> }], `/course/lecture?id=${course._id}`);
  const view = render(<Provider store={store}>{routed}</Provider>);
  expect(view.container.querySelector('img[src="/media/posters/1.webp"]')).toBeInTheDocument();
  expect(screen.queryByLabelText('Lecture 1: Lesson 1')).not.toBeInTheDocument();
  leaseStart.answer();
  expect(await findPlayer('Lecture 1: Lesson 1')).toHaveAttribute('src', withPoster.secure_url);
  window.history.replaceState(null, '', '/');
});

it("starts hls.js on the lecture's ladder once its lease is granted, at the learner's place, and the player attaches its video to it", async () => {
  const laddered = sampleLecture(1, { hls_url: '/media/hls/grant/1/master.m3u8', duration: 600 });
  const saved: LectureProgress = {
    lectureId: laddered._id,
    position: 90,
    watched: 90,
    completed: false,
    completedAt: null,
    updatedAt: new Date().toISOString(),
  };
  sendAnswersWithPage([laddered], [saved]);
  window.history.replaceState(null, '', `/course/lecture?id=${course._id}`);
  vi.resetModules();
  const [{ memoryRouter, stubApi, storeLogin }, { createStore }, { default: LecturePage, beforeFirstRender }, { loadHls }] = await Promise.all([
    import('../../test/render'),
    import('../../app/store'),
    import('./LecturePage'),
    import('../../lib/components/hls-loader'),
  ]);
  stubApi({ ...leaseAnswers() });
  const leaseStart = holdLeaseStart();
  storeLogin(learner);
  const store = createStore();
  fakeHls.made.length = 0;

  const ready = beforeFirstRender(store);
  await loadHls();
  // The playlists are refused without the lease: nothing is asked for before it is granted.
  expect(fakeHls.made).toHaveLength(0);
  leaseStart.answer();
  await ready;
  await vi.waitFor(() => expect(fakeHls.made).toHaveLength(1));
  const [early] = fakeHls.made;
  expect(early!.config).toMatchObject({ startFragPrefetch: true, startLevel: 0, startPosition: 90 });
  expect(early!.loadSource).toHaveBeenCalledWith(laddered.hls_url);
  // Its master playlist read while the page renders.
  early!.levels = [{ height: 360 }, { height: 720 }];

  const { routed } = memoryRouter([{ path: '/course/lecture', element: <LecturePage /> }], `/course/lecture?id=${course._id}`);
  render(<Provider store={store}>{routed}</Provider>);
  const video = await screen.findByLabelText('Lecture 1: Lesson 1');
  await waitFor(() => expect(early!.attachMedia).toHaveBeenCalledWith(video));
  // Taken, not made again nor told its source twice; its renditions listed at once.
  expect(fakeHls.made).toHaveLength(1);
  expect(early!.loadSource).toHaveBeenCalledTimes(1);
  const menu = screen.getByRole('combobox', { name: messages.videoQuality }) as HTMLSelectElement;
  expect([...menu.options].map((option) => option.text)).toEqual([messages.videoQualityAuto, '720p', '360p']);
  window.history.replaceState(null, '', '/');
});
