import { useEffect } from 'react';
import toast, { Toaster, useToasterStore } from 'react-hot-toast';

/**
 * The app's toasts. Spec §9: errors stay 4 s, successes 2 s, at most 20 at once. Ours: one error at
 * a time, the newest, so that a form sent three times shows one reason, not a stack over the form.
 */
export function Toasts() {
  return (
    <>
      <Toaster position="top-center" toastOptions={{ error: { duration: 4000 }, success: { duration: 2000 } }} />
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
  useEffect(() => {
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
