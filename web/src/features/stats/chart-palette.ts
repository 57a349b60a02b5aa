import { useEffect, useState } from 'react';

/**
 * The charts' colours, from the daisyUI theme in use (STYLE: one design system; the charts use
 * its brand colours), read again whenever the colour scheme changes, so that legends and axis
 * labels stay readable in the dark theme. chart.js draws on a canvas and parses colours itself,
 * and it does not know the theme's oklch(): every colour is handed over as rgba().
 */
export interface ChartPalette {
  /** The main series (sales; registered users). */
  primary: string;
  /** The second series (enrolled users). */
  secondary: string;
  /** The page's background behind the chart: the pie's slice borders. */
  surface: string;
  /** Legend text. */
  text: string;
  /** Axis labels: the text colour, a little quieter, still 4.5:1 on the surface. */
  muted: string;
  /** Grid lines and axis borders. */
  grid: string;
}

/** The theme variables each colour comes from, and how opaque it is drawn. */
const SOURCES: Record<keyof ChartPalette, [variable: string, alpha: number]> = {
  primary: ['--color-primary', 1],
  secondary: ['--color-secondary', 1],
  surface: ['--color-base-100', 1],
  text: ['--color-base-content', 1],
  muted: ['--color-base-content', 0.8],
  grid: ['--color-base-content', 0.15],
};

/** Used where the theme is not there (unit tests in jsdom): daisyUI's light theme. */
const FALLBACK: Record<keyof ChartPalette, string> = {
  primary: 'oklch(45% 0.24 277.023)',
  secondary: 'oklch(65% 0.241 354.308)',
  surface: 'oklch(100% 0 0)',
  text: 'oklch(21% 0.006 285.885)',
  muted: 'oklch(21% 0.006 285.885)',
  grid: 'oklch(21% 0.006 285.885)',
};

const number = (text: string, percentOf: number) => (text.endsWith('%') ? (parseFloat(text) / 100) * percentOf : parseFloat(text));

/**
 * A CSS colour as `rgba(r, g, b, a)` with `alpha` applied: oklch() is converted (through OKLab to
 * sRGB, clamped to its gamut); anything else (hex, rgb(), names) is handed back as it is when
 * `alpha` is 1, and cannot be made translucent here.
 */
export function toRgba(color: string, alpha = 1): string {
  const match = /^oklch\(\s*([\d.]+%?)\s+([\d.]+%?)\s+([\d.]+)(?:deg)?\s*(?:\/\s*([\d.]+%?))?\s*\)$/i.exec(color.trim());
  if (!match) return color.trim();
  const lightness = number(match[1]!, 1);
  const chroma = number(match[2]!, 0.4);
  const hue = (parseFloat(match[3]!) * Math.PI) / 180;
  const ownAlpha = match[4] === undefined ? 1 : number(match[4], 1);
  const a = chroma * Math.cos(hue);
  const b = chroma * Math.sin(hue);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const linear = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  const [red, green, blue] = linear.map((channel) => {
    const clamped = Math.min(1, Math.max(0, channel));
    const encoded = clamped <= 0.0031308 ? 12.92 * clamped : 1.055 * clamped ** (1 / 2.4) - 0.055;
    return Math.round(encoded * 255);
  });
  const opacity = Math.round(ownAlpha * alpha * 1000) / 1000;
  return `rgba(${red}, ${green}, ${blue}, ${opacity})`;
}

/** The palette of the theme in use now. */
export function readChartPalette(root: HTMLElement = document.documentElement): ChartPalette {
  const style = getComputedStyle(root);
  const entries = Object.entries(SOURCES).map(([name, [variable, alpha]]) => {
    const value = style.getPropertyValue(variable).trim() || FALLBACK[name as keyof ChartPalette];
    return [name, toRgba(value, alpha)];
  });
  return Object.fromEntries(entries) as unknown as ChartPalette;
}

/**
 * The palette, read again when the colour scheme changes: the system's light or dark preference
 * (daisyUI follows it) or a theme set on the root element (`data-theme`).
 */
export function useChartPalette(): ChartPalette {
  const [palette, setPalette] = useState(readChartPalette);
  useEffect(() => {
    // A new object only when a colour changed, so the charts are not redrawn for nothing.
    const reread = () =>
      setPalette((old) => {
        const fresh = readChartPalette();
        return JSON.stringify(fresh) === JSON.stringify(old) ? old : fresh;
      });
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', reread);
    const themeSwitch = new MutationObserver(reread);
    themeSwitch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    return () => {
      scheme.removeEventListener('change', reread);
      themeSwitch.disconnect();
    };
  }, []);
  return palette;
}
