import type { StreamLimit } from '@lms/contract/protection';
import { useEffect, useId, useRef } from 'react';
import { playbackTexts } from './playback-texts';

/**
 * In place of the video when the account already plays on as many devices as it may: the server's
 * words, the devices playing, and "Stop playback there" on each (that slot is freed, and this
 * device starts). Focus moves to it as it appears, so a screen reader reads the refusal at once.
 */
export function StreamLimitPanel({
  refusal,
  busy,
  onStopThere,
  now = Date.now(),
}: {
  refusal: StreamLimit;
  /** The playback whose stop is on its way: its button waits, the others too. */
  busy: string | null;
  onStopThere: (id: string) => void;
  now?: number;
}) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <section
      aria-labelledby={titleId}
      className="flex w-full flex-col justify-center gap-4 rounded-xl border border-base-content/10 bg-base-200 p-4 sm:aspect-video sm:p-8"
    >
      <div className="space-y-1">
        <h2 id={titleId} ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none sm:text-xl">
          {playbackTexts.refusedTitle}
        </h2>
        <p role="alert" className="max-w-prose text-base-content/90">
          {refusal.message}
        </p>
      </div>
      <ul className="space-y-2">
        {refusal.streams.map((stream) => {
          const device = stream.thisSession ? `${stream.device} (${playbackTexts.thisBrowser})` : stream.device;
          const seconds = Math.max(0, (now - Date.parse(stream.lastSeenAt)) / 1000);
          return (
            <li key={stream.id} className="flex flex-col gap-3 rounded-box bg-base-100 p-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0 text-sm">
                <p className="font-semibold wrap-anywhere">{device}</p>
                <p className="text-base-content/80 wrap-anywhere">
                  {stream.place} · {playbackTexts.lastSeen(playbackTexts.ago(seconds))}
                </p>
                <p className="text-base-content/80 wrap-anywhere">{playbackTexts.watching(stream.lectureTitle)}</p>
              </div>
              <button
                type="button"
                className="btn btn-sm btn-outline shrink-0"
                aria-label={`${playbackTexts.stopThere} (${device}, ${stream.place})`}
                disabled={busy !== null}
                onClick={() => onStopThere(stream.id)}
              >
                {busy === stream.id && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
                {playbackTexts.stopThere}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
