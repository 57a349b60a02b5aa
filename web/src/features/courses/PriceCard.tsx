import type { Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { useId } from 'react';
import { rupees } from '../../lib/format';
import { ProgressBar } from './ProgressBar';
import { Tick } from '../../lib/components/Tick';
import { PlayIcon } from './PlayIcon';

interface PriceCardProps {
  course: Course | undefined;
  /** The bundle as the server sells it: rupees per month and the refund window in days. */
  plan: { price: number; refundWindowDays: number } | undefined;
  planLoading: boolean;
  /** 'watch lectures' for an active subscriber or an admin, otherwise 'Subscribe'. */
  access: 'subscriber' | 'admin' | 'none';
  /** What the course holds, as the curriculum says ("3 lectures · 24s total length"); undefined while it loads, null when it could not. */
  summary: string | undefined | null;
  onSubscribe: () => void;
  onWatch: () => void;
  /** The signed-in learner's progress in the course, once started. */
  progress?: { percent: number; label: string };
  /** Plays the course's first free preview, when it has one. */
  onPreview?: () => void;
}

/**
 * The card that sells: the cover (a free preview plays from it), the bundle's price per month from
 * the server, the spec's button, what the subscription includes and the refund rule in plain words
 * (no renewals; a refund only inside the window). On a desktop the page keeps it in view; on a phone it follows the course's header.
 */
export function PriceCard({ course, plan, planLoading, access, summary, onSubscribe, onWatch, onPreview, progress }: PriceCardProps) {
  const headingId = useId();
  const watching = access !== 'none';
  return (
    <section aria-labelledby={headingId} className="card overflow-hidden bg-base-100 shadow-xl ring-1 ring-base-content/10">
      <figure className="relative aspect-video bg-base-300">
        {course ? (
          <img
            src={course.thumbnail.secure_url}
            alt={`Cover of ${course.title}`}
            width={640}
            height={360}
            fetchPriority="high"
            className="h-full w-full object-cover"
          />
        ) : (
          <div className="skeleton h-full w-full rounded-none" />
        )}
        {onPreview && (
          <button
            type="button"
            onClick={onPreview}
            className="group absolute inset-0 flex cursor-pointer flex-col items-center justify-end gap-2 bg-linear-to-t from-black/75 via-black/20 to-transparent p-4 text-white"
          >
            <span className="flex size-14 items-center justify-center rounded-full bg-white text-black shadow-lg transition group-hover:scale-110">
              <svg viewBox="0 0 24 24" className="ml-1 size-7" fill="currentColor" aria-hidden="true">
                <path d="M7 4.5v15l13-7.5z" />
              </svg>
            </span>
            <span className="font-semibold drop-shadow">{messages.previewThisCourse}</span>
          </button>
        )}
      </figure>
      <div className="card-body gap-4 p-5 sm:p-6">
        <h2 id={headingId} className="text-sm font-semibold tracking-wide text-base-content/70 uppercase">
          {watching ? messages.includedInSubscription : messages.bundleTitle}
        </h2>
        {watching ? (
          <p className="text-base-content/80">{access === 'admin' ? messages.includedForAdmin : messages.subscribedText}</p>
        ) : (
          <>
            <p className="-mt-2 flex items-baseline gap-2">
              {plan ? (
                <span className="text-4xl font-extrabold tracking-tight">{rupees.format(plan.price)}</span>
              ) : planLoading ? (
                // A stand-in price of the real one's size, so that nothing moves when the price comes.
                <span className="skeleton text-4xl font-extrabold tracking-tight text-transparent" role="status" aria-label={messages.priceLoading}>
                  ₹99
                </span>
              ) : (
                <span className="text-4xl font-extrabold">—</span>
              )}
              <span className="text-base-content/70">{messages.perMonth}</span>
            </p>
            <p className="text-sm text-base-content/80">{messages.priceCardIncludes}</p>
          </>
        )}
        {progress && <ProgressBar percent={progress.percent} label={progress.label} />}
        {watching ? (
          <button type="button" className="btn btn-block btn-lg btn-primary" onClick={onWatch}>
            <PlayIcon />
            {messages.watchLectures}
          </button>
        ) : (
          <button type="button" className="btn btn-block btn-lg btn-primary" onClick={onSubscribe}>
            {messages.subscribe}
          </button>
        )}
        <ul className="space-y-2 text-sm">
          {summary ? (
            <Tick size={18} className="flex items-start gap-2">
              {summary}
            </Tick>
          ) : (
            summary === undefined && <li aria-hidden="true" className="skeleton h-5 w-48" />
          )}
          <Tick size={18} className="flex items-start gap-2">
            {messages.watchAnywhere}
          </Tick>
          {!watching && (
            <Tick size={18} className="flex items-start gap-2">
              {messages.cancelAnyTime}
            </Tick>
          )}
        </ul>
        {!watching && (
          <p className="min-h-[calc(4.75rem+1px)] border-t border-base-content/10 pt-4 text-xs leading-5 text-base-content/70">
            {plan ? messages.refundPlain(plan.refundWindowDays) : messages.refundPlainUnknown}
          </p>
        )}
      </div>
    </section>
  );
}
