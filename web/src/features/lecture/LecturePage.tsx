import { messages } from '@lms/contract/messages';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { clockDuration, isoDuration } from '../../app/format';
import { paths } from '../../app/paths';
import { messageOf } from '../../app/server-state';
import { useAppSelector } from '../../app/store';
import { courseLink, useCourse } from '../../app/use-course';
import { usePageTitle } from '../../app/use-page-title';
import { withNext } from '../../app/with-next';
import { VideoPlayer } from '../../components/VideoPlayer';
import { useDeleteLectureMutation, useGetLecturesQuery, useGetVideoStatusQuery, useRetryProcessingMutation, useSetLecturePreviewMutation } from './lecture.api';
import { ProcessingState } from './ProcessingState';

const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2];

/** Spec §2: the player and the lecture list; selecting a lecture plays it; admins add and delete lectures. */
export default function LecturePage() {
  const course = useCourse();
  const navigate = useNavigate();
  const { role, isLoggedIn } = useAppSelector((state) => state.auth);
  const [current, setCurrent] = useState(0);
  const [speed, setSpeed] = useState(1);
  /** A lecture picked from the list plays at once; the first one, shown on arrival, waits for the viewer. */
  const [chosenByViewer, setChosenByViewer] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const courseId = course?._id;
  const answer = useGetLecturesQuery(courseId ?? '', { skip: !courseId });
  const [deleteLecture] = useDeleteLectureMutation();
  const [setPreview] = useSetLecturePreviewMutation();
  const [retryProcessing] = useRetryProcessingMutation();
  const isAdmin = role === 'ADMIN';
  const videoStatus = useGetVideoStatusQuery(undefined, { skip: !isAdmin });
  /** Lectures whose preview switch is on its way to the server. */
  const [switching, setSwitching] = useState<ReadonlySet<string>>(new Set());
  usePageTitle(course ? `Lectures: ${course.title}` : undefined);
  // This course's answer only (never the last course's), once it has come.
  const lectures = answer.currentData?.lectures ?? [];
  const loading = !answer.currentData && !answer.isError;
  const refusal = answer.isError ? messageOf(answer.error, messages.failedLoadLectures) : undefined;

  // Spec §4: the selection starts at the first lecture, whenever the list arrives or changes: a lecture
  // added or deleted, not a lecture's preview switched (the admin keeps watching the one selected).
  const lectureIds = lectures.map((item) => item._id).join();
  useEffect(() => setCurrent(0), [courseId, lectureIds]);

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

  if (!course) return <p className="p-8 text-center" aria-live="polite">Loading the course…</p>;
  const lecture = lectures[current];
  const processingOff = isAdmin && videoStatus.data && !videoStatus.data.available ? videoStatus.data.reason : null;

  async function onDelete(lectureId: string, title: string) {
    if (!window.confirm(`Delete the lecture "${title}"?`)) return;
    await deleteLecture({ courseId: course!._id, lectureId });
    setCurrent(0);
  }

  async function onTogglePreview(lectureId: string, preview: boolean) {
    setSwitching((ids) => new Set(ids).add(lectureId));
    try {
      await setPreview({ courseId: course!._id, lectureId, preview });
    } finally {
      setSwitching((ids) => {
        const next = new Set(ids);
        next.delete(lectureId);
        return next;
      });
    }
  }

  function play(index: number) {
    setCurrent(index);
    // Selecting a lecture plays it (spec §2), once the player has its source.
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

      {refusal && !loading && (
        <div role="alert" className="alert alert-warning mb-6 flex flex-col items-start gap-3 sm:flex-row sm:items-center">
          <span className="wrap-anywhere">{refusal}</span>
          {isLoggedIn && role !== 'ADMIN' ? (
            <Link to={paths.checkout} className="btn btn-primary btn-sm">{messages.subscribe}</Link>
          ) : !isLoggedIn ? (
            <Link to={withNext(paths.login, `${paths.courseLecture}?id=${course._id}`)} className="btn btn-primary btn-sm">Login</Link>
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
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div className="min-w-0 space-y-3">
            {lecture ? (
              <>
                <VideoPlayer
                  key={lecture._id}
                  videoRef={video}
                  src={lecture.secure_url}
                  hlsSrc={lecture.hls_url}
                  poster={lecture.poster_url}
                  label={`Lecture ${current + 1}: ${lecture.title}`}
                  autoPlay={chosenByViewer}
                />
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <h2 className="min-w-0 text-xl font-semibold wrap-anywhere">{lecture.title}</h2>
                  <label className="flex items-center gap-2 text-sm">
                    Speed
                    <select className="select select-sm" value={speed} onChange={(event) => setSpeed(Number(event.target.value))}>
                      {SPEEDS.map((value) => (
                        <option key={value} value={value}>{value}×</option>
                      ))}
                    </select>
                  </label>
                </div>
                <p className="max-w-prose leading-7 whitespace-pre-line text-base-content/90 wrap-anywhere">{lecture.description}</p>
              </>
            ) : (
              <p className="rounded-xl bg-base-200 p-8 text-center">This course has no lectures yet.</p>
            )}
          </div>

          <aside aria-labelledby="lecture-list" className="min-w-0 self-start rounded-box border border-base-content/15 bg-base-100 p-3 sm:p-4">
            <div className="mb-3 flex flex-wrap items-center justify-between gap-2 px-1">
              <h2 id="lecture-list" className="text-lg font-semibold">Lectures list</h2>
              {isAdmin && (
                <button type="button" className="btn btn-primary btn-sm" onClick={() => navigate(courseLink(paths.addLecture, course), { state: course })}>
                  {messages.addNewLecture}
                </button>
              )}
            </div>
            <ol className={isAdmin ? 'divide-y divide-base-content/10' : 'space-y-1'}>
              {lectures.map((item, index) => (
                <li key={item._id} className={isAdmin ? 'py-1' : undefined}>
                  <button
                    type="button"
                    className={`flex w-full cursor-pointer items-start gap-2 rounded-field px-3 py-2.5 text-left ${index === current ? 'bg-primary/10 font-semibold text-primary' : 'hover:bg-base-200'}`}
                    aria-current={index === current ? 'true' : undefined}
                    onClick={() => play(index)}
                  >
                    <span className="text-base-content/70 tabular-nums">{index + 1}.</span>{' '}
                    <span className="min-w-0 flex-1 wrap-anywhere">{item.title}</span>
                    {item.duration !== null && ' '}
                    {item.duration !== null && (
                      <time dateTime={isoDuration(item.duration)} className="shrink-0 text-sm font-normal text-base-content/70 tabular-nums">
                        {clockDuration(item.duration)}
                      </time>
                    )}
                  </button>
                  {isAdmin && (
                    <ProcessingState
                      processing={item.processing}
                      title={item.title}
                      onRetry={() => void retryProcessing({ courseId: course._id, lectureId: item._id })}
                    />
                  )}
                  {isAdmin && (
                    <div className="flex flex-wrap items-center justify-between gap-2 px-3 pb-2">
                      <label className="flex cursor-pointer items-center gap-2 text-sm">
                        <input
                          type="checkbox"
                          className="toggle toggle-sm toggle-primary"
                          checked={item.preview}
                          disabled={switching.has(item._id)}
                          aria-label={messages.previewOn(item.title)}
                          onChange={(event) => void onTogglePreview(item._id, event.target.checked)}
                        />
                        {/* The switch's own words: a badge, as on the course page, when the lecture is a free preview. */}
                        <span className={item.preview ? 'badge badge-sm badge-soft badge-primary' : 'text-base-content/70'}>{messages.freePreview}</span>
                      </label>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm text-error"
                        onClick={() => onDelete(item._id, item.title)}
                        aria-label={`${messages.deleteLecture}: ${item.title}`}
                      >
                        {messages.deleteLecture}
                      </button>
                    </div>
                  )}
                </li>
              ))}
            </ol>
          </aside>
        </div>
      )}
    </section>
  );
}
