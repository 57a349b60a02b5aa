import type { Site } from '@lms/contract/settings';
import { BRAND_STYLE_ID, brandCss, SITE_SCRIPT_ID } from '@lms/contract/site';
import type { IconSize } from '../settings/site-settings.ts';

/**
 * What the server writes into a page's <head> so that link previews (Slack, WhatsApp,
 * Facebook, X) and search engines see a page's title, description and picture without
 * running the app: the standard tags, OpenGraph and Twitter cards. Everything is escaped:
 * a course's title and description are typed by an administrator and may hold `"<>&`.
 */
export interface PageHead {
  /** The whole <title>, as the app's usePageTitle sets it (`Course · LMS`). */
  title: string;
  description: string;
  siteName: string;
  /** The page's own absolute URL: canonical and og:url. Left out where a page has no single URL. */
  url?: string;
  /** An absolute URL of the page's picture, with its size. */
  image?: { url: string; width: number; height: number; alt: string };
  /**
   * The picture the page shows first and largest (a course's cover), as the page itself will ask
   * for it: the browser fetches it with the page's script instead of after the app has rendered.
   */
  preloadImage?: string;
  /** Asks search engines not to list the page (a course that does not exist). */
  noindex?: boolean;
}

/** Around what search engines show of a description; longer ones are cut on a word. */
export const DESCRIPTION_MAX = 160;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text made safe for an HTML or XML text node and for a quoted attribute value. */
export const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/**
 * `text` on one line, cut to at most `max` characters at the end of a word, with an ellipsis
 * when cut. A single word longer than `max` is cut inside it. Counts characters, not UTF-16 units.
 */
export function summarize(text: string, max = DESCRIPTION_MAX): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  const room = chars.slice(0, max - 1).join('');
  const lastSpace = room.lastIndexOf(' ');
  // The next character after `room` decides whether it ends on a whole word.
  const endsOnWord = chars[max - 1] === ' ';
  const cut = endsOnWord ? room : lastSpace > 0 ? room.slice(0, lastSpace) : room;
  return `${cut.replace(/[\s,;:.\u2013\u2014-]+$/, '')}…`;
}

/** The tags of `head`, one a line, indented for the page's <head>. */
export function headTags(head: PageHead): string {
  const tags: string[] = [];
  const meta = (attribute: 'name' | 'property', key: string, value: string) => tags.push(`<meta ${attribute}="${key}" content="${escapeMarkup(value)}" />`);
  tags.push(`<title>${escapeMarkup(head.title)}</title>`);
  meta('name', 'description', head.description);
  if (head.noindex) meta('name', 'robots', 'noindex');
  if (head.url) tags.push(`<link rel="canonical" href="${escapeMarkup(head.url)}" />`);
  if (head.preloadImage) tags.push(`<link rel="preload" as="image" href="${escapeMarkup(head.preloadImage)}" fetchpriority="high" />`);
  meta('property', 'og:site_name', head.siteName);
  meta('property', 'og:type', 'website');
  meta('property', 'og:title', head.title);
  meta('property', 'og:description', head.description);
  if (head.url) meta('property', 'og:url', head.url);
  if (head.image) {
    meta('property', 'og:image', head.image.url);
    meta('property', 'og:image:width', String(head.image.width));
    meta('property', 'og:image:height', String(head.image.height));
    meta('property', 'og:image:alt', head.image.alt);
  }
  meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary');
  meta('name', 'twitter:title', head.title);
  meta('name', 'twitter:description', head.description);
  if (head.image) {
    meta('name', 'twitter:image', head.image.url);
    meta('name', 'twitter:image:alt', head.image.alt);
  }
  return tags.map((tag) => `    ${tag}\n`).join('');
}

/** What every page carries of the site, whatever its own head: the public settings, the brand, the logo's icons. */
export interface PageSite {
  site: Site;
  /** The URLs of the logo's icons by size; null without a logo, when the build's own icons stay. */
  icons: Record<IconSize, string> | null;
}

/**
 * JSON to put inside a <script>: `<` escaped, so no value (a testimonial holding `</script>`, or
 * `<!--`) can end the element or change how the HTML parser reads it; U+2028 and U+2029 too, which
 * older JavaScript engines read as line ends.
 */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The tags of the site, one a line: the public settings as JSON (web/src/lib/site.ts reads them
 * before the first render), the brand's colours, the logo's icons, the web app manifest, and the
 * colour browsers paint their own bars in. Written after the build's stylesheet, so the brand wins.
 */
export function siteTags({ site, icons }: PageSite): string {
  const tags = [`<script type="application/json" id="${SITE_SCRIPT_ID}">${jsonForScript(site)}</script>`];
  // The brand's colours are checked hex values; `<` escaped all the same, so no value can end the element.
  const css = brandCss(site.brand).replace(/</g, '\\3c ');
  if (css) tags.push(`<style id="${BRAND_STYLE_ID}">${css}</style>`);
  if (icons) {
    tags.push(`<link rel="icon" href="${escapeMarkup(icons[32])}" sizes="32x32" type="image/png" />`);
    tags.push(`<link rel="apple-touch-icon" href="${escapeMarkup(icons[180])}" />`);
  }
  tags.push('<link rel="manifest" href="/manifest.webmanifest" />');
  if (site.brand) {
    tags.push(`<meta name="theme-color" media="(prefers-color-scheme: light)" content="${escapeMarkup(site.brand.light.primary)}" />`);
    tags.push(`<meta name="theme-color" media="(prefers-color-scheme: dark)" content="${escapeMarkup(site.brand.dark.primary)}" />`);
  }
  return tags.map((tag) => `    ${tag}\n`).join('');
}

/** The tags headTags and siteTags write, as a page built by Vite may already carry them: taken out before ours go in. */
const OWN_TAGS = [
  /[ \t]*<title>[\s\S]*?<\/title>[ \t]*\n?/gi,
  /[ \t]*<meta\s+(?:name|property)="(?:description|robots|theme-color|og:[^"]*|twitter:[^"]*)"[^>]*>[ \t]*\n?/gi,
  /[ \t]*<link\s+rel="(?:canonical|manifest)"[^>]*>[ \t]*\n?/gi,
];

/** The build's own icons (web/public), which the logo's replace. */
const ICON_LINKS = /[ \t]*<link\s+rel="(?:icon|shortcut icon|apple-touch-icon)"[^>]*>[ \t]*\n?/gi;

/** The start of the page (`before`, from splitAtHead) without the build's own icons. */
export const withoutIconLinks = (before: string) => before.replace(ICON_LINKS, '');

/**
 * index.html split where the head tags go (just before </head>), without the tags of its own
 * that headTags and siteTags replace. `before + headTags(head) + siteTags(site) + '  ' + after` is
 * the page, </head> indented as Vite writes it.
 */
export function splitAtHead(indexHtml: string): { before: string; after: string } {
  const page = OWN_TAGS.reduce((html, tag) => html.replace(tag, ''), indexHtml);
  const at = page.search(/<\/head>/i);
  if (at < 0) throw new Error('web/dist/index.html has no </head> to put the page title and link preview tags in');
  const before = page.slice(0, at).replace(/[ \t]+$/, '');
  return { before: before.endsWith('\n') ? before : `${before}\n`, after: page.slice(at) };
}
