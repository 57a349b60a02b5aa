import { messages } from '@lms/contract/messages';
import type HlsType from 'hls.js';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { openingCaption, rememberCaption, rememberedCaption, sameLanguage, toggledOnCaption, type PlayerCaption } from './caption-choice';
import { CaptionsMenu } from './CaptionsMenu';
import { loadHls, playerHlsConfig, takeEarlyHls } from './hls-loader';
import { playerTexts } from './player-texts';
import { useWatermark, type PlayerWatermark } from './watermark';

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
  /** The viewer and playback code drawn over the picture, kept visible (see useWatermark). */
  watermark?: PlayerWatermark | null;
  /** While true the video stays paused (its lease was stopped: segments would be refused). */
  locked?: boolean;
  /** A change attaches the source again where the video was (a new lease after the last one broke). */
  reloadKey?: number;
  /** Whether the source attached again by `reloadKey` plays at once. */
  playOnReload?: boolean;
  /**
   * The MP4 could not be played: its URL may be out of date (a learner is given the ladder only
   * once it is ready, and the upload's URL is refused from then on). Called once per source, for
   * the page to fetch the lecture's URLs again.
   */
  onSourceRefused?: () => void;
  /** The lecture's captions, each with the viewer's link to its WebVTT. */
  captions?: readonly PlayerCaption[];
  /** Whose choice of captions is remembered on this device: the signed-in user's id, else 'guest'. */
  viewer?: string;
  /** The language shown changed (null: captions off), for the transcript to follow. */
  onCaptionChange?: (language: string | null) => void;
}

/** The engine playing the source: its captions are shown in different ways. */
type Engine = 'mp4' | 'hls' | 'native';
const NO_CAPTIONS: readonly PlayerCaption[] = [];

const SEEK_SECONDS = 5;

