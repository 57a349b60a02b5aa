import { useEffect } from 'react';

/** The product's name, after every page's own title. */
export const SITE_NAME = 'LMS';

/**
 * Sets the browser tab's title for the page (STYLE: every page has its own `<title>`).
 * Undefined while the page's subject is still loading: the title stays as it was.
 */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    if (title !== undefined) document.title = title ? `${title} · ${SITE_NAME}` : SITE_NAME;
  }, [title]);
}
