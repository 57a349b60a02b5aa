import { messages } from '@lms/contract/messages';
import { useId } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { rupees } from '../../lib/format';
import { useSite } from '../../lib/site';
import { RefundRule } from '../../lib/components/RefundRule';
import { Tick } from '../../lib/components/Tick';

/**
 * The bundle card on the home page: duration, the server's price per month, what it includes
 * and the spec's refund line with the rule beside it, with Subscribe (to /checkout; a visitor logs in or signs up on the way
 * and comes back). A subscriber or an administrator is pointed to the courses instead.
 */
export function BundleOffer({
  price,
  refundWindowDays,
  loading,
  canWatch,
}: {
  price: number | undefined;
  refundWindowDays: number | undefined;
  loading: boolean;
  canWatch: boolean;
}) {
  const headingId = useId();
  const titleId = useId();
  const { faq } = useSite();
  return (
    <section aria-labelledby={headingId} className="bg-base-200">
      <div className="mx-auto grid w-full max-w-6xl items-center gap-10 px-4 py-12 sm:py-16 lg:grid-cols-2">
        <div>
          <h2 id={headingId} className="text-2xl font-bold sm:text-3xl">
            One plan. Every course.
          </h2>
          <p className="mt-3 max-w-prose text-lg text-base-content/80">
            No course-by-course prices: the bundle opens the whole catalogue, and every course we add while you are subscribed is yours to watch too. Cancel
            from your profile whenever you like.
          </p>
          <p className="mt-3 max-w-prose text-base-content/80">
            {/* The product's own questions answer it; the seller's own may not, their refund policy does. */}
            How refunds work is in the{' '}
            {faq === null ? (
              <a href="#faq" className="link link-primary">
                questions below
              </a>
            ) : (
              <Link to={paths.refundPolicy} className="link link-primary">
                refund policy
              </Link>
            )}
            .
          </p>
        </div>
        <article aria-labelledby={titleId} className="card w-full max-w-md justify-self-center bg-base-100 shadow-xl ring-2 ring-primary lg:justify-self-end">
          <div className="card-body gap-5 p-6 sm:p-8">
            <h3 id={titleId} className="card-title text-2xl">
              {messages.bundleTitle}
            </h3>
            <p className="flex items-baseline gap-2">
              {price !== undefined ? (
                <span className="text-5xl font-extrabold tracking-tight">{rupees.format(price)}</span>
              ) : loading ? (
                <span className="skeleton inline-block h-12 w-28 align-bottom" role="status" aria-label={messages.priceLoading} />
              ) : (
                <span className="text-5xl font-extrabold">—</span>
              )}
              <span className="text-base-content/70">{messages.perMonth}</span>
            </p>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4">
              <dt className="text-base-content/70">Duration</dt>
              <dd className="text-right font-semibold">1 month</dd>
            </dl>
            <ul className="space-y-3">
              <Tick>{messages.bundleIncludes}</Tick>
              <Tick>
                <span className="block">{messages.bundleRefundable}</span>
                <RefundRule days={refundWindowDays} />
              </Tick>
            </ul>
            {canWatch ? (
              <Link to={paths.courses} className="btn btn-primary btn-block btn-lg">
                {messages.browseCourses}
              </Link>
            ) : (
              <Link to={paths.checkout} className="btn btn-primary btn-block btn-lg">
                {messages.subscribe}
              </Link>
            )}
          </div>
        </article>
      </div>
    </section>
  );
}
