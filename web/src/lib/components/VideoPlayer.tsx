import { messages } from '@lms/contract/messages';
import type HlsType from 'hls.js';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';

interface Props {
  /** The uploaded MP4: plays in every state, and is the fallback when HLS cannot. */
  src: string;
  /** The HLS master playlist, once the ladder is ready. */
  hlsSrc?: string | null;
  poster?: string | null;
  /** The video's accessible name. */
  label: string;
  videoRef?: Ref<HTMLVideoElement>;
  /** The video's frame (default: rounded corners). */
  className?: string;
  /** The row under it: the shortcuts and the quality menu. */
  barClassName?: string;
  /** Start playing as soon as there is something to play (a lecture chosen from the list). */
  autoPlay?: boolean;
  /** Seconds: where to start (the learner's saved position). Read when the source is set. */
  startAt?: number;
  /** Shown over the picture (the next lecture's countdown). */
  overlay?: ReactNode;
}

const SEEK_SECONDS = 5;

/**
 * The lecture player (the lecture page and the free-preview dialog): adaptive HLS through hls.js,
 * loaded only when a player with an HLS URL mounts (its own chunk, never on `/`); the browser's
 * own HLS where there is no Media Source; the MP4 when there is no ladder or hls.js gives up.
 * A quality menu (Auto and each rendition) and keyboard shortcuts (space, ←/→, f, m).
 */
export function VideoPlayer({
  src,
  hlsSrc,
  poster,
  label,
  videoRef,
  className = 'rounded-xl',
  barClassName = '',
  autoPlay = false,
  startAt = 0,
  overlay,
}: Props) {
  const video = useRef<HTMLVideoElement | null>(null);
  const hls = useRef<HlsType | null>(null);
  /** Heights of the renditions, in hls.js's level order (lowest first). */
  const [levels, setLevels] = useState<number[]>([]);
  const [chosen, setChosen] = useState(-1);
  const [playing, setPlaying] = useState<number | undefined>();
  const qualityId = useId();
  const hintId = useId();

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    setLevels([]);
    setChosen(-1);
    // Played once its source is attached: hls.js attaches after its import, later than a play() asked for now.
    const start = () => void (autoPlay && element.play().catch(() => undefined));
    // The saved position, once the browser knows the video's length (hls.js is told directly, below).
    const seekToStart = () => {
      if (startAt > 0) element.addEventListener('loadedmetadata', () => (element.currentTime = startAt), { once: true });
    };
    if (!hlsSrc) {
      seekToStart();
      element.src = src;
      start();
      return;
    }
    let cancelled = false;
    const fallBackToMp4 = () => {
      hls.current?.destroy();
      hls.current = null;
      setLevels([]);
      seekToStart();
      element.src = src;
      start();
    };
    import('hls.js')
      .then(({ default: Hls }) => {
        if (cancelled) return;
        if (!Hls.isSupported()) {
          // No Media Source (iPhones before iOS 17): the browser's own HLS, else the MP4.
          seekToStart();
          element.src = element.canPlayType('application/vnd.apple.mpegurl') ? hlsSrc : src;
          start();
          return;
        }
        const player = new Hls({ capLevelToPlayerSize: true, ...(startAt > 0 && { startPosition: startAt }) });
        hls.current = player;
        player.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
          setLevels(data.levels.map((level) => level.height));
          start();
        });
        player.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => setPlaying(data.level));
        player.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) fallBackToMp4();
        });
        player.loadSource(hlsSrc);
        player.attachMedia(element);
      })
      .catch(() => {
        if (!cancelled) fallBackToMp4();
      });
    return () => {
      cancelled = true;
      hls.current?.destroy();
      hls.current = null;
    };
  }, [src, hlsSrc, autoPlay, startAt]);

  function choose(level: number) {
    setChosen(level);
    if (hls.current) hls.current.currentLevel = level;
  }

  /** Shortcuts while the player has focus; never keys meant for a control inside it. */
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const element = video.current;
    const target = event.target as HTMLElement;
    if (!element || event.altKey || event.ctrlKey || event.metaKey || ['SELECT', 'BUTTON', 'INPUT'].includes(target.tagName)) return;
    const actions: Record<string, () => void> = {
      ' ': () => void (element.paused ? element.play().catch(() => undefined) : element.pause()),
      ArrowLeft: () => (element.currentTime = Math.max(0, element.currentTime - SEEK_SECONDS)),
      ArrowRight: () => (element.currentTime = Math.min(element.duration || Infinity, element.currentTime + SEEK_SECONDS)),
      f: () => void (document.fullscreenElement ? document.exitFullscreen() : element.requestFullscreen?.())?.catch?.(() => undefined),
      m: () => (element.muted = !element.muted),
    };
    const action = actions[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  const setRefs = (element: HTMLVideoElement | null) => {
    video.current = element;
    if (typeof videoRef === 'function') videoRef(element);
    else if (videoRef) videoRef.current = element;
  };
  const order = levels.map((height, index) => ({ height, index })).sort((a, b) => b.height - a.height);
  const playingHeight = playing === undefined ? undefined : levels[playing];

  return (
    <div className="space-y-2" onKeyDown={onKeyDown}>
      <div className="relative">
        <video
          ref={setRefs}
          poster={poster ?? undefined}
          controls
          controlsList="nodownload"
          preload="metadata"
          className={`aspect-video w-full bg-black ${className}`}
          playsInline
          aria-label={label}
          aria-describedby={hintId}
        >
          Your browser cannot play this video.
        </video>
        {overlay}
      </div>
      <div className={`flex flex-wrap items-center justify-between gap-2 text-sm ${barClassName}`}>
        {/* Phones have no keyboard: the hint shows from the sm breakpoint, and stays the video's description. */}
        <p id={hintId} className="hidden text-base-content/70 sm:block">
          {messages.videoShortcuts}
        </p>
        {levels.length > 0 && (
          <span className="flex items-center gap-2">
            <label htmlFor={qualityId}>{messages.videoQuality}</label>
            <select id={qualityId} className="select select-sm w-auto" value={chosen} onChange={(event) => choose(Number(event.target.value))}>
              <option value={-1}>{chosen === -1 && playingHeight ? messages.videoQualityAutoNow(playingHeight) : messages.videoQualityAuto}</option>
              {order.map(({ height, index }) => (
                <option key={index} value={index}>
                  {height}p
                </option>
              ))}
            </select>
          </span>
        )}
      </div>
    </div>
  );
}
