/**
 * A learner's progress in a course: a bar, and the words beside it ("3 of 8 lectures · 38 %")
 * which are also its accessible name.
 */
export function CourseProgressBar({ percent, label, className = '' }: { percent: number; label: string; className?: string }) {
  return (
    <div className={`space-y-1 ${className}`}>
      <p className="text-sm text-base-content/80 tabular-nums">{label}</p>
      <progress className="progress progress-primary h-2 w-full" value={percent} max={100} aria-label={label} />
    </div>
  );
}
