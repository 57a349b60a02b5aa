import { useEffect, useRef, useState, type ReactNode } from 'react';
import { settingsTexts as texts } from './settings-texts';

/** An entry of an edited list, with a key of its own that stays through moves. */
export interface Row<T> {
  key: number;
  value: T;
}

let nextKey = 0;
/** Rows for `values`, each with a fresh key. */
export const rowsOf = <T,>(values: T[]): Row<T>[] => values.map((value) => ({ key: nextKey++, value }));
export const newRow = <T,>(value: T): Row<T> => ({ key: nextKey++, value });

interface Props<T> {
  rows: Row<T>[];
  onChange: (rows: Row<T>[]) => void;
  max: number;
  /** An entry's name for the buttons' labels: "Testimonial 2". */
  nameOf: (index: number) => string;
  blank: () => T;
  addLabel: string;
  /** What shows where the list is empty. */
  empty: ReactNode;
  /** An entry's fields; `set` replaces its value. */
  renderFields: (value: T, set: (value: T) => void, index: number) => ReactNode;
}

type Move = { key: number; action: 'up' | 'down' | 'add' | 'remove'; index: number };

/**
 * A list the admin orders by hand (testimonials, questions): add, move up or down, remove. After a
 * move, focus stays on the moved entry's button, so a keyboard can move it again at once.
 */
export function ListEditor<T>({ rows, onChange, max, nameOf, blank, addLabel, empty, renderFields }: Props<T>) {
  const list = useRef<HTMLOListElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const [moved, setMoved] = useState<Move>();

  useEffect(() => {
    if (!moved) return;
    const root = list.current;
    if (moved.action === 'remove') {
      // To the entry now in its place, else the one before, else Add.
      const buttons = root?.querySelectorAll<HTMLElement>('[data-action="remove"]');
      (buttons?.[Math.min(moved.index, buttons.length - 1)] ?? addButton.current)?.focus();
      return;
    }
    const entry = root?.querySelector<HTMLElement>(`[data-row="${moved.key}"]`);
    if (moved.action === 'add') {
      entry?.querySelector<HTMLElement>('input, textarea')?.focus();
      return;
    }
    const same = entry?.querySelector<HTMLButtonElement>(`[data-action="${moved.action}"]`);
    const other = entry?.querySelector<HTMLButtonElement>(`[data-action="${moved.action === 'up' ? 'down' : 'up'}"]`);
    (same && !same.disabled ? same : other)?.focus();
  }, [moved]);

  function move(index: number, by: -1 | 1) {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    onChange(next);
    setMoved({ key: row!.key, action: by < 0 ? 'up' : 'down', index: index + by });
  }
  function remove(index: number) {
    onChange(rows.filter((_, at) => at !== index));
    setMoved({ key: rows[index]!.key, action: 'remove', index });
  }
  function add() {
    const row = newRow(blank());
    onChange([...rows, row]);
    setMoved({ key: row.key, action: 'add', index: rows.length });
  }

  const full = rows.length >= max;
  return (
    <div className="flex flex-col gap-3">
      {rows.length === 0 ? (
        <div className="rounded-box border border-dashed border-base-300 p-4 text-sm text-base-content/80">{empty}</div>
      ) : (
        <ol ref={list} className="flex flex-col gap-3">
          {rows.map((row, index) => {
            const name = nameOf(index);
            return (
              <li key={row.key} data-row={row.key}>
                <fieldset className="rounded-box border border-base-300 bg-base-200/40 p-3 sm:p-4">
                  <legend className="sr-only">{name}</legend>
                  <div className="mb-1 flex items-center justify-between gap-2">
                    <span aria-hidden="true" className="text-sm font-semibold text-base-content/80">
                      {name}
                    </span>
                    <div className="flex items-center gap-1">
                      <IconButton action="up" label={texts.moveUp(name)} disabled={index === 0} onClick={() => move(index, -1)} />
                      <IconButton action="down" label={texts.moveDown(name)} disabled={index === rows.length - 1} onClick={() => move(index, 1)} />
                      <IconButton action="remove" label={texts.remove(name)} onClick={() => remove(index)} />
                    </div>
                  </div>
                  {renderFields(row.value, (value) => onChange(rows.map((r) => (r.key === row.key ? { ...r, value } : r))), index)}
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button ref={addButton} type="button" className="btn btn-outline btn-sm" disabled={full} onClick={add}>
          <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <path d="M12 5v14M5 12h14" />
          </svg>
          {addLabel}
        </button>
        {full && <span className="text-sm text-base-content/80">{texts.limitReached(max)}</span>}
      </div>
    </div>
  );
}

const ICONS = { up: 'M12 19V5M5 12l7-7 7 7', down: 'M12 5v14M19 12l-7 7-7-7', remove: 'M6 6l12 12M18 6 6 18' } as const;

function IconButton({ action, label, disabled, onClick }: { action: keyof typeof ICONS; label: string; disabled?: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      data-action={action}
      className={`btn btn-ghost btn-square btn-sm ${action === 'remove' ? 'text-error' : ''}`}
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    >
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
      >
        <path d={ICONS[action]} />
      </svg>
    </button>
  );
}
