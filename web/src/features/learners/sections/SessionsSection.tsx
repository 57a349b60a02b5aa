import type { LearnerDetail } from '@lms/contract/learners';
import { learnersTexts as texts } from '../learners-texts';
import { Ago } from './badges';
import { Section } from './Section';

/** Where the learner is signed in: browser and system, the network, and when last seen. */
export function SessionsSection({ learner }: { learner: LearnerDetail }) {
  return (
    <Section title={texts.sessions} empty={learner.sessions.length === 0} emptyText={texts.noSessions}>
      <ul className="flex flex-col divide-y divide-base-300 text-sm">
        {learner.sessions.map((session) => (
          <li key={session.id} className="flex flex-col gap-0.5 py-2 first:pt-0 last:pb-0">
            <span className="font-medium wrap-anywhere">{texts.device(session.browser, session.os)}</span>
            <span className="text-base-content/70 wrap-anywhere">
              {session.place} · {texts.lastSeen} <Ago iso={session.lastSeenAt} />
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
