import type { Caption, CueInput } from '@lms/contract/captions';
import { checkCues, cuePlainText, parseCaptions } from '@lms/contract/webvtt';
import { memo, useCallback, useEffect, useId, useMemo, useReducer, useRef, useState, type Dispatch, type KeyboardEvent } from 'react';
import { VideoPlayer } from '../../lib/components/VideoPlayer';
import { useSaveCuesMutation } from './captions.api';
import { captionsTexts as texts } from './captions-texts';
import type { EditedLecture } from './CaptionsManager';
import { cueClock, readCueTime } from './cue-times';

/** Cues shown at once: a lecture's few thousand are paged, so typing in one never redraws them all. */
const PAGE = 100;
/** A new cue's length, in seconds. */
const NEW_CUE_SECONDS = 2;

/** A cue as the admin edits it: its times as typed (read when the preview shows it and when saved). */
interface EditedCue {
  key: number;
  start: string;
  end: string;
  text: string;
}
type Field = 'start' | 'end' | 'text';
type Action =
  | { type: 'load'; cues: CueInput[] }
  | { type: 'set'; key: number; field: Field; value: string }
  | { type: 'remove'; key: number }
  | { type: 'addAfter'; key: number | null; cue: EditedCue };

interface State {
  cues: EditedCue[];
  dirty: boolean;
}

let nextKey = 1;
const edited = (cue: CueInput): EditedCue => ({ key: nextKey++, start: cueClock(cue.start), end: cueClock(cue.end), text: cue.text });

function reduce(state: State, action: Action): State {
  switch (action.type) {
    case 'load':
      return { cues: action.cues.map(edited), dirty: false };
    case 'set':
      return { cues: state.cues.map((cue) => (cue.key === action.key ? { ...cue, [action.field]: action.value } : cue)), dirty: true };
    case 'remove':
      return { cues: state.cues.filter((cue) => cue.key !== action.key), dirty: true };
    case 'addAfter': {
      const at = action.key === null ? state.cues.length : state.cues.findIndex((cue) => cue.key === action.key) + 1;
      return { cues: [...state.cues.slice(0, at), action.cue, ...state.cues.slice(at)], dirty: true };
    }
  }
}

interface Props {
  courseId: string;
  lecture: EditedLecture;
  caption: Caption;
  onClose: () => void;
}

/**
 * One language's cues, edited over the lecture's video: each cue's start, end and text, a cue added
 * after another or deleted, times taken from the video, the cue under the video's time shown over
 * it as it is typed. Checked by the server's rules before it is sent (the first broken cue named and
 * focused); Save stores every cue as a new version of the file. Closing with unsaved edits asks first.
 */
