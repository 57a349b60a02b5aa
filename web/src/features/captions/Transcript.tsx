import { cuePlainText, parseCaptions } from '@lms/contract/webvtt';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { clockDuration } from '../../lib/format';
import { transcriptTexts } from './transcript-texts';

export interface TranscriptCaption {
  language: string;
  label: string;
  isDefault: boolean;
  url: string;
}

interface Props {
  captions: readonly TranscriptCaption[];
  /** The language the player shows (null: captions off): the transcript follows it when there is one. */
  shown: string | null;
  /** The lecture's video, for the current line and for seeking. */
  video: HTMLVideoElement | null;
  className?: string;
}

interface Line {
  start: number;
  end: number;
  text: string;
}
type Loaded = { url: string; lines: Line[] } | { url: string; failed: true };

/** After the learner scrolls the transcript, it stops following the video for this long. */
export const FOLLOW_PAUSE_MS = 6000;

/** Seconds into a line that a click seeks to. */
const SEEK_INTO_LINE = 0.25;

/** The line playing at `time`: the last one started, while it lasts (none in a gap between lines). */
function lineAt(lines: readonly Line[], time: number): number {
  let low = 0;
  let high = lines.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (lines[middle]!.start <= time) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found >= 0 && time < lines[found]!.end ? found : -1;
}

/**
 * The lecture's words with their times, beside the player: the line being spoken is highlighted and
 * kept in view, unless the learner has just scrolled the list themselves; a line seeks the video to it.
 * The lines are one tab stop, arrows move between them (a list of hundreds would otherwise cost as many Tabs).
 */
