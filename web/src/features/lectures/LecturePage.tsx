import { messages } from '@lms/contract/messages';
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { clockDuration } from '../../lib/format';
import { checkoutPath } from '../payments';
import { paths } from '../../lib/paths';
import { useGetCourseProgressQuery, useMarkCompletedMutation, useSetAutoplayNextMutation } from '../progress';
import { useProgressTracking } from '../progress';
import { messageOf } from '../../lib/server-state';
import { useAuth } from '../auth';
import { courseLink } from '../../lib/paths';
import { useCourse } from '../courses';
import { usePageTitle } from '../../lib/use-page-title';
import { withNext } from '../../lib/with-next';
import { VideoPlayer } from '../../lib/components/VideoPlayer';
import { loadHls } from '../../lib/components/hls-loader';
import { useGetLecturesQuery, useGetVideoStatusQuery } from './lectures.api';
import { LectureAdminTools } from './LectureAdminTools';
import { LectureList } from './LectureList';
import { LectureResources } from './LectureResources';
import { NextLecture } from './NextLecture';
import { linkedTime, openingPosition, timeIsForOpenedLecture } from './opening-position';
import { progressTexts } from '../progress';
import { loadCaptionsManager, Transcript, useGetCaptionsQuery } from '../captions';
import { PlaybackFailed, PlaybackStopped, StreamLimitPanel, usePlayback, watermarkOf } from '../protection';

/** The page's reads put in the cache, its lease and hls.js started, as its code runs when the browser opened it (app/router.tsx). */
export { beforeFirstRender } from './before-first-render';

const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2];

/** An administrator's captions of the lecture: not in a learner's download, nor run before the player. */
const CaptionsManager = lazy(loadCaptionsManager);
/** Below the lectures, for a learner: its own chunk, loaded once the player has its place, not run before it. */
const CourseCertificate = lazy(() => import('../certificates').then((certificates) => ({ default: certificates.CourseCertificate })));

/**
 * The player and the lecture list; selecting a lecture plays it; admins add and delete lectures.
 * The learner's place is saved as they watch and resumed when they come back; completed
 * lectures get a check; at the end the next lecture starts after a countdown. `?lecture=` opens a given
 * lecture (from "Continue watching"); `?t=` opens it at that second instead of the saved place (a search
 * result's line). The lecture's captions show in the player and, as a transcript, beside it.
 */
