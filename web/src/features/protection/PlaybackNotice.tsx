import { useEffect, useRef } from 'react';
import { playbackTexts } from './playback-texts';

const Spinner = () => <span className="loading loading-spinner loading-xs" aria-hidden="true" />;

/**
 * Over the paused video when its lease was stopped (from another device, or by signing out there):
 * the server's words and "Play here", which starts a lease again (and may be refused). The button
 * takes focus: it is the one thing to do.
 */
export function PlaybackStopped({ message, busy, onPlayHere }: { message: string; busy: boolean; onPlayHere: () => void }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 rounded-xl bg-black/85 p-3 text-center text-white sm:p-6">
      <p role="alert" className="max-w-md font-semibold wrap-anywhere sm:text-lg">
        {message}
      </p>
      <button ref={button} type="button" className="btn btn-primary btn-sm sm:btn-md" disabled={busy} onClick={onPlayHere}>
        {busy && <Spinner />}
        {playbackTexts.playHere}
      </button>
    </div>
  );
}

/** In place of the video when a lease could not be had for another reason than the limit (too many starts, no connection). */
export function PlaybackFailed({ message, busy, onRetry }: { message: string; busy: boolean; onRetry: () => void }) {
  return (
    <div className="flex aspect-video w-full flex-col items-center justify-center gap-3 rounded-xl bg-base-200 p-4 text-center">
      <p role="alert" className="max-w-md wrap-anywhere">
        {message}
      </p>
      <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={onRetry}>
        {busy && <Spinner />}
        {playbackTexts.tryAgain}
      </button>
    </div>
  );
}