export function CueEditor({ courseId, lecture, caption, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const baseId = useId();
  const [state, dispatch] = useReducer(reduce, { cues: [], dirty: false });
  const [loading, setLoading] = useState<'loading' | 'failed' | 'done'>('loading');
  const [loadProblem, setLoadProblem] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const [problem, setProblem] = useState<{ message: string; key?: number }>();
  const [savedVersion, setSavedVersion] = useState<number>();
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(0);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const [currentKey, setCurrentKey] = useState<number>();
  const [saveCues, saving] = useSaveCuesMutation();
  /** A field to focus once the list shows it (after a page change, a new cue, a refusal). */
  const focusNext = useRef<{ key: number; field: Field } | null>(null);
  // The file as it was opened: later versions are this editor's own saves.
  const [url] = useState(caption.url);

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      const playing = element?.querySelector('video');
      if (playing && !playing.paused) playing.pause();
    };
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    setLoading('loading');
    fetch(url, { credentials: 'same-origin', signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(texts.fileFailed);
        const read = parseCaptions(await response.text());
        if (!read.ok) throw new Error(read.message);
        dispatch({ type: 'load', cues: read.cues });
        setLoading('done');
      })
      .catch((error: Error) => {
        if (error.name === 'AbortError') return;
        setLoadProblem(error.message === texts.fileFailed || !error.message ? texts.fileFailed : `${texts.fileFailed} ${error.message}`);
        setLoading('failed');
      });
    return () => controller.abort();
  }, [url, attempt]);

  const { cues, dirty } = state;
  /** Each cue's times as numbers, for the preview (a time being typed is left out until it reads). */
  const timed = useMemo(() => cues.map((cue) => ({ key: cue.key, start: readCueTime(cue.start), end: readCueTime(cue.end), text: cue.text })), [cues]);
  const shown = useMemo(() => {
    const words = filter.trim().toLocaleLowerCase();
    const positions = cues.map((_, index) => index);
    return words ? positions.filter((index) => cues[index]!.text.toLocaleLowerCase().includes(words)) : positions;
  }, [cues, filter]);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const pageShown = Math.min(page, pages - 1);
  const onPage = shown.slice(pageShown * PAGE, pageShown * PAGE + PAGE);

  useEffect(() => {
    const wanted = focusNext.current;
    if (!wanted) return;
    const element = document.getElementById(`${baseId}-${wanted.key}-${wanted.field}`);
    if (element) {
      focusNext.current = null;
      element.focus();
    }
  });

  // The handlers each row holds read the latest cues through this, so a keystroke in one cue redraws that cue only.
  const latest = useRef({ cues, timed, shown, filter, video });
  latest.current = { cues, timed, shown, filter, video };

  /** Shows cue `key` (its page, the filter dropped if it hides it) and focuses one of its fields. */
  const focusCue = useCallback((key: number, field: Field) => {
    const { cues, shown } = latest.current;
    const index = cues.findIndex((cue) => cue.key === key);
    if (index < 0) return;
    let position = shown.indexOf(index);
    if (position < 0) {
      setFilter('');
      position = index;
    }
    setPage(Math.floor(position / PAGE));
    focusNext.current = { key, field };
  }, []);

  const seek = useCallback(
    (seconds: number | undefined) => {
      if (video && seconds !== undefined) video.currentTime = seconds;
    },
    [video],
  );
  const videoTime = useCallback(() => cueClock(video?.currentTime ?? 0), [video]);

  const addAfter = useCallback((key: number | null) => {
    const { cues, timed, shown, filter, video } = latest.current;
    const index = key === null ? cues.length - 1 : cues.findIndex((cue) => cue.key === key);
    const before = index >= 0 ? timed[index] : undefined;
    const start = before?.end ?? video?.currentTime ?? 0;
    const cue = { key: nextKey++, start: cueClock(start), end: cueClock(start + NEW_CUE_SECONDS), text: '' };
    dispatch({ type: 'addAfter', key, cue });
    const position = (index >= 0 ? shown.indexOf(index) : shown.length - 1) + 1;
    if (!filter) setPage(Math.floor(Math.max(position, 0) / PAGE));
    focusNext.current = { key: cue.key, field: 'text' };
  }, []);

  const remove = useCallback(
    (key: number) => {
      const { cues } = latest.current;
      const index = cues.findIndex((cue) => cue.key === key);
      const neighbour = cues[index + 1] ?? cues[index - 1];
      dispatch({ type: 'remove', key });
      if (neighbour) focusNext.current = { key: neighbour.key, field: 'text' };
      else setTimeout(() => document.getElementById(`${baseId}-add`)?.focus());
    },
    [baseId],
  );

  function close() {
    if (dirty && !window.confirm(texts.discard)) return;
    if (video && !video.paused) video.pause();
    if (dialog.current?.open) dialog.current.close();
    onClose();
  }

  async function save() {
    if (saving.isLoading || loading !== 'done') return;
    const inputs: CueInput[] = [];
    for (const [index, cue] of cues.entries()) {
      const start = readCueTime(cue.start);
      const end = readCueTime(cue.end);
      if (start === undefined || end === undefined) {
        const which = start === undefined ? 'start' : 'end';
        setProblem({ message: texts.badTime(index + 1, which), key: cue.key });
        focusCue(cue.key, which);
        return;
      }
      inputs.push({ start, end, text: cue.text });
    }
    const read = checkCues(inputs);
    if (!read.ok) {
      // "Cue 3: …" names the cue by its number from 1.
      const number = /^Cue (\d+)\b/.exec(read.message)?.[1];
      const cue = number ? cues[Number(number) - 1] : undefined;
      setProblem({ message: read.message, key: cue?.key });
      if (cue)
        focusCue(cue.key, /ends before it starts|shown for more/.test(read.message) ? 'end' : /starts (before|after)/.test(read.message) ? 'start' : 'text');
      return;
    }
    setProblem(undefined);
    const answer = await saveCues({ courseId, lectureId: lecture._id, captionId: caption._id, cues: read.cues });
    if ('error' in answer) {
      setProblem({ message: answer.error && 'message' in answer.error ? String(answer.error.message) : texts.saveFailed });
      return;
    }
    dispatch({ type: 'load', cues: read.cues });
    setSavedVersion(answer.data.caption.version);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      void save();
    }
  }

  const titleId = `${baseId}-title`;
  const problemId = `${baseId}-problem`;
  return (
    <dialog
      ref={dialog}
      className="modal"
      aria-labelledby={titleId}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        // Escape: asked first when there are edits, as Cancel is.
        event.preventDefault();
        close();
      }}
    >
      <div className="modal-box flex h-[calc(100dvh-1rem)] w-[calc(100%-1rem)] max-w-6xl flex-col overflow-hidden p-0 sm:h-[calc(100dvh-3rem)]">
        <div className="flex items-center justify-between gap-3 border-b border-base-content/10 px-4 py-3">
          <h2 id={titleId} className="min-w-0 text-lg font-bold wrap-anywhere">
            {texts.editorTitle(caption.label, caption.language)}
          </h2>
          <button type="button" className="btn btn-circle btn-ghost btn-sm shrink-0" onClick={close} aria-label={texts.close}>
            <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
            </svg>
          </button>
        </div>

        <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
          <div className="shrink-0 space-y-1 border-base-content/10 p-3 pb-1 sm:px-4 lg:w-[46%] lg:pb-3 lg:space-y-2 lg:overflow-y-auto lg:border-r">
            <VideoPlayer
              src={lecture.secure_url}
              hlsSrc={lecture.hls_url}
              poster={lecture.poster_url}
              label={texts.preview(lecture.title)}
              videoRef={setVideo}
              className="rounded-field"
              barClassName="max-lg:hidden"
              overlay={<CueOverlay video={video} cues={timed} onCurrent={setCurrentKey} />}
            />
            <VideoClock video={video} />
            <ul className="hidden list-disc space-y-1 pl-4 text-xs text-base-content/70 lg:block">
              <li>{texts.previewHint}</li>
              <li>{texts.timeHint}</li>
              <li>{texts.saveKey}</li>
            </ul>
          </div>

          <div className="flex min-h-0 flex-1 flex-col">
            <div className="flex flex-wrap items-center gap-2 border-b border-base-content/10 px-3 py-2 sm:px-4">
              <label htmlFor={`${baseId}-filter`} className="sr-only">
                {texts.filter}
              </label>
              <input
                id={`${baseId}-filter`}
                type="search"
                className="input input-sm min-w-0 flex-1 basis-40"
                placeholder={texts.filterPlaceholder}
                value={filter}
                disabled={loading !== 'done'}
                onChange={(event) => {
                  setFilter(event.target.value);
                  setPage(0);
                }}
              />
              {loading === 'done' && shown.length > PAGE && (
                <nav aria-label={texts.filter} className="flex items-center gap-1 text-sm tabular-nums">
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs btn-square"
                    disabled={pageShown === 0}
                    aria-label={texts.previousPage}
                    onClick={() => setPage(pageShown - 1)}
                  >
                    ‹
                  </button>
                  <span aria-live="polite">{texts.shown(pageShown * PAGE + 1, pageShown * PAGE + onPage.length, shown.length)}</span>
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs btn-square"
                    disabled={pageShown >= pages - 1}
                    aria-label={texts.nextPage}
                    onClick={() => setPage(pageShown + 1)}
                  >
                    ›
                  </button>
                </nav>
              )}
            </div>

            <div className="min-h-0 flex-1 overflow-y-auto px-3 py-2 sm:px-4">
              {loading === 'loading' && (
                <p aria-live="polite" className="py-6 text-center text-sm text-base-content/70">
                  {texts.loading}
                </p>
              )}
              {loading === 'failed' && (
                <p role="alert" className="flex flex-wrap items-center gap-2 py-6 text-sm wrap-anywhere">
                  {loadProblem}
                  <button type="button" className="btn btn-ghost btn-xs" onClick={() => setAttempt((n) => n + 1)}>
                    {texts.retry}
                  </button>
                </p>
              )}
              {loading === 'done' && filter && shown.length === 0 && <p className="py-6 text-center text-sm text-base-content/70">{texts.noMatch}</p>}
              {loading === 'done' && (
                <ol className="space-y-2">
                  {onPage.map((index) => {
                    const cue = cues[index]!;
                    return (
                      <CueRow
                        key={cue.key}
                        baseId={baseId}
                        cue={cue}
                        number={index + 1}
                        invalid={problem?.key === cue.key}
                        problemId={problemId}
                        current={currentKey === cue.key}
                        dispatch={dispatch}
                        seek={seek}
                        videoTime={videoTime}
                        addAfter={addAfter}
                        remove={remove}
                      />
                    );
                  })}
                </ol>
              )}
              {loading === 'done' && !filter && (
                <button id={`${baseId}-add`} type="button" className="btn btn-ghost btn-sm mt-2" onClick={() => addAfter(null)}>
                  + {texts.addCue}
                </button>
              )}
            </div>
          </div>
        </div>

        <div className="flex flex-wrap items-center justify-between gap-2 border-t border-base-content/10 px-4 py-3">
          <div className="min-w-0 flex-1 basis-56 text-sm">
            {problem ? (
              <p id={problemId} role="alert" className="font-medium text-error wrap-anywhere">
                {problem.message}
              </p>
            ) : dirty ? (
              <p className="text-base-content/70">{texts.unsaved}</p>
            ) : savedVersion !== undefined ? (
              <p role="status" className="text-base-content/70">
                {texts.saved(savedVersion)}
              </p>
            ) : (
              <p className="text-base-content/70 lg:hidden">{texts.timeHint}</p>
            )}
          </div>
          <div className="flex gap-2">
            <button type="button" className="btn btn-ghost btn-sm" onClick={close}>
              {texts.cancel}
            </button>
            <button type="button" className="btn btn-primary btn-sm" disabled={loading !== 'done' || saving.isLoading} onClick={() => void save()}>
              {saving.isLoading ? texts.saving : texts.save}
            </button>
          </div>
        </div>
      </div>
    </dialog>
  );
}

