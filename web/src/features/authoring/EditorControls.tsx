import type { DraggableSyntheticListeners } from '@dnd-kit/core';
import { curriculumTexts as texts } from './curriculum-texts';

/**
 * The grip a lecture or a section is dragged by, with a pointer or a finger. Keyboards and
 * screen readers move things with the Move up/down buttons beside it, so the grip is left out of
 * the tab order and of the accessibility tree: one way to do it by keyboard, the buttons'.
 */
export function DragHandle({
  label,
  setRef,
  listeners,
}: {
  label: string;
  setRef: (element: HTMLElement | null) => void;
  listeners: DraggableSyntheticListeners;
}) {
  return (
    <span
      ref={setRef}
      {...listeners}
      aria-hidden="true"
      title={label}
      className="mt-0.5 flex size-7 shrink-0 cursor-grab touch-none items-center justify-center rounded-field text-base-content/60 hover:bg-base-200 active:cursor-grabbing"
    >
      <svg viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true">
        {[6, 12, 18].map((y) => (
          <g key={y}>
            <circle cx="9" cy={y} r="1.6" />
            <circle cx="15" cy={y} r="1.6" />
          </g>
        ))}
      </svg>
    </span>
  );
}

/** "Move up" and "Move down", each named with what it moves; disabled at an end. `focusKey` lets the editor give focus back after a move. */
export function StepButtons({
  focusKey,
  name,
  canStep,
  onStep,
}: {
  focusKey: string;
  name: string;
  canStep: { up: boolean; down: boolean };
  onStep: (direction: 'up' | 'down') => void;
}) {
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        data-focus={`${focusKey}:up`}
        disabled={!canStep.up}
        aria-label={texts.moveUpOf(name)}
        onClick={() => onStep('up')}
      >
        <Arrow up />
        {texts.moveUp}
      </button>
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        data-focus={`${focusKey}:down`}
        disabled={!canStep.down}
        aria-label={texts.moveDownOf(name)}
        onClick={() => onStep('down')}
      >
        <Arrow />
        {texts.moveDown}
      </button>
    </>
  );
}

function Arrow({ up = false }: { up?: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true" className={up ? 'rotate-180' : ''}>
      <path d="M12 5v14M6 13l6 6 6-6" />
    </svg>
  );
}
