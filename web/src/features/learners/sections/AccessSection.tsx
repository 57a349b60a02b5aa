import type { AccessGrant, LearnerDetail } from '@lms/contract/learners';
import { formatDate } from '../../../lib/format';
import { learnersTexts as texts } from '../learners-texts';
import { DotBadge } from './badges';
import { Section } from './Section';

const grantDots: Record<AccessGrant['state'], string> = { active: 'bg-success', expired: 'bg-base-content/40', revoked: 'bg-error' };

/** Complimentary access given, newest first: its period, why, who gave it, and how it ended. */
export function AccessSection({ learner }: { learner: LearnerDetail }) {
  return (
    <Section title={texts.access} empty={learner.grants.length === 0} emptyText={texts.noGrants}>
      <ul className="flex flex-col divide-y divide-base-300 text-sm">
        {learner.grants.map((grant) => (
          <li key={grant._id} className="flex flex-col gap-1 py-2 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium">{texts.grantPeriod(formatDate(grant.startsAt) ?? '', formatDate(grant.endsAt) ?? '')}</span>
              <DotBadge dot={grantDots[grant.state]}>{texts.grantStates[grant.state]}</DotBadge>
            </div>
            {grant.note && <p className="wrap-anywhere">“{grant.note}”</p>}
            <p className="text-base-content/70">
              {grant.grantedBy ? texts.grantedBy(grant.grantedBy) : texts.grantedByGone}
              {grant.revokedAt && ` · ${texts.revokedBy(formatDate(grant.revokedAt) ?? '', grant.revokedBy)}`}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