interface RowProps {
  baseId: string;
  cue: EditedCue;
  number: number;
  invalid: boolean;
  problemId: string;
  current: boolean;
  dispatch: Dispatch<Action>;
  seek: (seconds: number | undefined) => void;
  videoTime: () => string;
  addAfter: (key: number) => void;
  remove: (key: number) => void;
}

/** One cue: a button that plays it in the preview, its times (each with "take the video's time"), its text, add after and delete. */
const CueRow = memo(function CueRow({ baseId, cue, number, invalid, problemId, current, dispatch, seek, videoTime, addAfter, remove }: RowProps) {
  const id = (field: Field) => `${baseId}-${cue.key}-${field}`;
  const set = (field: Field, value: string) => dispatch({ type: 'set', key: cue.key, field, value });
  const startBad = readCueTime(cue.start) === undefined;
  const endBad = readCueTime(cue.end) === undefined;
  const described = invalid ? problemId : undefined;
  return (
    <li
      aria-label={texts.cueGroup(number)}
      aria-current={current ? 'true' : undefined}
      className={`rounded-box border p-2 ${invalid ? 'border-error' : current ? 'border-primary/60 bg-primary/5' : 'border-base-content/15'}`}
    >
      <div className="flex flex-wrap items-center gap-x-1 gap-y-1 sm:gap-x-1.5">
        <button
          type="button"
          className="btn btn-ghost btn-xs min-w-8 gap-0.5 px-1 font-mono tabular-nums"
          aria-label={texts.playCue(number, cue.start)}
          onClick={() => seek(readCueTime(cue.start))}
        >
          <svg viewBox="0 0 24 24" width="10" height="10" fill="currentColor" aria-hidden="true">
            <path d="M7 4l13 8-13 8z" />
          </svg>
          {number}
        </button>
        <TimeField
          id={id('start')}
          label={texts.startOf(number)}
          short={texts.start}
          value={cue.start}
          bad={startBad}
          described={described}
          onChange={(value) => set('start', value)}
        />
        <button
          type="button"
          className="btn btn-ghost btn-xs btn-square"
          aria-label={texts.setStart(number)}
          title={texts.setStart(number)}
          onClick={() => set('start', videoTime())}
        >
          <ClockIcon />
        </button>
        <span aria-hidden="true" className="text-base-content/60">
          →
        </span>
        <TimeField
          id={id('end')}
          label={texts.endOf(number)}
          short={texts.end}
          value={cue.end}
          bad={endBad}
          described={described}
          onChange={(value) => set('end', value)}
        />
        <button
          type="button"
          className="btn btn-ghost btn-xs btn-square"
          aria-label={texts.setEnd(number)}
          title={texts.setEnd(number)}
          onClick={() => set('end', videoTime())}
        >
          <ClockIcon />
        </button>
      </div>
      <div className="mt-1 flex items-start gap-1">
        <textarea
          id={id('text')}
          className="textarea textarea-sm min-h-0 min-w-0 flex-1 leading-snug"
          rows={2}
          value={cue.text}
          aria-label={texts.textOf(number)}
          aria-invalid={invalid && !startBad && !endBad ? true : undefined}
          aria-describedby={described}
          onChange={(event) => set('text', event.target.value)}
        />
        <span className="flex shrink-0 flex-col">
          <button
            type="button"
            className="btn btn-ghost btn-xs btn-square"
            aria-label={texts.addAfter(number)}
            title={texts.addAfter(number)}
            onClick={() => addAfter(cue.key)}
          >
            <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
              <path d="M12 5v14M5 12h14" />
            </svg>
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-xs btn-square text-error"
            aria-label={texts.deleteCue(number)}
            title={texts.deleteCue(number)}
            onClick={() => remove(cue.key)}
          >
            <svg
              viewBox="0 0 24 24"
              width="14"
              height="14"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
            </svg>
          </button>
        </span>
      </div>
    </li>
  );
});

