import { useContext, useEffect, useRef, useState } from 'react';
import { UNSAFE_NavigationContext, type Navigator } from 'react-router';

/** Whether leaving waits for an answer, and the two answers: go on to where the user was going, or stay. */
export interface LeaveBlocker {
  state: 'unblocked' | 'blocked';
  proceed: () => void;
  reset: () => void;
}

/** The position of the current entry, as React Router's browser history numbers it in `history.state`. */
const entryIndex = (): number | undefined => (window.history.state as { idx?: number } | null)?.idx;

/**
 * Holds every move away from the page while `shouldBlock()` answers true, until the user answers:
 * a link, a `navigate()` (to a path or back) and the browser's own Back and Forward buttons. The
 * app's router is a `BrowserRouter` (no data router, whose `useBlocker` this stands in for): moves
 * through the router go through its navigator, which is held here; Back and Forward are
 * `popstate` events, taken before the router's own listener sees them and undone until the user
 * chooses to leave. Closing the tab is the browser's question (`beforeunload`), not this.
 */
export function useLeaveBlocker(shouldBlock: () => boolean): LeaveBlocker {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const [held, setHeld] = useState<{ go: () => void }>();
  const ask = useRef(shouldBlock);
  useEffect(() => {
    ask.current = shouldBlock;
  });

  useEffect(() => {
    const routed = navigator as Navigator;
    const { push, replace, go } = routed;
    routed.push = (...args) => (ask.current() ? setHeld({ go: () => push.apply(routed, args) }) : push.apply(routed, args));
    routed.replace = (...args) => (ask.current() ? setHeld({ go: () => replace.apply(routed, args) }) : replace.apply(routed, args));
    routed.go = (delta) => (ask.current() ? setHeld({ go: () => go.call(routed, delta) }) : go.call(routed, delta));

    // Back or Forward has already moved the browser: it is moved back (that move is swallowed
    // too) and the router never hears of either, unless the user then chooses to leave.
    const here = entryIndex();
    let undoing = false;
    let leaving = false;
    const onPop = (event: PopStateEvent) => {
      if (undoing) {
        undoing = false;
        event.stopImmediatePropagation();
        return;
      }
      const there = entryIndex();
      if (leaving || !ask.current() || here === undefined || there === undefined || there === here) return;
      event.stopImmediatePropagation();
      undoing = true;
      window.history.go(here - there);
      setHeld({
        go: () => {
          leaving = true;
          window.history.go(there - here);
        },
      });
    };
    // Capturing on the window runs before the router's listener, which listens without capture.
    window.addEventListener('popstate', onPop, { capture: true });
    return () => {
      routed.push = push;
      routed.replace = replace;
      routed.go = go;
      window.removeEventListener('popstate', onPop, { capture: true });
    };
  }, [navigator]);

  return {
    state: held ? 'blocked' : 'unblocked',
    proceed: () => {
      setHeld(undefined);
      held?.go();
    },
    reset: () => setHeld(undefined),
  };
}
