import { AUDIT_ACTIONS } from '@lms/contract/audit';
import type { LearnerDetail } from '@lms/contract/learners';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { learnersTexts as texts } from '../learners-texts';
import { Ago } from './badges';
import { Section } from './Section';

/** An action as the Activity page says it; an unknown one (a newer server) by its name. */
const actionLabel = (action: string) => (action in AUDIT_ACTIONS ? AUDIT_ACTIONS[action as keyof typeof AUDIT_ACTIONS].label : action);

/** The latest entries of the audit trail about this learner, and the whole trail filtered to them. */
export function ActivitySection({ learner }: { learner: LearnerDetail }) {
  const all = (
    <Link to={{ pathname: paths.activity, search: `?targetId=${learner.profile._id}` }} className="link text-sm">
      {texts.allActivity}
    </Link>
  );
  return (
    <Section title={texts.activity} empty={learner.activity.length === 0} emptyText={texts.noActivity} aside={all}>
      <ol className="flex flex-col divide-y divide-base-300 text-sm">
        {learner.activity.map((entry) => (
          <li key={entry._id} className="flex flex-col gap-0.5 py-2 first:pt-0 last:pb-0">
            <span className="wrap-anywhere">
              <span className="font-medium">{actionLabel(entry.action)}</span>
              {entry.summary && <span className="text-base-content/80"> · {entry.summary}</span>}
            </span>
            {entry.reason && <span className="wrap-anywhere">“{entry.reason}”</span>}
            <span className="text-base-content/70 wrap-anywhere">
              {entry.actor ? entry.actor.name : texts.byQueue} · <Ago iso={entry.at} />
              <span className="sr-only"> ({formatDate(entry.at)})</span>
            </span>
          </li>
        ))}
      </ol>
    </Section>
  );
}
