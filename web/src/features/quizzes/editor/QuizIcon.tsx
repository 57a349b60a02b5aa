/** A quiz's mark in lists (a sheet with a tick): the same wherever a quiz sits among lectures. */
export function QuizIcon({ className = '' }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className}
    >
      <rect x="5" y="3" width="14" height="18" rx="2" />
      <path d="M9 8h6M9 12h2M13.5 15.5l1.5 1.5 3-3" />
    </svg>
  );
}
