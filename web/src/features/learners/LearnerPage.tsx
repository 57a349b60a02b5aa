import type { LearnerDetail } from '@lms/contract/learners';
import { Link, useSearchParams } from 'react-router';
import { formatDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { LearnerActions } from './actions';
import { useGetLearnerQuery } from './learners.api';
import { learnersTexts as texts } from './learners-texts';
import { AccessSection } from './sections/AccessSection';
import { ActivitySection } from './sections/ActivitySection';
import { Ago, Avatar, Email, StateBadge, SuspendedBadge } from './sections/badges';
import { CancellationsSection } from './sections/CancellationsSection';
import { CertificatesSection } from './sections/CertificatesSection';
import { PaymentsSection } from './sections/PaymentsSection';
import { ProgressSection } from './sections/ProgressSection';
import { QuizzesSection } from './sections/QuizzesSection';
import { SessionsSection } from './sections/SessionsSection';
import { SubscriptionsSection } from './sections/SubscriptionsSection';
import { AdminTrail } from '../../lib/components/AdminPageHeader';

/** An id as the server reads one; anything else is no learner, without asking. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Admin only (the router guards it): one learner (`?id=`) on one page, for support work: who they
 * are and where they stand, the actions on them, then their money (payments with documents and
 * refunds, subscriptions, complimentary access), their learning (progress, quizzes, certificates),
 * their sessions, why they cancelled, and what administrators did to the account.
 */
export default function LearnerPage() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const valid = UUID.test(id);
  const answer = useGetLearnerQuery(id, { skip: !valid });
  const learner = answer.currentData?.learner;
  const notFound = !valid || (answer.isError && 'status' in answer.error && answer.error.status === 404);
  const failed = answer.isError && !notFound;
  usePageTitle(learner ? learner.profile.fullName : notFound ? texts.notFound : failed ? texts.title : undefined);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminTrail via={[{ to: paths.learners, label: texts.learnersLink }]} current={learner?.profile.fullName} />

      {learner ? (
        <LearnerView learner={learner} />
      ) : notFound ? (
        <div className="flex flex-col items-center gap-3 rounded-box border border-dashed border-base-300 px-6 py-12 text-center">
          <h1 className="text-2xl font-bold">{texts.notFound}</h1>
          <p className="max-w-md text-base-content/80">{texts.notFoundLead}</p>
          <Link to={paths.learners} className="btn btn-outline btn-sm mt-1">
            {texts.backToLearners}
          </Link>
        </div>
      ) : failed ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-box bg-base-200 p-6 text-base-content/80">
          <span>{texts.loadLearnerFailed}</span>
          <button type="button" className="btn btn-sm" onClick={() => void answer.refetch()}>
            {texts.tryAgain}
          </button>
        </div>
      ) : (
        <div className="flex flex-col gap-4" aria-busy="true">
          <span className="sr-only">{texts.loadingLearner}</span>
          <div className="skeleton h-36 w-full" />
          <div className="skeleton h-48 w-full" />
        </div>
      )}
    </div>
  );
}

function LearnerView({ learner }: { learner: LearnerDetail }) {
  return (
    <>
      <Header learner={learner} />
      <PaymentsSection learner={learner} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <ProgressSection learner={learner} />
        <QuizzesSection learner={learner} />
        <SubscriptionsSection learner={learner} />
        <AccessSection learner={learner} />
        <CertificatesSection learner={learner} />
        <SessionsSection learner={learner} />
        <CancellationsSection learner={learner} />
        <ActivitySection learner={learner} />
      </div>
    </>
  );
}

/** Who they are, where they stand (state, suspension, until when they may watch and why), and the actions on them. */
function Header({ learner }: { learner: LearnerDetail }) {
  const { profile, access } = learner;
  const until = access && formatDate(access.until);
  const accessLine = !access ? texts.noAccess : access.source === 'complimentary' ? texts.accessComplimentary(until!) : texts.accessSubscribed(until!);
  return (
    <header className="flex flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-1 items-start gap-4">
          <Avatar url={profile.avatarUrl} name={profile.fullName} size="lg" />
          <div className="flex min-w-0 flex-col gap-1">
            <h1 className="text-2xl font-bold wrap-anywhere">{profile.fullName}</h1>
            <p className="text-base-content/80 wrap-anywhere">
              <Email address={profile.email} />
            </p>
            {profile.pendingEmail && <p className="text-sm text-base-content/70 wrap-anywhere">{texts.pendingEmail(profile.pendingEmail)}</p>}
            <div className="mt-1 flex flex-wrap items-center gap-1.5">
              <StateBadge state={learner.state} />
              {profile.suspendedAt && <SuspendedBadge />}
              {profile.role === 'ADMIN' && <span className="badge badge-sm badge-ghost">{texts.admin}</span>}
            </div>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <LearnerActions learner={learner} />
        </div>
      </div>

      {profile.suspendedAt && (
        <div className="rounded-box border border-error/40 bg-error/5 p-3 text-sm">
          <p className="font-medium">{texts.suspendedSince(formatDate(profile.suspendedAt) ?? '')}</p>
          {profile.suspensionReason && <p className="wrap-anywhere">{texts.suspensionReason(profile.suspensionReason)}</p>}
        </div>
      )}

      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 border-t border-base-300 pt-4 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-base-content/70">{texts.accessNow}</dt>
          <dd className="font-medium">{accessLine}</dd>
        </div>
        <div>
          <dt className="text-base-content/70">{texts.signedUp}</dt>
          <dd>
            <time dateTime={profile.signedUpAt}>{formatDate(profile.signedUpAt)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-base-content/70">{texts.lastActive}</dt>
          <dd>{profile.lastActiveAt ? <Ago iso={profile.lastActiveAt} /> : texts.neverActive}</dd>
        </div>
      </dl>
    </header>
  );
}
