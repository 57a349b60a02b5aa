import { DEFAULT_AVATAR_URL } from '@lms/contract/media';
import { messages } from '@lms/contract/messages';
import type { User } from '@lms/contract/users';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { initialsOf } from '../lib/components/initials';
import { DefaultAvatar } from '../lib/components/inline-pictures';
import { paths } from '../lib/paths';

/**
 * The signed-in user's avatar in the desktop bar, opening a small menu with Profile and Logout
 * (WAI-ARIA's menu button: Enter, Space or Arrow Down open it on the first item, arrows move,
 * Escape closes it and gives the focus back to the button, Tab or a click elsewhere closes it).
 */
export function AccountMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const location = useLocation();

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  // Opening puts the focus on the first item (the menu is rendered by then).
  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  // A click or tap outside closes it.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  // Following an item closes it.
  const [shownAt, setShownAt] = useState(location.key);
  if (shownAt !== location.key) {
    setShownAt(location.key);
    setOpen(false);
  }

  function onButtonKeyDown(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  }

  function onMenuKeyDown(event: KeyboardEvent) {
    const index = items().indexOf(document.activeElement as HTMLElement);
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        close(true);
        break;
      case 'ArrowDown':
        event.preventDefault();
        focusItem(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusItem(index - 1);
        break;
      case 'Home':
        event.preventDefault();
        focusItem(0);
        break;
      case 'End':
        event.preventDefault();
        focusItem(-1);
        break;
      case 'Tab':
        close(false);
        break;
    }
  }

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-circle"
        aria-label={`${messages.accountMenu}: ${user.fullName}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={onButtonKeyDown}
      >
        <Avatar user={user} />
      </button>
      {open && (
        <div className="absolute right-0 top-full z-30 mt-2 w-64 rounded-box bg-base-100 p-2 shadow-lg ring-1 ring-base-300">
          <p className="break-words px-3 pb-2 pt-1 text-sm">
            <span className="block text-base-content/70">{messages.signedInAs}</span>
            <span className="block font-semibold">{user.fullName}</span>
          </p>
          <ul id={menuId} ref={menu} role="menu" aria-label={messages.accountMenu} className="menu w-full p-0" onKeyDown={onMenuKeyDown}>
            <li role="none">
              <Link role="menuitem" to={paths.profile}>
                Profile
              </Link>
            </li>
            <li role="none">
              <button
                role="menuitem"
                type="button"
                onClick={() => {
                  close(false);
                  onLogout();
                }}
              >
                Logout
              </button>
            </li>
          </ul>
        </div>
      )}
    </div>
  );
}

/**
 * The user's picture in a circle, over their initials (which show if the picture cannot load). The
 * initials are drawn by CSS, not text: the button's name is "Account menu: <name>", and visible text
 * that is not part of a control's name confuses voice control (axe's label-content-name-mismatch).
 */
function Avatar({ user }: { user: User }) {
  return (
    <span
      data-initials={initialsOf(user.fullName)}
      className="relative flex size-9 items-center justify-center overflow-hidden rounded-full bg-primary text-sm font-semibold text-primary-content before:content-[attr(data-initials)]"
      aria-hidden="true"
    >
      {user.avatar.secure_url === DEFAULT_AVATAR_URL ? (
        <DefaultAvatar className="absolute inset-0 size-full" />
      ) : (
        user.avatar.secure_url && (
          <img
            src={user.avatar.secure_url}
            alt=""
            width={36}
            height={36}
            className="absolute inset-0 size-full object-cover"
            onError={(event) => {
              event.currentTarget.hidden = true;
            }}
          />
        )
      )}
    </span>
  );
}
