import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import defaultAvatarFile from '../../../public/default-avatar.svg?raw';
import faviconFile from '../../../public/favicon.svg?raw';
import { BrandMark, DefaultAvatar } from './inline-pictures';

/** An SVG's viewBox and its shapes, each as its tag and attributes: what the picture draws. */
function drawing(svg: SVGSVGElement | Element) {
  return {
    viewBox: svg.getAttribute('viewBox'),
    shapes: [...svg.children].map((shape) => ({
      tag: shape.tagName.toLowerCase(),
      attributes: Object.fromEntries([...shape.attributes].map((attribute) => [attribute.name, attribute.value])),
    })),
  };
}

const fileDrawing = (text: string) => drawing(new DOMParser().parseFromString(text, 'image/svg+xml').documentElement);

describe('the pictures drawn inline', () => {
  it('the brand mark draws what public/favicon.svg draws (the tab icon and the manifest keep the file)', () => {
    const { container } = render(<BrandMark />);
    const svg = container.querySelector('svg')!;
    expect(drawing(svg)).toEqual(fileDrawing(faviconFile));
    expect(svg.getAttribute('aria-hidden')).toBe('true');
  });

  it('the default avatar draws what public/default-avatar.svg draws (the URL other clients are given)', () => {
    const { container } = render(<DefaultAvatar />);
    expect(drawing(container.querySelector('svg')!)).toEqual(fileDrawing(defaultAvatarFile));
  });
});