function TimeField({
  id,
  label,
  short,
  value,
  bad,
  described,
  onChange,
}: {
  id: string;
  label: string;
  short: string;
  value: string;
  bad: boolean;
  described: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <span className="flex items-center gap-1">
      <span aria-hidden="true" className="hidden text-xs text-base-content/70 sm:inline">
        {short}
      </span>
      <input
        id={id}
        className={`input input-xs w-[5.25rem] px-1.5 font-mono tabular-nums sm:w-[6.5rem] ${bad ? 'input-error' : ''}`}
        value={value}
        inputMode="decimal"
        spellCheck={false}
        autoComplete="off"
        aria-label={label}
        aria-invalid={bad || undefined}
        aria-describedby={described}
        onChange={(event) => onChange(event.target.value)}
      />
    </span>
  );
}

/** The video's time, followed while it plays (a frame at a time) and when it is moved. */
function useVideoTime(video: HTMLVideoElement | null): number {
  const [time, setTime] = useState(0);
  useEffect(() => {
    if (!video) return;
    let frame = 0;
    const read = () => setTime(video.currentTime);
    const follow = () => {
      read();
      frame = requestAnimationFrame(follow);
    };
    const onPlay = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(follow);
    };
    const onPause = () => {
      cancelAnimationFrame(frame);
      read();
    };
    video.addEventListener('play', onPlay);
    video.addEventListener('pause', onPause);
    video.addEventListener('seeked', read);
    video.addEventListener('timeupdate', read);
    read();
    return () => {
      cancelAnimationFrame(frame);
      video.removeEventListener('play', onPlay);
      video.removeEventListener('pause', onPause);
      video.removeEventListener('seeked', read);
      video.removeEventListener('timeupdate', read);
    };
  }, [video]);
  return time;
}

