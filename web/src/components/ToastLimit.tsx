import { useEffect } from 'react';
import toast, { useToasterStore } from 'react-hot-toast';

/** react-hot-toast has no limit of its own: dismiss the oldest beyond `max`. */
export function ToastLimit({ max }: { max: number }) {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts
      .filter((t) => t.visible)
      .slice(max)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts, max]);
  return null;
}
