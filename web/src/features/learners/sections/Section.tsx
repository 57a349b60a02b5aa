import { useId, type ReactNode } from 'react';

/**
 * One part of a learner's page: a card with its heading, an optional link beside it, and a short
 * muted line when there is nothing to show (so the administrator knows it was looked at).
 */
export function Section({
  title,
  empty,
  emptyText,
  aside,
  className = '',
  children,
}: {
  title: string;
  empty: boolean;
  emptyText: string;
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={`flex min-w-0 flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm ${className}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        {aside}
      </div>
      {empty ? <p className="text-sm text-base-content/70">{emptyText}</p> : children}
    </section>
  );
}

/** A date for a list: the day, the ISO moment for machines. */
export function Day({ iso, children }: { iso: string; children: ReactNode }) {
  return <time dateTime={iso}>{children}</time>;
}
