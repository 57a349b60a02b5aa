import { useEffect, useState, type RefObject } from 'react';

/** What the player draws over the picture: the viewer (masked email) and the playback's code, as shown. */
export interface PlayerWatermark {
  text: string;
  code: string;
  /** Percent. */
  opacity: number;
  size: 'small' | 'medium' | 'large';
}

/** Its type, in hundredths of the frame's width (container units), with a floor that stays legible on a phone. */
export const WATERMARK_FONT = { small: 'max(9px, 1.5cqw)', medium: 'max(10px, 2.1cqw)', large: 'max(12px, 2.9cqw)' };
/** It moves this often: a viewer gets used to none of its places, and a crop must cut wide. */
const MOVE_MIN_MS = 15_000;
const MOVE_MAX_MS = 30_000;
/** It is checked this often, beside every change of the frame's own children or of it. */
const CHECK_MS = 1000;
/** The middle box it keeps out of, as fractions of the frame (the middle 40 %). */
const CENTRE = { from: 0.3, to: 0.7 };
/** Computed opacity below this share of the one set is taken for an attempt to hide it. */
const OPACITY_FLOOR = 0.8;
const MARK = 'data-player-watermark';

/** Where the overlay sits: `p` and `q` are fractions of the room left beside and below it (0: left or top edge, 1: right or bottom). */
interface Place {
  p: number;
  q: number;
}

/**
 * A place out of the centre box. The overlay is put at `left: p%` and moved back by `p%` of its own
 * width (likewise down), so it always lies inside the frame whatever the frame's size (fullscreen,
 * a turned phone): its left edge is at p × (frame − overlay).
 */
export function placeOutOfCentre(frame: { width: number; height: number }, mark: { width: number; height: number }, random = Math.random): Place {
  // Without a layout (not shown yet) a band along the top or bottom edge is always out of the centre.
  if (frame.width <= 0 || frame.height <= 0 || mark.width >= frame.width || mark.height >= frame.height) {
    return { p: random(), q: random() < 0.5 ? random() * 0.1 : 0.9 + random() * 0.1 };
  }
  const roomX = frame.width - mark.width;
  const roomY = frame.height - mark.height;
  // The largest p (or q) that keeps the overlay's far edge before the centre box, and the smallest that keeps its near edge after it.
  const beforeX = Math.max(0, (CENTRE.from * frame.width - mark.width) / roomX);
  const afterX = Math.min(1, (CENTRE.to * frame.width) / roomX);
  const beforeY = Math.max(0, (CENTRE.from * frame.height - mark.height) / roomY);
  const afterY = Math.min(1, (CENTRE.to * frame.height) / roomY);
  const bands: (() => Place)[] = [];
  if (beforeY > 0) bands.push(() => ({ p: random(), q: random() * beforeY }));
  if (afterY < 1) bands.push(() => ({ p: random(), q: afterY + random() * (1 - afterY) }));
  if (beforeX > 0) bands.push(() => ({ p: random() * beforeX, q: random() }));
  if (afterX < 1) bands.push(() => ({ p: afterX + random() * (1 - afterX), q: random() }));
  // An overlay too large to keep out of the middle either way (a tiny frame): a corner is as far from it as it gets.
  if (bands.length === 0) return { p: random() < 0.5 ? 0 : 1, q: random() < 0.5 ? 0 : 1 };
  return bands[Math.floor(random() * bands.length)]!();
}

const pct = (fraction: number) => `${(fraction * 100).toFixed(2)}%`;

