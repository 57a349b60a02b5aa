import type { Brand, Site } from './settings.ts';

// The part of the site settings the web app's first chunk reads (no zod here): a fresh site's
// values, where a page carries the site, and the brand colours as CSS.

/** The product's own name, a fresh site's until the seller names theirs. */
export const PRODUCT_NAME = 'LMS';

/** A fresh site: the product's own name and colours, no logo, no testimonials, no social links. */
export const DEFAULT_SITE: Site = {
  name: PRODUCT_NAME,
  shortName: PRODUCT_NAME,
  logo: null,
  brand: null,
  hero: { headline: null, text: null },
  testimonials: [],
  faq: null,
  social: { facebook: '', instagram: '', twitter: '', linkedin: '', youtube: '' },
  contact: { email: '', phone: '', address: '' },
  legalName: PRODUCT_NAME,
};

/** The id of the JSON script every page carries the site in (`<script type="application/json" id="…">`). */
export const SITE_SCRIPT_ID = 'lms-site';
/** The id of the <style> element holding the brand's colours. */
export const BRAND_STYLE_ID = 'lms-brand';

/**
 * The brand's colours as CSS over daisyUI's themes: the light pair where no theme or the light one is
 * chosen, the dark pair under a dark preference or the dark theme. As specific as daisyUI's own rules
 * and written after its stylesheet, so it wins. Empty for the product's own colours.
 */
export function brandCss(brand: Brand): string {
  if (!brand) return '';
  const vars = ({ primary, content }: { primary: string; content: string }) => `--color-primary:${primary};--color-primary-content:${content}`;
  return (
    `:root:not([data-theme]),[data-theme=light]{${vars(brand.light)}}` +
    `@media (prefers-color-scheme: dark){:root:not([data-theme]){${vars(brand.dark)}}}` +
    `[data-theme=dark]{${vars(brand.dark)}}`
  );
}
