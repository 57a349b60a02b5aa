import { afterEach, describe, expect, it } from 'vitest';
import { readChartPalette, toRgba } from './chart-palette';

afterEach(() => {
  document.documentElement.removeAttribute('style');
});

describe('theme colours for chart.js', () => {
  it.each([
    ['oklch(100% 0 0)', 'rgba(255, 255, 255, 1)'],
    ['oklch(0% 0 0)', 'rgba(0, 0, 0, 1)'],
    // CSS Color 4's own examples: sRGB red and the daisyUI light theme's primary (#422ad5).
    ['oklch(62.8% 0.2577 29.23)', 'rgba(255, 0, 0, 1)'],
    ['oklch(45% 0.24 277.023)', 'rgba(66, 42, 213, 1)'],
    ['oklch(0.45 0.24 277.023deg)', 'rgba(66, 42, 213, 1)'],
    ['oklch(45% 60% 277.023)', 'rgba(66, 42, 213, 1)'],
    ['oklch(100% 0 0 / 50%)', 'rgba(255, 255, 255, 0.5)'],
  ])('converts %s to %s', (color, rgba) => {
    expect(toRgba(color)).toBe(rgba);
  });

  it('makes a colour translucent, on top of its own alpha', () => {
    expect(toRgba('oklch(21% 0.006 285.885)', 0.15)).toBe('rgba(24, 24, 27, 0.15)');
    expect(toRgba('oklch(100% 0 0 / 0.5)', 0.5)).toBe('rgba(255, 255, 255, 0.25)');
  });

  it('clamps a colour outside sRGB to its gamut', () => {
    expect(toRgba('oklch(90% 0.4 145)')).toMatch(/^rgba\((\d{1,3}), (\d{1,3}), (\d{1,3}), 1\)$/);
  });

  it('hands other colours back as they are', () => {
    expect(toRgba(' #2563eb ')).toBe('#2563eb');
    expect(toRgba('rgb(1 2 3)')).toBe('rgb(1 2 3)');
  });

  it("reads the theme's variables from the page: brand colours for the series, the text colour for labels and lines", () => {
    const root = document.documentElement;
    root.style.setProperty('--color-primary', 'oklch(100% 0 0)');
    root.style.setProperty('--color-secondary', 'oklch(0% 0 0)');
    root.style.setProperty('--color-base-100', '#123456');
    root.style.setProperty('--color-base-content', 'oklch(62.8% 0.2577 29.23)');
    expect(readChartPalette()).toEqual({
      primary: 'rgba(255, 255, 255, 1)',
      secondary: 'rgba(0, 0, 0, 1)',
      surface: '#123456',
      text: 'rgba(255, 0, 0, 1)',
      muted: 'rgba(255, 0, 0, 0.8)',
      grid: 'rgba(255, 0, 0, 0.15)',
    });
  });
});