/** The styles that make it what it is, each `!important` inline: no stylesheet outranks them. */
function hostStyles(watermark: PlayerWatermark, place: Place): [string, string][] {
  return [
    ['position', 'absolute'],
    ['left', pct(place.p)],
    ['top', pct(place.q)],
    ['transform', `translate(-${pct(place.p)}, -${pct(place.q)})`],
    ['z-index', '2147483647'],
    ['display', 'block'],
    ['visibility', 'visible'],
    ['opacity', String(watermark.opacity / 100)],
    ['clip-path', 'none'],
    ['filter', 'none'],
    ['mix-blend-mode', 'normal'],
    ['margin', '0'],
    ['padding', '0.25em 0.5em'],
    ['width', 'auto'],
    ['height', 'auto'],
    ['max-width', 'none'],
    ['zoom', '1'],
    ['max-height', 'none'],
    ['overflow', 'visible'],
    ['pointer-events', 'none'],
    ['user-select', 'none'],
    ['color', '#fff'],
    ['background', 'none'],
    ['font', `600 ${WATERMARK_FONT[watermark.size]}/1.3 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace`],
    ['letter-spacing', '0.02em'],
    ['text-align', 'left'],
    ['text-shadow', '0 0 2px #000, 0 1px 3px #000'],
    ['white-space', 'nowrap'],
    ['transition', 'none'],
    ['animation', 'none'],
  ];
}

/** The overlay: its words in a shadow root, out of any stylesheet's reach; the host styled inline. */
function createOverlay(watermark: PlayerWatermark): HTMLDivElement {
  const host = document.createElement('div');
  host.setAttribute(MARK, '');
  // The video's accessible name says what plays; the overlay would be read over and over.
  host.setAttribute('aria-hidden', 'true');
  const root = host.attachShadow({ mode: 'open' });
  for (const line of [watermark.text, watermark.code]) {
    const row = document.createElement('div');
    row.textContent = line;
    row.style.setProperty('display', 'block', 'important');
    row.style.setProperty('visibility', 'visible', 'important');
    root.append(row);
  }
  return host;
}

/** Puts the overlay at `place`; gives back its style attribute as set, to tell our changes from anyone else's. */
function applyPlace(host: HTMLElement, watermark: PlayerWatermark, place: Place): string {
  for (const [name, value] of hostStyles(watermark, place)) host.style.setProperty(name, value, 'important');
  return host.getAttribute('style') ?? '';
}

/** A transform that leaves it whole: none, the one set, or a plain move (no scale, turn or skew). */
function plainMove(transform: string, declared: string): boolean {
  if (!transform || transform === 'none' || transform === declared) return true;
  const matrix = /^matrix\(([^)]+)\)$/.exec(transform);
  if (!matrix) return false;
  const [a, b, c, d] = matrix[1]!.split(',').map(Number);
  return a === 1 && b === 0 && c === 0 && d === 1;
}

/** Why the overlay cannot be seen as it should, or null when it can. `applied`: its style attribute as the player last set it. */
export function overlayProblem(
  host: HTMLElement,
  frame: HTMLElement,
  watermark: PlayerWatermark,
  video: HTMLVideoElement | null,
  applied: string,
): string | null {
  if (!host.isConnected || host.parentElement !== frame) return 'removed';
  if (host.shadowRoot?.textContent !== watermark.text + watermark.code) return 'changed';
  // Edited in place (the developer tools): whatever the edit, it is not ours.
  if (host.getAttribute('style') !== applied) return 'style';
  const style = getComputedStyle(host);
  if (style.display === 'none') return 'display';
  if (style.visibility !== 'visible' && style.visibility !== '') return 'visibility';
  if (Number(style.opacity || 1) < (watermark.opacity / 100) * OPACITY_FLOOR) return 'opacity';
  if (!plainMove(style.transform, host.style.getPropertyValue('transform'))) return 'transform';
  if (style.clipPath && style.clipPath !== 'none') return 'clip-path';
  if (style.filter && style.filter !== 'none') return 'filter';
  const box = frame.getBoundingClientRect();
  // A frame with no size shows no video either (and jsdom lays nothing out).
  if (box.width > 0 && box.height > 0) {
    const own = host.getBoundingClientRect();
    if (own.width <= 0 || own.height <= 0) return 'size';
    const slack = 1;
    if (own.left < box.left - slack || own.top < box.top - slack || own.right > box.right + slack || own.bottom > box.bottom + slack) return 'outside';
  }
  const fullscreen = document.fullscreenElement;
  if (fullscreen && !fullscreen.contains(host)) return 'fullscreen';
  // iPhones show a video full screen by itself, out of any page element's reach.
  if ((video as (HTMLVideoElement & { webkitDisplayingFullscreen?: boolean }) | null)?.webkitDisplayingFullscreen) return 'fullscreen';
  return null;
}