export default function LecturePage() {
  const course = useCourse();
  const navigate = useNavigate();
  const { role, isLoggedIn, data: user } = useAuth((auth) => auth);
  const [current, setCurrent] = useState(0);
  const [speed, setSpeed] = useState(1);
  /** A lecture picked from the list plays at once; the first one, shown on arrival, waits for the viewer. */
  const [chosenByViewer, setChosenByViewer] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  /** The same video, as state: the transcript listens to the element the player has now. */
  const [videoElement, setVideoElement] = useState<HTMLVideoElement | null>(null);
  const videoRef = useCallback((element: HTMLVideoElement | null) => {
    video.current = element;
    setVideoElement(element);
  }, []);
  const [captionShown, setCaptionShown] = useState<string | null>(null);
  const [search] = useSearchParams();
  // The address names the course: its lectures and the learner's progress are asked for with the course, not after it.
  const courseId = course?._id ?? search.get('id') ?? undefined;
  const answer = useGetLecturesQuery(courseId ?? '', { skip: !courseId });
  const progress = useGetCourseProgressQuery(courseId ?? '', { skip: !courseId || !isLoggedIn });
  const [markCompleted] = useMarkCompletedMutation();
  const [setAutoplayNext] = useSetAutoplayNextMutation();
  /** The position the lecture on show opened at, fixed once per lecture (later saves do not move the player). */
  const [opened, setOpened] = useState<{ lectureId: string; at: number; linked?: boolean } | null>(null);
  const [resumeNoticeHidden, setResumeNoticeHidden] = useState(false);
  const [upNext, setUpNext] = useState(false);
  const isAdmin = role === 'ADMIN';
  const videoStatus = useGetVideoStatusQuery(undefined, { skip: !isAdmin });
  usePageTitle(course ? `Lectures: ${course.title}` : undefined);
  // This course's answer only (never the last course's), once it has come.
  const lectures = answer.currentData?.lectures ?? [];
  const loading = !answer.currentData && !answer.isError;
  const refusal = answer.isError ? messageOf(answer.error, messages.failedLoadLectures) : undefined;

  // The selection starts at the first lecture, whenever the list arrives or changes: a lecture
  // added or deleted, not a lecture's preview switched (the admin keeps watching the one selected).
  const lectureIds = lectures.map((item) => item._id).join();
  const wanted = lectures.findIndex((item) => item._id === search.get('lecture'));
  const linkedAt = linkedTime(search.get('t'));
  /** The lecture `?t=` was used for: the link's time is for its first opening, not for coming back to it later. */
  const linkUsed = useRef<string | null>(null);
  // Set while rendering, not in an effect after it: the page never shows (nor asks for the lease, captions and
  // files of) the first lecture for a moment when the address names another. None at first: the first render
  // may have the list already (sent with the page), and picks from it.
  const selection = `${courseId}|${lectureIds}|${wanted}`;
  const [selectedFor, setSelectedFor] = useState<string | null>(null);
  if (selectedFor !== selection) {
    setSelectedFor(selection);
    setCurrent(Math.max(wanted, 0));
  }

  const lecture = lectures[current];
  const progressReady = !isLoggedIn || progress.isSuccess || progress.isError;
  const progressRows = progress.currentData?.lectures;
  const progressOf = (lectureId: string) => progressRows?.find((row) => row.lectureId === lectureId);
  const linkedLectureId = timeIsForOpenedLecture(search, wanted) ? (lectures[Math.max(wanted, 0)]?._id ?? null) : null;
  // Before the browser paints: the player waits for this place, and shows in the same frame as the lecture.
  useLayoutEffect(() => {
    if (!lecture || !progressReady) return;
    const saved = progressRows?.find((row) => row.lectureId === lecture._id);
    setOpened((before) => {
      if (before?.lectureId === lecture._id) return before;
      if (linkedAt !== null && lecture._id === linkedLectureId && linkUsed.current === null) {
        linkUsed.current = lecture._id;
        return { lectureId: lecture._id, at: openingPosition(lecture, saved, linkedAt), linked: true };
      }
      return { lectureId: lecture._id, at: openingPosition(lecture, saved, null) };
    });
  }, [lecture, progressReady, progressRows, linkedAt, linkedLectureId]);
  const lectureId = lecture?._id;
  useEffect(() => {
    setUpNext(false);
    setResumeNoticeHidden(false);
  }, [lectureId]);
  const openedAt = lecture && opened?.lectureId === lecture._id ? opened.at : undefined;
  const openedByLink = lecture !== undefined && opened?.lectureId === lecture._id && opened.linked === true;
  const captionsAnswer = useGetCaptionsQuery({ courseId: courseId ?? '', lectureId: lectureId ?? '' }, { skip: !courseId || !lectureId });
  const captions = (captionsAnswer.currentData?.captions ?? []).map(({ language, label, isDefault, url }) => ({ language, label, isDefault, url }));

  // hls.js is run while the lease and the progress are asked for, not once the player mounts after them; a
  // lecture without a ladder plays its MP4, and the main thread is not spent on hls.js before its first frame.
  const hasLadder = Boolean(lecture?.hls_url);
  useEffect(() => {
    if (hasLadder) loadHls().catch(() => undefined);
  }, [hasLadder]);

  // The player's place renders first, and the lease's request leaves with it (unless it left before the page rendered);
  // the rest of the page (the lecture's details and files, the list, the certificate) renders just after, while it is on its way.
  const [restShown, setRestShown] = useState(false);
  useEffect(() => {
    if (!loading) setRestShown(true);
  }, [loading]);

  const next = lectures[current + 1];
  // A lecture that is not a free preview plays under a lease, started before the player has its source.
  const playback = usePlayback(lectureId, isLoggedIn && lecture !== undefined && !lecture.preview, video);
  const lease = playback.state;
  const playerShown = openedAt !== undefined && (lease.kind === 'off' || lease.kind === 'playing' || lease.kind === 'stopped');
  const transcriptShown = playerShown && captions.length > 0;
  useProgressTracking({
    video,
    lectureId: lecture?._id,
    courseId,
    enabled: isLoggedIn && playerShown,
    onEnded: () => setUpNext(next !== undefined),
  });

  useEffect(() => {
    if (video.current) video.current.playbackRate = speed;
  }, [speed, current]);

  // The admin watches a video being processed: the list is asked for again every few seconds until none is.
  const inProgress = isAdmin && lectures.some((item) => item.processing.state === 'waiting' || item.processing.state === 'processing');
  const { refetch } = answer;
  useEffect(() => {
    if (!inProgress) return;
    const timer = setInterval(() => void refetch(), 3000);
    return () => clearInterval(timer);
  }, [inProgress, refetch]);

  if (!course)
    return (
      <p className="p-8 text-center" aria-live="polite">
        Loading the course…
      </p>
    );
  const lectureProgress = lecture && progressOf(lecture._id);
  const autoplayNext = progress.currentData?.settings.autoplayNext ?? true;
  const processingOff = isAdmin && videoStatus.data && !videoStatus.data.available ? videoStatus.data.reason : null;
  // Which ffmpeg processes the uploads, and a warning when it is one to replace (the npm package's old build).
  const ffmpeg = isAdmin ? videoStatus.data?.ffmpeg : null;
  // Shown with the list they are about, not before it: the page does not shift down under the notice.
  const ffmpegWarning = isAdmin && !loading ? videoStatus.data?.ffmpegWarning : null;

  function play(index: number) {
    setCurrent(index);
    // Selecting a lecture plays it, once the player has its source.
    setChosenByViewer(true);
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="mb-6 text-2xl font-bold wrap-anywhere sm:text-3xl">
        Course: <span className="text-primary">{course.title}</span>
      </h1>

      {processingOff && (
        <div role="status" className="alert alert-info alert-soft mb-6">
          <span className="wrap-anywhere">{processingOff}</span>
        </div>
      )}

      {ffmpegWarning && (
        // Solid, as the refusals below: amber text on the soft amber is too faint to read (light theme).
        <div role="status" className="alert alert-warning mb-6">
          <span className="wrap-anywhere">{ffmpegWarning}</span>
        </div>
      )}

      {refusal && !loading && (
        <div role="alert" className="alert alert-warning mb-6 flex flex-col items-start gap-3 sm:flex-row sm:items-center">
          <span className="wrap-anywhere">{refusal}</span>
          {isLoggedIn && role !== 'ADMIN' ? (
            <Link to={checkoutPath({ from: `${paths.courseLecture}?id=${encodeURIComponent(course._id)}` })} className="btn btn-primary btn-sm">
              {messages.subscribe}
            </Link>
          ) : !isLoggedIn ? (
            <Link to={withNext(paths.login, `${paths.courseLecture}?id=${course._id}`)} className="btn btn-primary btn-sm">
              Login
            </Link>
          ) : null}
        </div>
      )}

      {loading && (
        <div aria-hidden="true" className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div className="skeleton aspect-video w-full rounded-xl" />
          <div className="space-y-2 rounded-box bg-base-200 p-4">
            {[0, 1, 2].map((row) => (
              <div key={row} className="skeleton h-10 w-full" />
            ))}
          </div>
        </div>
      )}

      {!refusal && !loading && (
        // Phones stack the player, its transcript, the lecture's details and the list; wide screens put the
        // transcript beside the player, as tall as it (its box adds nothing to the row's height), and the list below it.
        // Without a transcript the list spans both rows; the second row takes what a long list adds, never the player's.
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:grid-rows-[auto_1fr]">
          <div className="min-w-0 space-y-3 lg:col-start-1 lg:row-start-1">
            {lecture ? (
              <>
                {lease.kind === 'refused' ? (
                  <StreamLimitPanel refusal={lease.refusal} busy={playback.busy} onStopThere={playback.stopThere} />
                ) : lease.kind === 'failed' ? (
                  <PlaybackFailed message={lease.message} busy={playback.busy !== null} onRetry={playback.playHere} />
                ) : !playerShown ? (
                  // The lecture's poster while its lease starts: the picture is there at once, where the player will be.
                  lecture.poster_url ? (
                    <img src={lecture.poster_url} alt="" className="aspect-video w-full rounded-xl bg-black object-contain" />
                  ) : (
                    <div className="skeleton aspect-video w-full rounded-xl" aria-hidden="true" />
                  )
                ) : (
                  <VideoPlayer
                    key={lecture._id}
                    videoRef={videoRef}
                    captions={captions}
                    viewer={user?._id ?? 'guest'}
                    onCaptionChange={setCaptionShown}
                    src={lecture.secure_url}
                    hlsSrc={lecture.hls_url}
                    poster={lecture.poster_url}
                    label={`Lecture ${current + 1}: ${lecture.title}`}
                    autoPlay={chosenByViewer || playback.playOnRestart}
                    startAt={playback.resumeAt ?? openedAt}
                    watermark={lease.kind === 'playing' || lease.kind === 'stopped' ? watermarkOf(lease.playback) : null}
                    locked={lease.kind === 'stopped'}
                    reloadKey={playback.restarts}
                    playOnReload={playback.playOnRestart}
                    onSourceRefused={() => void answer.refetch()}
                    overlay={
                      lease.kind === 'stopped' ? (
                        <PlaybackStopped message={lease.message} busy={playback.busy !== null} onPlayHere={playback.playHere} />
                      ) : upNext && next ? (
                        <NextLecture
                          title={next.title}
                          autoplay={autoplayNext}
                          onAutoplayChange={(value) => void setAutoplayNext({ courseId: course._id, autoplayNext: value })}
                          onPlay={() => play(current + 1)}
                          onCancel={() => setUpNext(false)}
                        />
                      ) : null
                    }
                  />
                )}
                {openedAt !== undefined && openedAt > 0 && !openedByLink && !resumeNoticeHidden && (
                  <p role="status" className="flex flex-wrap items-center gap-x-2 text-sm text-base-content/80">
                    {progressTexts.resumedAt(clockDuration(openedAt))}
                    <span aria-hidden="true">·</span>
                    <button
                      type="button"
                      className="link link-primary"
                      onClick={() => {
                        if (video.current) video.current.currentTime = 0;
                        setResumeNoticeHidden(true);
                      }}
                    >
                      {progressTexts.startOver}
                    </button>
                  </p>
                )}
              </>
            ) : (
              <p className="rounded-xl bg-base-200 p-8 text-center">This course has no lectures yet.</p>
            )}
          </div>

          {lecture && transcriptShown && restShown && (
            <div className="min-w-0 lg:relative lg:col-start-2 lg:row-start-1">
              <Transcript key={`transcript:${lecture._id}`} captions={captions} shown={captionShown} video={videoElement} className="lg:absolute lg:inset-0" />
            </div>
          )}

          {lecture && restShown && (
            <div className="min-w-0 space-y-3 self-start lg:col-start-1 lg:row-start-2">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <h2 className="min-w-0 text-xl font-semibold wrap-anywhere">{lecture.title}</h2>
                <div className="flex flex-wrap items-center gap-3">
                  {isLoggedIn && (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline"
                      aria-pressed={lectureProgress?.completed ?? false}
                      onClick={() => void markCompleted({ courseId: course._id, lectureId: lecture._id, completed: !lectureProgress?.completed })}
                    >
                      {/* Green text on a light button fails contrast: the check carries the colour, the words stay neutral. */}
                      {lectureProgress?.completed && (
                        <svg
                          viewBox="0 0 24 24"
                          width="16"
                          height="16"
                          fill="none"
                          stroke="currentColor"
                          strokeWidth="3"
                          className="text-success"
                          aria-hidden="true"
                        >
                          <path d="M5 12l5 5L20 7" />
                        </svg>
                      )}
                      {lectureProgress?.completed ? progressTexts.markNotDone : progressTexts.markDone}
                    </button>
                  )}
                  <label className="flex items-center gap-2 text-sm">
                    Speed
                    <select className="select select-sm" value={speed} onChange={(event) => setSpeed(Number(event.target.value))}>
                      {SPEEDS.map((value) => (
                        <option key={value} value={value}>
                          {value}×
                        </option>
                      ))}
                    </select>
                  </label>
                </div>
              </div>
              <p className="max-w-prose leading-7 whitespace-pre-line text-base-content/90 wrap-anywhere">{lecture.description}</p>
              {/* A key of its own: the player, its sibling, is keyed by the lecture's id, and two siblings with one key confuse React. */}
              <LectureResources key={`files:${lecture._id}`} courseId={course._id} lecture={lecture} canEdit={isAdmin} />
              {isAdmin && (
                <Suspense fallback={null}>
                  <CaptionsManager key={`captions:${lecture._id}`} courseId={course._id} lecture={lecture} />
                </Suspense>
              )}
            </div>
          )}

          <div className={`min-w-0 self-start lg:col-start-2 ${transcriptShown && restShown ? 'lg:row-start-2' : 'lg:row-span-2 lg:row-start-1'}`}>
            {!restShown ? (
              <div aria-hidden="true" className="space-y-2 rounded-box bg-base-200 p-4">
                {[0, 1, 2].map((row) => (
                  <div key={row} className="skeleton h-10 w-full" />
                ))}
              </div>
            ) : (
              <LectureList
                sections={answer.currentData?.sections}
                lectures={lectures}
                quizzes={answer.currentData?.quizzes}
                quizStanding={(quizId) => progress.currentData?.quizzes.find((row) => row.quizId === quizId)}
                courseId={course._id}
                current={current}
                onPick={play}
                progressOf={progressOf}
                course={progress.currentData?.course}
                action={
                  isAdmin && (
                    <button
                      type="button"
                      className="btn btn-primary btn-sm"
                      onClick={() => void navigate(courseLink(paths.addLecture, course), { state: course })}
                    >
                      {messages.addNewLecture}
                    </button>
                  )
                }
                adminTools={isAdmin ? (item) => <LectureAdminTools courseId={course._id} lecture={item} onDeleted={() => setCurrent(0)} /> : undefined}
                footer={
                  ffmpeg && (
                    <p className="mt-3 border-t border-base-content/10 px-1 pt-3 text-xs text-base-content/70 wrap-anywhere">
                      {messages.videoProcessedWith(ffmpeg)}
                    </p>
                  )
                }
              />
            )}
          </div>
        </div>
      )}
      {isLoggedIn && role === 'USER' && !refusal && !loading && restShown && (
        <Suspense fallback={null}>
          <CourseCertificate key={course._id} courseId={course._id} className="mt-8 lg:w-[calc((100%-1.5rem)*2/3)]" />
        </Suspense>
      )}
    </section>
  );
}