/**
 * The lecture player (the lecture page and the free-preview dialog): adaptive HLS through hls.js,
 * loaded only when a player with an HLS URL mounts (its own chunk, never on `/`); the browser's
 * own HLS where there is no Media Source; the MP4 when there is no ladder or hls.js gives up.
 * A quality menu (Auto and each rendition) and keyboard shortcuts (space, ←/→, f, m).
 * Full screen is the frame's (video and what is drawn over it), never the bare video's: the
 * watermark goes full screen with the picture.
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
  watermark,
  locked = false,
  reloadKey = 0,
  playOnReload = false,
  onSourceRefused,
  captions = NO_CAPTIONS,
  viewer = 'guest',
  onCaptionChange,
}: Props) {
  const video = useRef<HTMLVideoElement | null>(null);
  const root = useRef<HTMLDivElement | null>(null);
  const frame = useRef<HTMLDivElement | null>(null);
  /** Where the video is, kept as it plays: attaching the source again starts from here. */
  const position = useRef(startAt);
  const [mountReload] = useState(reloadKey);
  const playOnReloadNow = useRef(playOnReload);
  playOnReloadNow.current = playOnReload;
  const [fullscreen, setFullscreen] = useState(false);
  const watermarkHidden = useWatermark(frame, video, watermark);
  const hls = useRef<HlsType | null>(null);
  /** Heights of the renditions, in hls.js's level order (lowest first). */
  const [levels, setLevels] = useState<number[]>([]);
  const [chosen, setChosen] = useState(-1);
  const [playing, setPlaying] = useState<number | undefined>();
  const qualityId = useId();
  const hintId = useId();
  const refusedSource = useRef<string | null>(null);
  const [engine, setEngine] = useState<Engine | null>(null);
  /** The languages of the playlist's SUBTITLES group, once hls.js has read it. */
  const [hlsSubtitles, setHlsSubtitles] = useState<string[] | null>(null);
  const captionLanguages = captions.map((caption) => caption.language).join();
  const [caption, setCaption] = useState<string | null>(() => openingCaption(captions, rememberedCaption(viewer)));
  /** The language `C` turns on again after turning captions off. */
  const lastCaption = useRef<string | null>(null);
  const captionChanged = useRef(onCaptionChange);
  captionChanged.current = onCaptionChange;

  // The list comes after the player mounts (its own request) and differs per lecture: open with the viewer's choice.
  useEffect(() => {
    const remembered = rememberedCaption(viewer);
    lastCaption.current = remembered === 'off' ? null : remembered;
    setCaption(openingCaption(captions, remembered));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the languages, not the list's identity (its links are signed afresh)
  }, [captionLanguages, viewer]);

  useEffect(() => captionChanged.current?.(caption), [caption]);

  function chooseCaption(language: string | null) {
    setCaption(language);
    if (language) lastCaption.current = language;
    rememberCaption(viewer, language);
  }
  const toggleCaptions = useRef(() => {});
  toggleCaptions.current = () => {
    if (captions.length > 0) chooseCaption(caption ? null : toggledOnCaption(captions, lastCaption.current));
  };

  // C toggles captions from the player or the page itself, never while the learner types.
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'c' || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      const inPlayer = target === document.body || target === document.documentElement || (target !== null && root.current?.contains(target));
      if (!inPlayer || !target || target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      event.preventDefault();
      toggleCaptions.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // The browser draws the cues, inside the video (so in full screen too, and above its controls); their size follows the frame's width.
  useEffect(() => {
    const element = video.current;
    const box = frame.current;
    if (!element || !box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const width = entry?.contentRect.width ?? 0;
      element.style.setProperty('--cue-size', `${Math.round(Math.min(44, Math.max(15, width * 0.034)))}px`);
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // Shows the chosen language and hides the others, whichever engine plays: hls.js's subtitle tracks, the
  // browser's own HLS tracks, or our <track> elements (the MP4, or a playlist without a subtitles group).
  const usesTrackElements = engine === 'mp4' || (engine === 'hls' && hlsSubtitles !== null && hlsSubtitles.length === 0);
  useEffect(() => {
    const element = video.current;
    if (!element || !engine) return;
    const player = hls.current;
    if (engine === 'hls' && player && hlsSubtitles && hlsSubtitles.length > 0) {
      player.subtitleDisplay = caption !== null;
      player.subtitleTrack = caption === null ? -1 : hlsSubtitles.findIndex((language) => sameLanguage(language, caption));
      return;
    }
    const apply = () => {
      const tracks: TextTrack[] = usesTrackElements
        ? [...element.querySelectorAll('track')].flatMap((track) => (track.track ? [track.track] : []))
        : [...(element.textTracks ?? [])].filter((track) => track.kind === 'subtitles' || track.kind === 'captions');
      for (const track of tracks) track.mode = caption !== null && sameLanguage(track.language, caption) ? 'showing' : 'disabled';
    };
    apply();
    // The browser's own HLS adds its tracks once it has read the playlist.
    element.textTracks?.addEventListener?.('addtrack', apply);
    return () => element.textTracks?.removeEventListener?.('addtrack', apply);
  }, [caption, engine, hlsSubtitles, usesTrackElements, captionLanguages]);

  useEffect(() => {
    const element = video.current;
    if (!element || !onSourceRefused) return;
    const refused = () => {
      if (hls.current || refusedSource.current === src) return;
      refusedSource.current = src;
      onSourceRefused();
    };
    element.addEventListener('error', refused);
    return () => element.removeEventListener('error', refused);
  }, [src, onSourceRefused]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    setLevels([]);
    setChosen(-1);
    setHlsSubtitles(null);
    const again = reloadKey !== mountReload;
    const from = again ? position.current : startAt;
    const play = again ? playOnReloadNow.current : autoPlay;
    const follow = () => {
      if (element.readyState > 0 && !element.seeking) position.current = element.currentTime;
    };
    element.addEventListener('timeupdate', follow);
    element.addEventListener('seeked', follow);
    // Played once its source is attached: hls.js attaches after its import, later than a play() asked for now.
    const start = () => void (play && element.play().catch(() => undefined));
    // The saved position, once the browser knows the video's length (hls.js is told directly, below).
    const seekToStart = () => {
      if (from > 0) element.addEventListener('loadedmetadata', () => (element.currentTime = from), { once: true });
    };
    if (!hlsSrc) {
      setEngine('mp4');
      seekToStart();
      element.src = src;
      start();
      return () => {
        element.removeEventListener('timeupdate', follow);
        element.removeEventListener('seeked', follow);
      };
    }
    let cancelled = false;
    const fallBackToMp4 = () => {
      hls.current?.destroy();
      hls.current = null;
      setLevels([]);
      setEngine('mp4');
      seekToStart();
      element.src = src;
      start();
    };
    loadHls()
      .then((Hls) => {
        if (cancelled) return;
        if (!Hls.isSupported()) {
          // No Media Source (iPhones before iOS 17): the browser's own HLS, else the MP4.
          seekToStart();
          const native = Boolean(element.canPlayType('application/vnd.apple.mpegurl'));
          setEngine(native ? 'native' : 'mp4');
          element.src = native ? hlsSrc : src;
          start();
          return;
        }
        // The lecture page may have started it on this ladder already, its playlists and first segment on their way.
        const early = takeEarlyHls(hlsSrc, from);
        const player = early ?? new Hls(playerHlsConfig(from));
        hls.current = player;
        setEngine('hls');
        const manifestRead = (levels: readonly { height: number }[], subtitles: readonly { lang?: string }[]) => {
          setLevels(levels.map((level) => level.height));
          setHlsSubtitles(subtitles.map((track) => track.lang ?? ''));
          start();
        };
        player.on(Hls.Events.SUBTITLE_TRACKS_UPDATED, (_event, data) => setHlsSubtitles(data.subtitleTracks.map((track) => track.lang ?? '')));
        player.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => setPlaying(data.level));
        player.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) fallBackToMp4();
        });
        if (!early) player.loadSource(hlsSrc);
        player.attachMedia(element);
        if (early && early.levels.length > 0) manifestRead(early.levels, early.subtitleTracks);
        else player.on(Hls.Events.MANIFEST_PARSED, (_event, data) => manifestRead(data.levels, data.subtitleTracks ?? []));
      })
      .catch(() => {
        if (!cancelled) fallBackToMp4();
      });
    return () => {
      // Before hls.js lets go of the video, which takes it back to 0.
      element.removeEventListener('timeupdate', follow);
      element.removeEventListener('seeked', follow);
      cancelled = true;
      hls.current?.destroy();
      hls.current = null;
    };
  }, [src, hlsSrc, autoPlay, startAt, reloadKey, mountReload]);

  useEffect(() => {
    const element = video.current;
    if (!locked || !element) return;
    element.pause();
    const refuse = () => element.pause();
    element.addEventListener('play', refuse);
    return () => element.removeEventListener('play', refuse);
  }, [locked]);

  // The browser's own full screen (a double tap, a phone's control) takes the bare video: the frame takes over.
  useEffect(() => {
    const onChange = () => {
      const element = document.fullscreenElement;
      setFullscreen(element !== null && element === frame.current);
      if (element && element === video.current && frame.current) {
        frame.current.requestFullscreen().catch(() => void document.exitFullscreen().catch(() => undefined));
      }
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  function toggleFullscreen() {
    const request = document.fullscreenElement ? document.exitFullscreen() : frame.current?.requestFullscreen?.();
    void request?.catch(() => undefined);
  }

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
      f: toggleFullscreen,
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
    <div ref={root} className="space-y-2" onKeyDown={onKeyDown}>
      {/* The frame goes full screen, with what is drawn over the video; its width sizes the watermark's type (container units). */}
      <div ref={frame} className="@container relative flex items-center bg-transparent [&:fullscreen]:bg-black">
        <video
          ref={setRefs}
          poster={poster ?? undefined}
          controls
          controlsList="nodownload nofullscreen"
          disablePictureInPicture={watermark ? true : undefined}
          preload="metadata"
          className={`aspect-video w-full bg-black ${className} [:fullscreen_&]:aspect-auto [:fullscreen_&]:h-full [:fullscreen_&]:rounded-none`}
          playsInline
          aria-label={label}
          aria-describedby={hintId}
        >
          {usesTrackElements &&
            captions.map((item) => <track key={item.language} kind="subtitles" srcLang={item.language} label={item.label} src={item.url} />)}
          Your browser cannot play this video.
        </video>
        {overlay}
        {watermarkHidden && (
          <p role="alert" className="absolute inset-x-2 top-2 rounded-box bg-black/85 px-3 py-2 text-center text-sm font-semibold text-white sm:inset-x-8">
            {playerTexts.watermarkHidden}
          </p>
        )}
        {fullscreen && (
          <button type="button" className="btn btn-sm absolute top-2 right-2 border-0 bg-black/60 text-white hover:bg-black/80" onClick={toggleFullscreen}>
            {playerTexts.exitFullscreen}
          </button>
        )}
      </div>
      <div className={`flex flex-wrap items-center justify-between gap-2 text-sm ${barClassName}`}>
        {/* Phones have no keyboard: the hint shows from the sm breakpoint, and stays the video's description. */}
        <p id={hintId} className="hidden text-base-content/70 sm:block">
          {messages.videoShortcuts}
          {captions.length > 0 && playerTexts.captionsShortcut}
        </p>
        <span className="ml-auto flex flex-wrap items-center gap-2">
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
          {captions.length > 0 && <CaptionsMenu captions={captions} chosen={caption} onChoose={chooseCaption} />}
          <button type="button" className="btn btn-ghost btn-sm" onClick={toggleFullscreen} aria-pressed={fullscreen}>
            <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
              <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {/* Named on a phone too, where the bar shows the icon only. */}
            <span className="max-sm:sr-only">{playerTexts.fullscreen}</span>
          </button>
        </span>
      </div>
    </div>
  );
}
