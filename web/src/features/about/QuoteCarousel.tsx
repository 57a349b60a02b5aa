import { useCallback, useEffect, useState, useSyncExternalStore, type FocusEvent, type KeyboardEvent } from 'react';

export interface Quote {
  text: string;
  name: string;
}

/** How long each quote stays before the next one comes. */
export const ROTATION_MS = 5000;

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void) {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION).matches;

/** Up to two initials ("Nelson Mandela" → "NM"): an avatar without fetching a picture. */
function initials(name: string) {
  const words = name.split(/\s+/).filter((word) => /^\p{L}/u.test(word));
  return [words[0], words.length > 1 ? words.at(-1) : undefined].map((word) => word?.[0]?.toUpperCase() ?? '').join('');
}

/**
 * The WAI-ARIA APG carousel: a rotation control first, then Previous/Next; ←/→ while focus is inside.
 * It advances by itself every ROTATION_MS, except while the pointer is over it or focus is inside it,
 * after the visitor pressed Pause, or when the system asks for reduced motion (then Play starts it).
 * The slide region is polite whenever it is not rotating by itself, so a quote the visitor asked for is
 * read out, and a screen reader is not interrupted every few seconds by ones they did not.
 */
export function QuoteCarousel({ quotes, label, interval = ROTATION_MS }: { quotes: Quote[]; label: string; interval?: number }) {
  const [index, setIndex] = useState(0);
  const reducedMotion = useSyncExternalStore(subscribeReducedMotion, prefersReducedMotion, () => false);
  // null until the visitor presses Pause or Play: until then the system's motion preference decides.
  const [playChoice, setPlayChoice] = useState<boolean | null>(null);
  const [focusInside, setFocusInside] = useState(false);
  const [pointerOver, setPointerOver] = useState(false);
  const playing = playChoice ?? !reducedMotion;
  const rotating = playing && !focusInside && !pointerOver;
  const count = quotes.length;

  const go = useCallback((step: number) => setIndex((current) => (current + step + count) % count), [count]);

  // Keyed on `index` too: after Previous/Next the new quote gets its full time.
  useEffect(() => {
    if (!rotating || count < 2) return;
    const timer = setTimeout(() => go(1), interval);
    return () => clearTimeout(timer);
  }, [rotating, index, interval, count, go]);

  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    go(event.key === 'ArrowLeft' ? -1 : 1);
  }
  function onBlur(event: FocusEvent) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusInside(false);
  }

  const quote = quotes[index];
  if (!quote) return null;
  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      className="card bg-base-200 shadow-sm"
      onKeyDown={onKeyDown}
      onFocus={() => setFocusInside(true)}
      onBlur={onBlur}
      onPointerEnter={() => setPointerOver(true)}
      onPointerLeave={() => setPointerOver(false)}
    >
      <div className="card-body gap-4 p-4 sm:p-6">
        <div className="flex items-center justify-between gap-2">
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setPlayChoice(!playing)}>
            {playing ? <PauseIcon /> : <PlayIcon />}
            {playing ? 'Pause quotes' : 'Play quotes'}
          </button>
          <div className="flex items-center gap-2">
            <button type="button" className="btn btn-sm btn-circle" aria-label="Previous quote" onClick={() => go(-1)}>
              <ChevronIcon direction="left" />
            </button>
            <span className="min-w-10 text-center text-sm tabular-nums" aria-hidden="true">
              {index + 1} / {count}
            </span>
            <button type="button" className="btn btn-sm btn-circle" aria-label="Next quote" onClick={() => go(1)}>
              <ChevronIcon direction="right" />
            </button>
          </div>
        </div>
        <div aria-live={rotating ? 'off' : 'polite'} className="min-h-48 sm:min-h-36">
          {/* The slide is a group of its own: a figure with a caption may take no other role (axe aria-allowed-role). */}
          <div key={index} role="group" aria-roledescription="slide" aria-label={`${index + 1} of ${count}`}>
            <figure className="flex flex-col items-center gap-4 text-center">
              <blockquote className="max-w-2xl text-xl italic sm:text-2xl">
                <p>&ldquo;{quote.text}&rdquo;</p>
              </blockquote>
              <figcaption className="flex items-center gap-3 font-semibold">
                <div className="avatar avatar-placeholder" aria-hidden="true">
                  <div className="w-10 rounded-full bg-neutral text-neutral-content">
                    <span className="text-sm">{initials(quote.name)}</span>
                  </div>
                </div>
                {quote.name}
              </figcaption>
            </figure>
          </div>
        </div>
      </div>
    </section>
  );
}

const iconProps = { viewBox: '0 0 24 24', width: 16, height: 16, fill: 'currentColor', 'aria-hidden': true, focusable: false } as const;
const PauseIcon = () => (
  <svg {...iconProps}>
    <path d="M6 4h4v16H6zM14 4h4v16h-4z" />
  </svg>
);
const PlayIcon = () => (
  <svg {...iconProps}>
    <path d="M7 4v16l13-8z" />
  </svg>
);
const ChevronIcon = ({ direction }: { direction: 'left' | 'right' }) => (
  <svg {...iconProps} fill="none" stroke="currentColor" strokeWidth={2.5}>
    <path d={direction === 'left' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'} />
  </svg>
);
