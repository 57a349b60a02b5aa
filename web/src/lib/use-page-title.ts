import { useEffect } from 'react';
import { useSite } from './site';

/**
 * Sets the browser tab's title for the page (STYLE: every page has its own `<title>`).
 * Undefined while the page's subject is still loading: the title stays as it was.
 */
export function usePageTitle(title: string | undefined) {
  // The site's name, after every page's own title.
  const { name } = useSite();
  useEffect(() => {
    if (title !== undefined) document.title = title ? `${title} · ${name}` : name;
  }, [title, name]);
}
