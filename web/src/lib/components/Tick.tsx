import type { ReactNode } from 'react';

/** A list item with the brand's tick: what the bundle gives, on the home page, the checkout and the course page. */
export function Tick({ children, size = 20, className = 'flex items-start gap-3' }: { children: ReactNode; size?: number; className?: string }) {
  return (
    <li className={className}>
      <svg
        viewBox="0 0 24 24"
        width={size}
        height={size}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        className="mt-0.5 shrink-0 text-secondary"
        aria-hidden="true"
      >
        <path d="M5 12l5 5L20 7" />
      </svg>
      <span>{children}</span>
    </li>
  );
}