/** The edited text of the cues under the video's time, drawn over the picture as the player would show it. */
function CueOverlay({
  video,
  cues,
  onCurrent,
}: {
  video: HTMLVideoElement | null;
  cues: { key: number; start?: number; end?: number; text: string }[];
  onCurrent: (key: number | undefined) => void;
}) {
  const time = useVideoTime(video);
  const showing = cues.filter((cue) => cue.start !== undefined && cue.end !== undefined && cue.start <= time && time < cue.end);
  const firstKey = showing[0]?.key;
  useEffect(() => onCurrent(firstKey), [firstKey, onCurrent]);
  if (showing.length === 0) return null;
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 bottom-[max(14%,3.25rem)] flex flex-col items-center gap-1 px-3 @container">
      {showing.map((cue) => (
        <p key={cue.key} className="max-w-[90%] rounded bg-black/80 px-2 py-0.5 text-center text-[clamp(0.75rem,3.6cqw,1.5rem)] leading-snug text-white">
          {cue.text.split('\n').map((line, index) => (
            <span key={index} className="block">
              {cuePlainText(line)}
            </span>
          ))}
        </p>
      ))}
    </div>
  );
}

function VideoClock({ video }: { video: HTMLVideoElement | null }) {
  const time = useVideoTime(video);
  return <p className="font-mono text-sm tabular-nums text-base-content/80">{texts.now(cueClock(time))}</p>;
}

function ClockIcon() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </svg>
  );
}
