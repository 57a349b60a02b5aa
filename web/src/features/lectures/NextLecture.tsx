import { useEffect, useState } from 'react';
import { progressTexts } from '../progress';

/** Seconds before the next lecture starts by itself. */
export const COUNTDOWN_SECONDS = 5;

/**
 * Over the finished video: the next lecture, starting after a countdown that can be cancelled when
 * the learner lets it (their setting), or waiting for "Play now" when not. The switch changes the
 * setting for every lecture to come.
 */
export function NextLecture({
  title,
  autoplay,
  onAutoplayChange,
  onPlay,
  onCancel,
}: {
  title: string;
  autoplay: boolean;
  onAutoplayChange: (autoplay: boolean) => void;
  onPlay: () => void;
  onCancel: () => void;
}) {
  const [left, setLeft] = useState(COUNTDOWN_SECONDS);
  useEffect(() => {
    if (!autoplay) return;
    if (left <= 0) {
      onPlay();
      return;
    }
    const timer = setTimeout(() => setLeft((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [autoplay, left, onPlay]);

  return (
    <div
      role="region"
      aria-label={progressTexts.upNext}
      className="absolute inset-0 flex flex-col items-center justify-center gap-2 rounded-xl bg-black/80 p-3 text-center text-white sm:gap-3 sm:p-6"
    >
      <p className="text-xs tracking-wide text-white/80 uppercase sm:text-sm" aria-live="polite">
        {autoplay ? progressTexts.nextLectureIn(left) : progressTexts.upNext}
      </p>
      <p className="line-clamp-2 max-w-md text-base font-semibold wrap-anywhere sm:text-xl">{title}</p>
      {autoplay && (
        <progress className="progress progress-primary h-1.5 w-40 sm:w-56" value={COUNTDOWN_SECONDS - left} max={COUNTDOWN_SECONDS} aria-hidden="true" />
      )}
      <div className="flex gap-2">
        <button type="button" className="btn btn-primary btn-sm" onClick={onPlay}>
          {progressTexts.playNextNow}
        </button>
        <button type="button" className="btn btn-ghost btn-sm text-white hover:bg-white/15" onClick={onCancel}>
          {progressTexts.cancelNext}
        </button>
      </div>
      <label className="flex cursor-pointer items-center gap-2 text-xs text-white/90 sm:text-sm">
        <input
          type="checkbox"
          className="toggle toggle-xs toggle-primary sm:toggle-sm"
          checked={autoplay}
          onChange={(event) => onAutoplayChange(event.target.checked)}
        />
        {progressTexts.autoplayNext}
      </label>
    </div>
  );
}
