import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderPage } from '../../test/render';
import AboutPage from './AboutPage';
import { QuoteCarousel, ROTATION_MS } from './QuoteCarousel';

const quotes = [
  { text: 'First quote.', name: 'Ada Lovelace' },
  { text: 'Second quote.', name: 'Alan Turing' },
  { text: 'Third quote.', name: 'Grace Hopper' },
];

/** The slide on show: its label ("2 of 3") and the quote in it. */
function currentSlide() {
  const slide = screen.getByRole('group');
  return { label: slide.getAttribute('aria-label'), text: slide.textContent };
}
const carousel = () => screen.getByRole('region', { name: 'Quotes' });
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => {
  vi.useFakeTimers();
  // Testing Library waits on a setTimeout(0) between user-event steps and advances fake timers only
  // when it sees Jest; this lets it do the same with Vitest's.
  vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup() {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  render(
    <>
      <button type="button">outside</button>
      <QuoteCarousel quotes={quotes} label="Quotes" />
    </>,
  );
  return user;
}

describe('about page', () => {
  it('names the browser tab', () => {
    renderPage(<AboutPage />, { path: '/about' });
    expect(document.title).toBe('About us · LMS');
  });

  it('shows the about text and a carousel of five quotes, each with a name', async () => {
    renderPage(<AboutPage />, { path: '/about' });
    expect(screen.getByRole('heading', { name: 'About us' })).toBeInTheDocument();
    const region = screen.getByRole('region', { name: 'Quotes about learning' });
    expect(region).toHaveAttribute('aria-roledescription', 'carousel');
    const names = ['Nelson Mandela', 'Mahatma Gandhi', 'B. B. King', 'Dr. Seuss', 'A. P. J. Abdul Kalam'];
    for (let i = 1; i <= 5; i++) {
      const slide = within(region).getByRole('group', { name: `${i} of 5` });
      expect(slide).toHaveAttribute('aria-roledescription', 'slide');
      expect(within(slide).getByText(names[i - 1]!)).toBeInTheDocument();
      expect(slide.querySelector('blockquote')!.textContent!.length).toBeGreaterThan(30);
      await act(async () => within(region).getByRole('button', { name: 'Next quote' }).click());
    }
    // Five steps on: back to the first.
    expect(within(region).getByRole('group', { name: '1 of 5' })).toBeInTheDocument();
  });
});

describe('quote carousel', () => {
  it('moves with the Previous/Next buttons and with ←/→ while focused, wrapping around', async () => {
    const user = setup();
    expect(currentSlide()).toEqual({ label: '1 of 3', text: expect.stringContaining('First quote.') });

    await user.click(screen.getByRole('button', { name: 'Next quote' }));
    expect(currentSlide()).toEqual({ label: '2 of 3', text: expect.stringContaining('Alan Turing') });
    await user.click(screen.getByRole('button', { name: 'Previous quote' }));
    await user.click(screen.getByRole('button', { name: 'Previous quote' }));
    expect(currentSlide()).toEqual({ label: '3 of 3', text: expect.stringContaining('Grace Hopper') });

    // Keyboard only: Tab into the carousel, then the arrow keys.
    await user.click(screen.getByRole('button', { name: 'outside' }));
    await user.keyboard('{ArrowRight}');
    expect(currentSlide().label).toBe('3 of 3'); // arrows do nothing while focus is elsewhere
    await user.tab();
    expect(screen.getByRole('button', { name: 'Pause quotes' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(currentSlide().label).toBe('1 of 3');
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(currentSlide().label).toBe('3 of 3');
    await user.keyboard('{ArrowLeft}');
    expect(currentSlide()).toEqual({ label: '2 of 3', text: expect.stringContaining('Second quote.') });
    // Enter on the focused Next button works like a click.
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Next quote' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(currentSlide().label).toBe('3 of 3');
  });

  it('advances every 5 s, but not while anything inside has focus', async () => {
    const user = setup();
    const slides = screen.getByRole('group').parentElement!;
    expect(slides).toHaveAttribute('aria-live', 'off'); // rotating: not announced
    await advance(ROTATION_MS - 1);
    expect(currentSlide().label).toBe('1 of 3');
    await advance(1);
    expect(currentSlide().label).toBe('2 of 3');

    await user.tab(); // outside
    await user.tab(); // Pause, inside the carousel
    expect(screen.getByRole('button', { name: 'Pause quotes' })).toHaveFocus();
    await advance(ROTATION_MS * 4);
    expect(currentSlide().label).toBe('2 of 3');
    expect(slides).toHaveAttribute('aria-live', 'polite');
    await user.tab(); // Previous: still inside
    await advance(ROTATION_MS * 2);
    expect(currentSlide().label).toBe('2 of 3');

    await user.click(screen.getByRole('button', { name: 'outside' })); // focus leaves
    await user.unhover(carousel());
    await advance(ROTATION_MS);
    expect(currentSlide().label).toBe('3 of 3');
    expect(slides).toHaveAttribute('aria-live', 'off');
  });

  it('does not advance while the pointer is over it', async () => {
    const user = setup();
    await user.hover(carousel());
    await advance(ROTATION_MS * 3);
    expect(currentSlide().label).toBe('1 of 3');
    await user.unhover(carousel());
    await advance(ROTATION_MS);
    expect(currentSlide().label).toBe('2 of 3');
  });

  it('stops with Pause and starts again with Play', async () => {
    const user = setup();
    await user.click(screen.getByRole('button', { name: 'Pause quotes' }));
    await user.click(screen.getByRole('button', { name: 'outside' }));
    await user.unhover(carousel());
    await advance(ROTATION_MS * 3);
    expect(currentSlide().label).toBe('1 of 3');

    await user.click(screen.getByRole('button', { name: 'Play quotes' }));
    await user.click(screen.getByRole('button', { name: 'outside' }));
    await user.unhover(carousel());
    await advance(ROTATION_MS);
    expect(currentSlide().label).toBe('2 of 3');
  });

  it('does not advance by itself when the system asks for reduced motion', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    const user = setup();
    await advance(ROTATION_MS * 3);
    expect(currentSlide().label).toBe('1 of 3');
    expect(screen.getByRole('button', { name: 'Play quotes' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next quote' }));
    expect(currentSlide().label).toBe('2 of 3');
  });
});
