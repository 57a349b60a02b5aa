import type { LearnerDetail } from '@lms/contract/learners';
import { useState } from 'react';
import { useAuth } from '../../auth';
import { SuspensionDialog } from '../../protection';
import { GrantDialog, grantInForce, RevokeDialog } from './AccessDialogs';
import { EmailDialog, EndSessionsDialog } from './AccountDialogs';
import { actionsTexts as texts } from './actions-texts';

type Asking = 'grant' | 'revoke' | 'email' | 'suspension' | 'sessions';

/**
 * The learner page's header actions, each in its own dialog: complimentary access (grant or
 * extend it, revoke the one in force), a new email, suspend or restore, end every session. The one
 * primary action is granting access; the others are quiet.
 */
export function LearnerActions({ learner }: { learner: LearnerDetail }) {
  const { profile } = learner;
  const me = useAuth((auth) => auth.data?._id);
  const [asking, setAsking] = useState<Asking | null>(null);
  const close = () => setAsking(null);
  const granted = grantInForce(learner) !== undefined;
  const suspended = profile.suspendedAt !== null;
  const button = 'btn btn-sm';

  return (
    <div role="group" aria-label={texts.actionsFor(profile.fullName)} className="flex flex-wrap gap-2">
      <button type="button" className={`${button} btn-primary`} aria-haspopup="dialog" onClick={() => setAsking('grant')}>
        {granted ? texts.extend : texts.grant}
      </button>
      {granted && (
        <button type="button" className={`${button} btn-outline`} aria-haspopup="dialog" onClick={() => setAsking('revoke')}>
          {texts.revoke}
        </button>
      )}
      <button type="button" className={`${button} btn-outline`} aria-haspopup="dialog" onClick={() => setAsking('email')}>
        {texts.changeEmail}
      </button>
      {/* Nobody suspends their own account: the server refuses it too. */}
      {profile._id !== me && (
        <button type="button" className={`${button} btn-outline`} aria-haspopup="dialog" onClick={() => setAsking('suspension')}>
          {suspended ? texts.restore : texts.suspend}
        </button>
      )}
      <button
        type="button"
        className={`${button} btn-outline`}
        aria-haspopup="dialog"
        disabled={learner.sessions.length === 0}
        onClick={() => setAsking('sessions')}
      >
        {texts.endSessions}
      </button>

      {asking === 'grant' && <GrantDialog learner={learner} onClose={close} />}
      {asking === 'revoke' && <RevokeDialog learner={learner} onClose={close} />}
      {asking === 'email' && <EmailDialog learner={learner} onClose={close} />}
      {asking === 'suspension' && (
        <SuspensionDialog account={{ _id: profile._id, fullName: profile.fullName, email: profile.email, suspended }} onClose={close} />
      )}
      {asking === 'sessions' && <EndSessionsDialog learner={learner} onClose={close} />}
    </div>
  );
}
