import { useLayoutEffect } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';

/**
 * The app's toasts. Errors stay 4 s, successes 2 s, at most 20 at once. One error at
 * a time, the newest, so that a form sent three times shows one reason, not a stack over the form.
 */
export function Toasts() {
  return (
    <>
      {/* Over the navigation bar, off the form: close to the top, and wider than the library's 350 px so that a sentence naming several fields keeps to two lines. */}
      <Toaster
        position="top-center"
        containerStyle={{ top: 8 }}
        toastOptions={{ style: { maxWidth: '36rem' }, error: { duration: 4000 }, success: { duration: 2000 } }}
      />
      <ToastLimit max={20} maxErrors={1} />
    </>
  );
}

/**
 * react-hot-toast has no limit of its own: beyond `max` toasts the oldest are dismissed. Beyond
 * `maxErrors` error toasts the older errors are taken away at once, without waiting for their exit:
 * a newer error takes the place of the one on show instead of stacking over the page.
 */
export function ToastLimit({ max, maxErrors = max }: { max: number; maxErrors?: number }) {
  const { toasts } = useToasterStore();
  // Before the browser paints: the older error never shows beside the newer one, not even for a frame.
  useLayoutEffect(() => {
    // The store lists the newest first.
    const visible = toasts.filter((t) => t.visible);
    const oldErrors = visible.filter((t) => t.type === 'error').slice(maxErrors);
    oldErrors.forEach((t) => toast.remove(t.id));
    visible
      .filter((t) => !oldErrors.includes(t))
      .slice(max)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts, max, maxErrors]);
  return null;
}