export function Transcript({ captions, shown, video, className = '' }: Props) {
  const headingId = useId();
  const listId = useId();
  const defaultLanguage = (captions.find((caption) => caption.isDefault) ?? captions[0])?.language ?? null;
  const [picked, setPicked] = useState<string | null>(shown);
  useEffect(() => {
    if (shown) setPicked(shown);
  }, [shown]);
  const caption = captions.find((item) => item.language === picked) ?? captions.find((item) => item.language === defaultLanguage);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [current, setCurrent] = useState(-1);
  const [focused, setFocused] = useState<number | null>(null);
  const [following, setFollowing] = useState(true);
  const [open, setOpen] = useState(true);
  const scroller = useRef<HTMLOListElement>(null);
  const resumeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** Until when scroll events are the panel's own (a smooth scroll fires many). */
  const ownScrollUntil = useRef(0);

  const url = caption?.url;
  // The WebVTT is a media file behind a signed link, as the video is: read as a file, not through the API client.
  useEffect(() => {
    if (!url) return;
    const abort = new AbortController();
    fetch(url, { credentials: 'same-origin', signal: abort.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const read = parseCaptions(await response.text());
        if (!read.ok) throw new Error(read.message);
        setLoaded({ url, lines: read.cues.map((cue) => ({ start: cue.start, end: cue.end, text: cuePlainText(cue.text) })) });
      })
      .catch(() => {
        if (!abort.signal.aborted) setLoaded({ url, failed: true });
      });
    return () => abort.abort();
  }, [url]);

  // A new link for the same language (signed afresh) keeps the lines on show while it loads.
  const lines = useMemo(() => (loaded && 'lines' in loaded ? loaded.lines : []), [loaded]);
  const failed = loaded !== null && 'failed' in loaded && loaded.url === url;

  useEffect(() => {
    if (!video) return;
    const update = () => setCurrent(lineAt(lines, video.currentTime));
    update();
    video.addEventListener('timeupdate', update);
    video.addEventListener('seeked', update);
    return () => {
      video.removeEventListener('timeupdate', update);
      video.removeEventListener('seeked', update);
    };
  }, [video, lines]);

  useEffect(() => () => clearTimeout(resumeTimer.current), []);

  const keepInView = (index: number) => {
    const list = scroller.current;
    const line = list?.querySelector<HTMLElement>(`[data-line="${index}"]`);
    if (!list || !line) return;
    // A third of the way down: the lines just said stay visible above it.
    const top = Math.max(0, line.offsetTop - list.offsetTop - list.clientHeight / 3);
    if (Math.abs(list.scrollTop - top) < 1) return;
    ownScrollUntil.current = Date.now() + 800;
    if (typeof list.scrollTo === 'function') list.scrollTo({ top, behavior: 'smooth' });
    else list.scrollTop = top;
  };

  useEffect(() => {
    if (following && current >= 0 && open) keepInView(current);
  }, [current, following, open]);

  function learnerScrolled() {
    if (Date.now() < ownScrollUntil.current) return;
    setFollowing(false);
    clearTimeout(resumeTimer.current);
    resumeTimer.current = setTimeout(() => setFollowing(true), FOLLOW_PAUSE_MS);
  }

  function backToCurrent() {
    clearTimeout(resumeTimer.current);
    setFollowing(true);
    if (current >= 0) keepInView(current);
  }

  function seek(index: number) {
    const line = lines[index];
    if (!video || !line) return;
    // A playing video goes on playing from there; a paused one waits there. A hair past the start: a
    // stream's timeline may begin a frame or two after its captions' (HLS maps them to its first picture),
    // and a paused video must show the line clicked.
    video.currentTime = Math.min(line.start + SEEK_INTO_LINE, (line.start + line.end) / 2);
    setCurrent(index);
  }

  function onListKey(event: KeyboardEvent<HTMLOListElement>) {
    const from = focused ?? Math.max(current, 0);
    const moves: Record<string, number> = { ArrowDown: from + 1, ArrowUp: from - 1, Home: 0, End: lines.length - 1, PageDown: from + 8, PageUp: from - 8 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const to = Math.min(lines.length - 1, Math.max(0, moves[event.key]!));
    setFocused(to);
    scroller.current?.querySelector<HTMLElement>(`[data-line="${to}"]`)?.focus();
  }

  if (captions.length === 0) return null;
  const tabStop = focused ?? Math.max(current, 0);

  return (
    <section aria-labelledby={headingId} className={`flex min-h-0 flex-col rounded-box border border-base-content/15 bg-base-100 ${className}`}>
      <div className="flex flex-wrap items-center gap-2 border-b border-base-content/10 px-3 py-2 sm:px-4">
        <h2 id={headingId} className="mr-auto text-lg font-semibold">
          {transcriptTexts.heading}
        </h2>
        {captions.length > 1 && (
          <select
            className="select select-sm w-auto max-w-[11rem]"
            aria-label={transcriptTexts.language}
            value={caption?.language}
            onChange={(event) => setPicked(event.target.value)}
          >
            {captions.map((item) => (
              <option key={item.language} value={item.language}>
                {item.label}
              </option>
            ))}
          </select>
        )}
        {/* Below the player on a phone the transcript can be folded away; beside it on a wide screen it has its own column. */}
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-square lg:hidden"
          aria-expanded={open}
          aria-controls={listId}
          aria-label={open ? transcriptTexts.hide : transcriptTexts.show}
          onClick={() => setOpen((before) => !before)}
        >
          <svg
            viewBox="0 0 24 24"
            width="18"
            height="18"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            className={open ? 'rotate-180' : ''}
            aria-hidden="true"
          >
            <path d="M6 9l6 6 6-6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      </div>
      <div id={listId} className={`relative min-h-0 flex-1 flex-col ${open ? 'flex' : 'hidden lg:flex'}`}>
        {failed ? (
          <p className="p-4 text-sm text-base-content/80">{transcriptTexts.failed}</p>
        ) : loaded === null || (lines.length === 0 && loaded.url !== url) ? (
          <div className="space-y-3 p-4" aria-busy="true">
            <span className="sr-only">{transcriptTexts.loading}</span>
            {[0, 1, 2, 3].map((row) => (
              <div key={row} className="skeleton h-5 w-full" aria-hidden="true" />
            ))}
          </div>
        ) : lines.length === 0 ? (
          <p className="p-4 text-sm text-base-content/80">{transcriptTexts.empty}</p>
        ) : (
          <ol
            ref={scroller}
            className="max-h-72 min-h-0 flex-1 space-y-0.5 overflow-y-auto overscroll-contain p-2 lg:max-h-none"
            onScroll={learnerScrolled}
            onWheel={() => (ownScrollUntil.current = 0)}
            onTouchMove={() => (ownScrollUntil.current = 0)}
            onKeyDown={onListKey}
          >
            {lines.map((line, index) => {
              const isCurrent = index === current;
              const time = clockDuration(Math.floor(line.start));
              return (
                <li key={index}>
                  <button
                    type="button"
                    data-line={index}
                    tabIndex={index === tabStop ? 0 : -1}
                    aria-current={isCurrent ? 'true' : undefined}
                    onFocus={() => setFocused(index)}
                    onClick={() => seek(index)}
                    className={`flex w-full cursor-pointer gap-3 rounded-field px-2 py-1.5 text-left text-sm leading-6 ${
                      isCurrent ? 'bg-primary/10 text-base-content' : 'text-base-content/80 hover:bg-base-200'
                    }`}
                  >
                    <span className={`min-w-10 shrink-0 tabular-nums ${isCurrent ? 'font-semibold text-primary' : 'text-base-content/60'}`}>{time}</span>
                    <span className="min-w-0 flex-1 wrap-anywhere">{line.text}</span>
                  </button>
                </li>
              );
            })}
          </ol>
        )}
        {!following && current >= 0 && (
          <button type="button" className="btn btn-primary btn-sm absolute bottom-3 left-1/2 -translate-x-1/2 shadow-md" onClick={backToCurrent}>
            {transcriptTexts.backToCurrent}
          </button>
        )}
      </div>
    </section>
  );
}