/**
 * Draws `watermark` over the video in `frame` and keeps it there: it moves to a new place out of
 * the centre every 15–30 s, and is checked every second and on every change around it. Should it
 * be gone, hidden, moved out or left outside the fullscreen element, the video pauses, a new one
 * is drawn, and the answer is true (the player says why) until the viewer presses play with it back.
 */
export function useWatermark(
  frame: RefObject<HTMLDivElement | null>,
  video: RefObject<HTMLVideoElement | null>,
  watermark: PlayerWatermark | null | undefined,
) {
  const [hidden, setHidden] = useState(false);
  const { text, code, opacity, size } = watermark ?? {};

  useEffect(() => {
    const box = frame.current;
    if (!box || text === undefined || code === undefined || opacity === undefined || size === undefined) return;
    const mark: PlayerWatermark = { text, code, opacity, size };
    let host = createOverlay(mark);
    let applied = '';
    let moveTimer: ReturnType<typeof setTimeout> | undefined;
    let tampered = false;

    const place = () => {
      const own = host.getBoundingClientRect();
      applied = applyPlace(host, mark, placeOutOfCentre(box.getBoundingClientRect(), own));
    };
    const move = () => {
      place();
      moveTimer = setTimeout(move, MOVE_MIN_MS + Math.random() * (MOVE_MAX_MS - MOVE_MIN_MS));
    };
    const watch = new MutationObserver(() => check());
    const observe = () => {
      watch.disconnect();
      watch.observe(box, { childList: true, attributes: true });
      watch.observe(host, { attributes: true });
      if (host.shadowRoot) watch.observe(host.shadowRoot, { childList: true, subtree: true, characterData: true, attributes: true });
    };
    /**
     * A new overlay, unobserved while it goes in: what keeps it from showing may stay, and must not
     * bring a redraw per change. Placed by measuring the frame and itself, unless `measure` is false:
     * then along the top or bottom edge (out of the centre whatever the sizes), for the resize
     * observer's first report to place once the page is laid out.
     */
    const draw = ({ measure }: { measure: boolean }) => {
      watch.disconnect();
      host.remove();
      host = createOverlay(mark);
      const unmeasured = { width: 0, height: 0 };
      applied = applyPlace(host, mark, placeOutOfCentre(measure ? box.getBoundingClientRect() : unmeasured, unmeasured));
      box.append(host);
      if (measure) place();
      watch.takeRecords();
      observe();
    };
    const check = (): boolean => {
      // Our own moves are seen by the observer too: they pass.
      const problem = overlayProblem(host, box, mark, video.current, applied);
      if (!problem) return true;
      tampered = true;
      setHidden(true);
      video.current?.pause();
      // Out of the fullscreen element, the overlay itself is fine: the player takes the frame full screen instead.
      if (problem !== 'fullscreen') draw({ measure: true });
      return false;
    };
    // Plays only with the overlay in place; pressing play with it back is what clears the notice.
    const onPlay = () => {
      if (!check()) return;
      if (tampered) {
        tampered = false;
        setHidden(false);
      }
    };
    // A new size (fullscreen, a turned phone) may bring the middle box onto it: a new place at once.
    // Its first report comes once the page is first laid out, before that layout is painted.
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => place()) : null;

    // Not measured while the page's first render is committed: a measure would make the browser lay
    // the whole page out there and then, before the player's effects give the video its source.
    draw({ measure: resize === null });
    resize?.observe(box);
    moveTimer = setTimeout(move, MOVE_MIN_MS + Math.random() * (MOVE_MAX_MS - MOVE_MIN_MS));
    const checkTimer = setInterval(check, CHECK_MS);
    const element = video.current;
    element?.addEventListener('play', onPlay);
    return () => {
      clearTimeout(moveTimer);
      clearInterval(checkTimer);
      watch.disconnect();
      resize?.disconnect();
      element?.removeEventListener('play', onPlay);
      host.remove();
      setHidden(false);
    };
  }, [frame, video, text, code, opacity, size]);

  return hidden;
}
