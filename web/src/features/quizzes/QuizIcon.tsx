/** A quiz's mark wherever a quiz sits among lectures (the course editor, the lecture list, the curriculum): a sheet with ticks. */
export function QuizIcon({ className = 'size-5 shrink-0 text-base-content/60' }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <rect x="4" y="3" width="16" height="18" rx="2" />
      <path d="M8 8l1.5 1.5L12 7M8 14l1.5 1.5L12 13M14 8.5h2M14 14.5h2" />
    </svg>
  );
}
