// WCAG 2.x contrast between colours written as #rrggbb: what the brand colour is checked with, on
// the server before saving and in the settings page's live preview.

/** The page backgrounds (daisyUI's base-100) of the two themes: white, and oklch(25.33% 0.016 252.42). */
export const THEME_BACKGROUNDS = { light: '#ffffff', dark: '#1d232a' } as const;
export type ThemeName = keyof typeof THEME_BACKGROUNDS;

/** AA for normal text. */
export const AA_CONTRAST = 4.5;

export const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

function channel(hex: string, at: number): number {
  const value = parseInt(hex.slice(at, at + 2), 16) / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  return 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
}

/** The contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** A ratio as people read it: 4.48 → "4.4:1" (rounded down, so a failing ratio never reads as 4.5:1). */
export const ratioText = (ratio: number) => `${Math.floor(ratio * 10) / 10}:1`;

export interface BrandPair {
  /** The primary colour: filled buttons, links and highlights. */
  primary: string;
  /** Text and icons on the primary colour. */
  content: string;
}

export interface ContrastProblem {
  theme: ThemeName;
  /** `content`: the content colour on the primary; `background`: the primary as text on the page. */
  pair: 'content' | 'background';
  ratio: number;
}

/**
 * Where a theme's primary pair falls short of AA: its text on a filled button, and the primary
 * itself as link text on the page. An empty list when both read.
 */
export function contrastProblems(theme: ThemeName, { primary, content }: BrandPair): ContrastProblem[] {
  const problems: ContrastProblem[] = [];
  const onButton = contrastRatio(primary, content);
  if (onButton < AA_CONTRAST) problems.push({ theme, pair: 'content', ratio: onButton });
  const onPage = pageContrast(theme, primary);
  if (onPage < AA_CONTRAST) problems.push({ theme, pair: 'background', ratio: onPage });
  return problems;
}

/** How much of the primary the app lays under its own text as a tint (`bg-primary/10`: the current page's link). */
export const PRIMARY_TINT = 0.1;

/**
 * The primary as text on the theme's page: the lower of its contrast on the plain background and on
 * the background tinted with the primary itself, where the app marks the current page.
 */
export function pageContrast(theme: ThemeName, primary: string): number {
  const background = THEME_BACKGROUNDS[theme];
  return Math.min(contrastRatio(primary, background), contrastRatio(primary, blend(background, primary, PRIMARY_TINT)));
}

/** `over` laid at `alpha` on `under`, as a browser composites a translucent colour (in sRGB). */
function blend(under: string, over: string, alpha: number): string {
  const parts = [1, 3, 5].map((at) => parseInt(under.slice(at, at + 2), 16) * (1 - alpha) + parseInt(over.slice(at, at + 2), 16) * alpha);
  return `#${parts.map(toHex).join('')}`;
}

/** Black or white, whichever reads better on `primary`. */
export function readableContent(primary: string): string {
  return contrastRatio(primary, '#ffffff') >= contrastRatio(primary, '#000000') ? '#ffffff' : '#000000';
}

const toHex = (value: number) =>
  Math.round(Math.min(255, Math.max(0, value)))
    .toString(16)
    .padStart(2, '0');

/** `hex` mixed with white (amount > 0) or black (amount < 0), amount in [-1, 1]. */
function mix(hex: string, amount: number): string {
  const target = amount > 0 ? 255 : 0;
  const weight = Math.abs(amount);
  const parts = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `#${parts.map((part) => toHex(part + (target - part) * weight)).join('')}`;
}

/**
 * A pair for `theme` made from one brand colour: the colour itself where it reads on that theme's
 * page, else the nearest tint (dark theme) or shade (light theme) of it that does, with black or
 * white on it. What the settings page proposes; the seller may still choose another.
 */
export function suggestPair(theme: ThemeName, brand: string): BrandPair {
  const background = THEME_BACKGROUNDS[theme];
  const direction = theme === 'dark' ? 1 : -1;
  for (let step = 0; step <= 20; step++) {
    const primary = mix(brand, (direction * step) / 20);
    if (contrastRatio(primary, background) >= AA_CONTRAST) {
      const pair = { primary, content: readableContent(primary) };
      if (contrastProblems(theme, pair).length === 0) return pair;
    }
  }
  return theme === 'dark' ? { primary: '#ffffff', content: '#000000' } : { primary: '#000000', content: '#ffffff' };
}
