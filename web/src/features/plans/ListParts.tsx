import type { ReactNode } from 'react';
import { adminTexts } from './plans-texts';

/** Where a page's list goes until it has loaded: two skeleton rows of `rowHeight`, or why it failed. */
export function ListPending({ failed, texts, rowHeight }: { failed: boolean; texts: { loading: string; failed: string }; rowHeight: 'h-24' | 'h-28' }) {
  if (failed) return <p className="rounded-box bg-base-200 p-6 text-base-content/80">{texts.failed}</p>;
  return (
    <div className="flex flex-col gap-3" aria-busy="true">
      <span className="sr-only">{texts.loading}</span>
      <div className={`skeleton ${rowHeight} w-full`} />
      <div className={`skeleton ${rowHeight} w-full`} />
    </div>
  );
}

const DOTS = { success: 'bg-success', info: 'bg-info', muted: 'bg-base-content/40' } as const;

/** A status in words, the colour on a dot beside it (coloured 12 px text fails contrast). */
export function StatusBadge({ tone, children }: { tone: keyof typeof DOTS; children: ReactNode }) {
  return (
    <span className="badge badge-sm badge-ghost gap-1.5 whitespace-nowrap">
      <span className={`size-2 rounded-full ${DOTS[tone]}`} aria-hidden="true" />
      {children}
    </span>
  );
}

/**
 * A row's quiet actions: Edit, and Archive or Bring back (left out where `onToggle` is, as for the
 * default plan, which stays on sale). `name` makes each button's label its own for a screen reader.
 */
export function RowActions({
  name,
  archived,
  busy,
  onEdit,
  onToggle,
  className = '',
}: {
  name: string;
  archived: boolean;
  busy: boolean;
  onEdit: () => void;
  onToggle?: () => void;
  className?: string;
}) {
  return (
    <div className={`flex gap-2 ${className}`}>
      <button type="button" className="btn btn-ghost btn-sm whitespace-nowrap" aria-label={adminTexts.editNamed(name)} onClick={onEdit}>
        <svg
          viewBox="0 0 24 24"
          width="16"
          height="16"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          <path d="M4 20h4L19 9l-4-4L4 16zM13 7l4 4" />
        </svg>
        {adminTexts.edit}
      </button>
      {onToggle && (
        <button
          type="button"
          className="btn btn-ghost btn-sm whitespace-nowrap"
          aria-label={archived ? adminTexts.bringBackNamed(name) : adminTexts.archiveNamed(name)}
          disabled={busy}
          aria-busy={busy}
          onClick={onToggle}
        >
          {busy ? (
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          ) : (
            <svg
              viewBox="0 0 24 24"
              width="16"
              height="16"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              {archived ? <path d="M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3" /> : <path d="M4 7h16v3H4zM6 10v9h12v-9M10 14h4" />}
            </svg>
          )}
          {archived ? adminTexts.bringBack : adminTexts.archive}
        </button>
      )}
    </div>
  );
}
