import type { LearnerDetail } from '@lms/contract/learners';
import { formatDate } from '../../../lib/format';
import { learnersTexts as texts } from '../learners-texts';
import { DotBadge } from './badges';
import { Section } from './Section';

/** Each cancellation: when, the reason chosen and the learner's own words, and whether it was refunded. */
export function CancellationsSection({ learner }: { learner: LearnerDetail }) {
  return (
    <Section title={texts.cancellations} empty={learner.cancellations.length === 0} emptyText={texts.noCancellations}>
      <ul className="flex flex-col divide-y divide-base-300 text-sm">
        {learner.cancellations.map((cancellation) => (
          <li key={cancellation.at} className="flex flex-col gap-1 py-2 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium">
                <time dateTime={cancellation.at}>{formatDate(cancellation.at)}</time> · {texts.reason(cancellation.reason)}
              </span>
              <DotBadge dot={cancellation.refunded ? 'bg-warning' : 'bg-base-content/40'}>
                {cancellation.refunded ? texts.withRefund : texts.withoutRefund}
              </DotBadge>
            </div>
            {cancellation.note && <p className="wrap-anywhere">“{cancellation.note}”</p>}
            <p className="text-base-content/70">{texts.accessUntil(formatDate(cancellation.accessUntil) ?? '')}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
