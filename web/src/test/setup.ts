import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach } from 'vitest';

// A page's first render imports its lazy parts; on a busy two-core CI machine that can pass the default 1 s
// that findBy… waits. What the user would see is still asserted; only the wait is longer.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no matchMedia; react-hot-toast and theme code ask it about user preferences.
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;

// jsdom has no modal dialogs either.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false;
};

afterEach(() => {
  cleanup();
  toast.remove();
  localStorage.clear();
});
