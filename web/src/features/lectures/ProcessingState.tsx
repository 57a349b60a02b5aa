import type { VideoProcessing } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';

/**
 * For the admin, under each lecture: where its video is in the pipeline, with Retry when it failed.
 * `flush` leaves out the side margins, for a place that has its own.
 */
export function ProcessingState({
  processing,
  title,
  onRetry,
  flush = false,
}: {
  processing: VideoProcessing;
  title: string;
  onRetry: () => void;
  flush?: boolean;
}) {
  const inset = flush ? '' : 'px-3 ';
  if (processing.state === 'ready') {
    // The green is the dot's only: green text this small is too faint on white (axe: 1.95:1).
    return (
      <p className={`flex items-center gap-1.5 ${inset}pb-1 text-xs text-base-content/70`}>
        <span aria-hidden="true" className="size-2 rounded-full bg-success" />
        {messages.videoReady}
      </p>
    );
  }
  if (processing.state === 'waiting') {
    return <p className={`${inset}pb-1 text-xs text-base-content/70`}>{messages.videoWaiting}</p>;
  }
  if (processing.state === 'processing') {
    const percent = processing.percent ?? 0;
    return (
      <div className={`flex items-center gap-2 ${inset}pb-1 text-xs`}>
        <span className="shrink-0 tabular-nums" aria-hidden="true">
          {messages.videoProcessing(percent)}
        </span>
        <progress className="progress progress-primary h-1.5 w-full" value={percent} max={100} aria-label={messages.videoProcessing(percent)} />
      </div>
    );
  }
  return (
    <div role="alert" className={`${flush ? '' : 'mx-3 '}mb-1 flex flex-wrap items-center gap-2 rounded-field bg-error/10 px-2 py-1.5 text-xs`}>
      <span className="min-w-0 flex-1 wrap-anywhere">
        <strong>{messages.videoFailed}:</strong> {processing.reason}
      </span>
      <button type="button" className="btn btn-xs btn-outline" onClick={onRetry} aria-label={messages.videoRetryFor(title)}>
        {messages.videoRetry}
      </button>
    </div>
  );
}
