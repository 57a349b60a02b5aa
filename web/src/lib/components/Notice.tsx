import type { ReactNode } from 'react';

/**
 * A quiet boxed note with an "i" mark: information, not a warning. On the page's second surface in
 * the theme's text colour, so it reads at AA in both themes (daisyUI's soft alerts colour the text too).
 */
export function Notice({ role, children }: { role: 'note' | 'status'; children: ReactNode }) {
  return (
    <p role={role} className="flex w-full items-start gap-3 rounded-box bg-base-200 p-3 text-left text-sm">
      <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" className="shrink-0 text-primary" aria-hidden="true">
        <circle cx="12" cy="12" r="10" />
        <path d="M12 16v-5M12 8h.01" strokeLinecap="round" />
      </svg>
      <span>{children}</span>
    </p>
  );
}
