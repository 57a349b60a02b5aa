import { messages } from '@lms/contract/messages';
import { useEffect, useState } from 'react';

/** After this long without its page, the spinner shows; a page that comes sooner never flashes one. */
const SPINNER_DELAY_MS = 400;

/**
 * The place of the first page while its chunk loads (the router's HydrateFallback). As tall as the
 * screen, so the footer below is out of sight and nothing moves when the page takes this place.
 */
export function PageFallback() {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="flex min-h-page items-center justify-center" aria-busy="true">
      {slow && (
        <span role="status" className="flex items-center">
          <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
          <span className="sr-only">{messages.pageLoading}</span>
        </span>
      )}
    </div>
  );
}
