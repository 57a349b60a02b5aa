import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { PlayerCaption } from './caption-choice';
import { playerTexts } from './player-texts';

interface Props {
  captions: readonly PlayerCaption[];
  /** The language shown, or null for none. */
  chosen: string | null;
  onChoose: (language: string | null) => void;
}

/**
 * The player's CC button: a menu of Off and each language, the one shown checked. It opens upwards,
 * over the picture, as a player's menus do; arrows move in it, Escape and a click elsewhere close it.
 */
export function CaptionsMenu({ captions, chosen, onChoose }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();
  const options = [{ language: null, label: playerTexts.captionsOff }, ...captions.map(({ language, label }) => ({ language, label }))];

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
    const closeOutside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && !button.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  function choose(language: string | null) {
    onChoose(language);
    setOpen(false);
    button.current?.focus();
  }

  function onMenuKey(event: KeyboardEvent<HTMLUListElement>) {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      items[(moves[event.key]! + items.length) % items.length]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  }

  const on = chosen !== null;
  return (
    <span className="relative">
      <button
        ref={button}
        type="button"
        className={`btn btn-ghost btn-sm ${on ? 'bg-primary/10 text-primary' : ''}`}
        aria-label={playerTexts.captions}
        aria-pressed={on}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title={playerTexts.captionsHint}
        onClick={() => setOpen((before) => !before)}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="M10.5 10.2a2.2 2.2 0 1 0 0 3.6M17 10.2a2.2 2.2 0 1 0 0 3.6" strokeLinecap="round" />
        </svg>
        {/* The language on show beside the icon where there is room; a phone's bar has room for the icon only. */}
        <span aria-hidden="true" className="hidden max-w-[8rem] truncate sm:inline">
          {on ? (captions.find((caption) => caption.language === chosen)?.label ?? 'CC') : 'CC'}
        </span>
      </button>
      {open && (
        <ul
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={playerTexts.captions}
          className="menu absolute right-0 bottom-full z-20 mb-2 max-h-72 w-max max-w-[16rem] flex-nowrap overflow-y-auto rounded-box bg-base-100 p-1 shadow-lg ring-1 ring-base-content/10"
          onKeyDown={onMenuKey}
        >
          {options.map((option) => {
            const checked = option.language === chosen;
            return (
              <li key={option.language ?? ''} role="none">
                <button
                  type="button"
                  role="menuitemradio"
                  aria-checked={checked}
                  tabIndex={-1}
                  className={`flex items-center gap-2 wrap-anywhere ${checked ? 'font-semibold' : ''}`}
                  onClick={() => choose(option.language)}
                >
                  <svg
                    viewBox="0 0 24 24"
                    width="16"
                    height="16"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="3"
                    className={checked ? '' : 'invisible'}
                    aria-hidden="true"
                  >
                    <path d="M5 12l5 5L20 7" />
                  </svg>
                  {option.label}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </span>
  );
}
