import { messages } from '@lms/contract/messages';
import { Link } from 'react-router';
import { paths } from '../paths';

/**
 * The refund rule as the server applies it, said right under the spec's "100% refundale on
 * cancellation" on the bundle and plan cards, so that nobody pays on a promise the fine print takes
 * back: the window from the server's configuration, once in 12 months, and the way to the whole policy. A line of its own inside the card's tick item.
 */
export function RefundRule({ days }: { days: number | undefined }) {
  return (
    <span className="mt-1 block text-sm text-base-content/70">
      {days !== undefined ? messages.refundRule(days) : messages.refundRuleUnknown}{' '}
      <Link to={paths.refundPolicy} className="link link-primary whitespace-nowrap">
        {messages.refundPolicy}
      </Link>
    </span>
  );
}
