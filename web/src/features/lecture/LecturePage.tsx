import { messages } from '@lms/contract/messages';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../app/api';
import { paths } from '../../app/paths';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { courseLink, useCourse } from '../course/use-course';
import { deleteLecture, getLectures } from './lecture.api';

const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2];

/** Spec §2: the player and the lecture list; selecting a lecture plays it; admins add and delete lectures. */
export default function LecturePage() {
  const course = useCourse();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const lectures = useAppSelector((state) => state.lecture.lectures);
  const { role, isLoggedIn } = useAppSelector((state) => state.auth);
  const [current, setCurrent] = useState(0);
  const [speed, setSpeed] = useState(1);
  const [refusal, setRefusal] = useState<string>();
  const [loading, setLoading] = useState(true);
  const video = useRef<HTMLVideoElement>(null);
  const courseId = course?._id;

  useEffect(() => {
    if (!courseId) return;
    setLoading(true);
    setRefusal(undefined);
    dispatch(getLectures(courseId))
      .then(() => setCurrent(0))
      .catch((error: unknown) => setRefusal(error instanceof ApiError ? error.message : messages.failedLoadLectures))
      .finally(() => setLoading(false));
  }, [dispatch, courseId]);

  useEffect(() => {
    if (video.current) video.current.playbackRate = speed;
  }, [speed, current]);

  if (!course) return <p className="p-8 text-center" aria-live="polite">Loading the course…</p>;
  const lecture = lectures[current];
  const isAdmin = role === 'ADMIN';

  async function onDelete(lectureId: string, title: string) {
    if (!window.confirm(`Delete the lecture "${title}"?`)) return;
    await dispatch(deleteLecture(course!._id, lectureId)).catch(() => undefined);
    setCurrent(0);
  }

  function play(index: number) {
    setCurrent(index);
    // Selecting a lecture plays it (spec §2); the new source loads first.
    requestAnimationFrame(() => video.current?.play().catch(() => undefined));
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="mb-6 text-2xl font-bold sm:text-3xl">
        Course: <span className="text-primary">{course.title}</span>
      </h1>

      {refusal && !loading && (
        <div role="alert" className="alert alert-warning mb-6 flex flex-col items-start gap-3 sm:flex-row sm:items-center">
          <span>{refusal}</span>
          {isLoggedIn && role !== 'ADMIN' ? (
            <Link to={paths.checkout} className="btn btn-primary btn-sm">{messages.subscribe}</Link>
          ) : !isLoggedIn ? (
            <Link to={paths.login} state={{ from: `${paths.courseLecture}?id=${course._id}` }} className="btn btn-primary btn-sm">Login</Link>
          ) : null}
        </div>
      )}

      {!refusal && !loading && (
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <div className="space-y-3">
            {lecture ? (
              <>
                <video
                  ref={video}
                  key={lecture._id}
                  src={lecture.secure_url}
                  controls
                  controlsList="nodownload"
                  disablePictureInPicture={false}
                  className="aspect-video w-full rounded-xl bg-black"
                  aria-label={`Lecture ${current + 1}: ${lecture.title}`}
                >
                  Your browser cannot play this video.
                </video>
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <h2 className="text-xl font-semibold">{lecture.title}</h2>
                  <label className="flex items-center gap-2 text-sm">
                    Speed
                    <select className="select select-sm" value={speed} onChange={(event) => setSpeed(Number(event.target.value))}>
                      {SPEEDS.map((value) => (
                        <option key={value} value={value}>{value}×</option>
                      ))}
                    </select>
                  </label>
                </div>
                <p className="whitespace-pre-line opacity-90">{lecture.description}</p>
              </>
            ) : (
              <p className="rounded-xl bg-base-200 p-8 text-center">This course has no lectures yet.</p>
            )}
          </div>

          <aside aria-labelledby="lecture-list" className="rounded-xl bg-base-200 p-4">
            <div className="mb-3 flex items-center justify-between gap-2">
              <h2 id="lecture-list" className="text-lg font-semibold">Lectures list</h2>
              {isAdmin && (
                <button type="button" className="btn btn-primary btn-sm" onClick={() => navigate(courseLink(paths.addLecture, course), { state: course })}>
                  {messages.addNewLecture}
                </button>
              )}
            </div>
            <ol className="space-y-2">
              {lectures.map((item, index) => (
                <li key={item._id} className="flex items-center gap-2">
                  <button
                    type="button"
                    className={`btn btn-block h-auto min-h-10 min-w-0 shrink justify-start py-2 text-left ${index === current ? 'btn-primary' : 'btn-ghost'}`}
                    aria-current={index === current ? 'true' : undefined}
                    onClick={() => play(index)}
                  >
                    <span className="opacity-70">{index + 1}.</span> {item.title}
                  </button>
                  {isAdmin && (
                    <button type="button" className="btn btn-error btn-sm" onClick={() => onDelete(item._id, item.title)} aria-label={`${messages.deleteLecture}: ${item.title}`}>
                      {messages.deleteLecture}
                    </button>
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
