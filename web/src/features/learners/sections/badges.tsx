import { LEARNER_STATE_LABELS, type LearnerState } from '@lms/contract/learners';
import { initialsOf } from '../../../lib/components/initials';
import { formatDate } from '../../../lib/format';
import { ago, learnersTexts as texts } from '../learners-texts';

/** Each state's colour, on a dot beside the word: the word stays in the text's colour (coloured 12 px text fails contrast). */
const stateDots: Record<LearnerState, string> = {
  subscribed: 'bg-success',
  trial: 'bg-info',
  complimentary: 'bg-secondary',
  cancelled: 'bg-warning',
  lapsed: 'bg-base-content/40',
  never_paid: 'border border-base-content/40',
};

/** A word with a coloured dot: the badges of these pages. */
export function DotBadge({ dot, children, title }: { dot: string; children: string; title?: string }) {
  return (
    <span className="badge badge-sm badge-ghost gap-1.5 whitespace-nowrap" title={title}>
      <span className={`size-2 shrink-0 rounded-full ${dot}`} aria-hidden="true" />
      {children}
    </span>
  );
}

export function StateBadge({ state }: { state: LearnerState }) {
  return <DotBadge dot={stateDots[state]}>{LEARNER_STATE_LABELS[state]}</DotBadge>;
}

export function SuspendedBadge({ title }: { title?: string }) {
  return (
    <DotBadge dot="bg-error" title={title}>
      {texts.suspended}
    </DotBadge>
  );
}

/** The learner's picture, or their initials without one; decorative (the name is beside it). */
export function Avatar({ url, name, size = 'sm' }: { url: string; name: string; size?: 'sm' | 'lg' }) {
  const box = size === 'lg' ? 'size-12 text-lg sm:size-16 sm:text-xl' : 'size-9 text-sm';
  if (!url) {
    return (
      <div className="avatar avatar-placeholder shrink-0" aria-hidden="true">
        <div className={`${box} rounded-full bg-neutral text-neutral-content`}>
          <span>{initialsOf(name)}</span>
        </div>
      </div>
    );
  }
  return (
    <div className="avatar shrink-0" aria-hidden="true">
      <div className={`${box} rounded-full bg-base-200`}>
        <img src={url} alt="" loading="lazy" />
      </div>
    </div>
  );
}

/** A moment as "3 days ago", its date in the tooltip and the machine-readable attribute. */
export function Ago({ iso, className = '' }: { iso: string; className?: string }) {
  return (
    <time dateTime={iso} title={formatDate(iso)} className={className}>
      {ago(iso)}
    </time>
  );
}

/** An email that breaks before its `@` when it must break. */
export function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}
