import { useSyncExternalStore } from 'react';
import type { Site } from '@lms/contract/settings';
import { BRAND_STYLE_ID, brandCss, DEFAULT_SITE, SITE_SCRIPT_ID } from '@lms/contract/site';

/**
 * The seller's site (name, logo, colours, home texts, contact details) as every page carries it: the
 * server writes it into the page as JSON, so it is here from the first render without a request. A
 * page without it (the dev server, tests) shows a fresh site. Settings saved in this tab replace it
 * with `setSite`; other tabs and visitors get the change with their next page.
 */
let current: Site = readFromPage();
const listeners = new Set<() => void>();

function readFromPage(): Site {
  const script = typeof document === 'undefined' ? null : document.getElementById(SITE_SCRIPT_ID);
  if (!script?.textContent) return DEFAULT_SITE;
  try {
    return { ...DEFAULT_SITE, ...(JSON.parse(script.textContent) as Partial<Site>) };
  } catch {
    return DEFAULT_SITE;
  }
}

export const getSite = () => current;

/** Replaces the site (after the admin saved settings) and repaints the brand colours. */
export function setSite(site: Site) {
  current = site;
  applyBrand(site);
  for (const listener of listeners) listener();
}

/** The brand's colours in the page's <style>, as the server writes them, made when missing. */
function applyBrand(site: Site) {
  let style = document.getElementById(BRAND_STYLE_ID);
  if (!style) {
    style = document.createElement('style');
    style.id = BRAND_STYLE_ID;
    document.head.append(style);
  }
  style.textContent = brandCss(site.brand);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The site, re-rendering when the admin saves settings. */
export const useSite = () => useSyncExternalStore(subscribe, getSite);
