import { messages } from '@lms/contract/messages';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VideoPlayer } from './VideoPlayer';
import { placeOutOfCentre } from './watermark';

/** hls.js as the player drives it: levels after the manifest, the level playing, fatal errors. */
const fake = vi.hoisted(() => {
  const handlers = new Map<string, (event: string, data: unknown) => void>();
  const instance = {
    currentLevel: -1,
    loadSource: vi.fn(),
    attachMedia: vi.fn(),
    destroy: vi.fn(),
    on: (name: string, handler: (event: string, data: unknown) => void) => handlers.set(name, handler),
  };
  const Hls = Object.assign(
    vi.fn(function Hls() {
      return instance;
    }),
    {
      isSupported: () => true,
      Events: { MANIFEST_PARSED: 'manifestParsed', LEVEL_SWITCHED: 'levelSwitched', ERROR: 'error' },
    },
  );
  return { Hls, instance, emit: (name: string, data: unknown) => handlers.get(name)?.(name, data) };
});
vi.mock('hls.js', () => ({ default: fake.Hls }));

beforeEach(() => {
  fake.instance.currentLevel = -1;
  fake.instance.loadSource.mockClear();
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
  HTMLMediaElement.prototype.pause = vi.fn();
});

describe('VideoPlayer', () => {
  it('plays the MP4 when there is no ladder, with no quality menu', () => {
    render(<VideoPlayer src="/media/private/videos/a.mp4?x" label="Lecture 1" poster="/media/posters/p.webp" />);
    const video = screen.getByLabelText('Lecture 1');
    expect(video).toHaveAttribute('src', '/media/private/videos/a.mp4?x');
    expect(video).toHaveAttribute('poster', '/media/posters/p.webp');
    expect(screen.queryByRole('combobox', { name: messages.videoQuality })).not.toBeInTheDocument();
  });

  it('streams the ladder through hls.js and lists Auto and each rendition, highest first; choosing one fixes it', async () => {
    const user = userEvent.setup();
    render(<VideoPlayer src="/a.mp4" hlsSrc="/media/hls/g/f/master.m3u8" label="Lecture 1" />);
    await vi.waitFor(() => expect(fake.instance.loadSource).toHaveBeenCalledWith('/media/hls/g/f/master.m3u8'));
    act(() => fake.emit('manifestParsed', { levels: [{ height: 360 }, { height: 720 }, { height: 1080 }] }));
    act(() => fake.emit('levelSwitched', { level: 1 }));
    const menu = screen.getByRole('combobox', { name: messages.videoQuality });
    expect([...(menu as HTMLSelectElement).options].map((option) => option.text)).toEqual(['Auto (720p)', '1080p', '720p', '360p']);
    await user.selectOptions(menu, '1080p');
    expect(fake.instance.currentLevel).toBe(2);
  });

  it('starts from the lowest rendition, where the first picture comes soonest, and lets hls.js climb from there', async () => {
    render(<VideoPlayer src="/a.mp4" hlsSrc="/media/hls/g/f/master.m3u8" label="Lecture 1" />);
    await vi.waitFor(() => expect(fake.instance.loadSource).toHaveBeenCalled());
    expect(fake.Hls).toHaveBeenLastCalledWith(expect.objectContaining({ startLevel: 0, capLevelToPlayerSize: true }));
    expect(fake.instance.currentLevel).toBe(-1);
  });

  it('falls back to the MP4 when hls.js reports a fatal error', async () => {
    render(<VideoPlayer src="/a.mp4" hlsSrc="/media/hls/g/f/master.m3u8" label="Lecture 1" />);
    await vi.waitFor(() => expect(fake.instance.loadSource).toHaveBeenCalled());
    act(() => fake.emit('manifestParsed', { levels: [{ height: 360 }] }));
    act(() => fake.emit('error', { fatal: true }));
    expect(screen.getByLabelText('Lecture 1')).toHaveAttribute('src', '/a.mp4');
    expect(screen.queryByRole('combobox', { name: messages.videoQuality })).not.toBeInTheDocument();
  });

  it('asks the page for fresh URLs once when the MP4 is refused, and again only for a new one', () => {
    const onSourceRefused = vi.fn();
    const { rerender } = render(<VideoPlayer src="/old.mp4" label="Lecture 1" onSourceRefused={onSourceRefused} />);
    const video = screen.getByLabelText('Lecture 1');
    fireEvent.error(video);
    fireEvent.error(video);
    expect(onSourceRefused).toHaveBeenCalledTimes(1);
    // The page's fresh answer: the ladder, which plays through hls.js; its errors are hls.js's to handle.
    rerender(<VideoPlayer src="/media/hls/g/f/master.m3u8" hlsSrc="/media/hls/g/f/master.m3u8" label="Lecture 1" onSourceRefused={onSourceRefused} />);
    rerender(<VideoPlayer src="/new.mp4" label="Lecture 1" onSourceRefused={onSourceRefused} />);
    fireEvent.error(screen.getByLabelText('Lecture 1'));
    expect(onSourceRefused).toHaveBeenCalledTimes(2);
  });

  it('answers the keyboard: space plays and pauses, arrows move 5 s, m mutes; keys meant for the menu are left alone', () => {
    render(<VideoPlayer src="/a.mp4" label="Lecture 1" />);
    const video = screen.getByLabelText('Lecture 1') as HTMLVideoElement;
    Object.defineProperty(video, 'duration', { value: 60, configurable: true });
    video.currentTime = 20;
    fireEvent.keyDown(video, { key: ' ' });
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
    fireEvent.keyDown(video, { key: 'ArrowRight' });
    expect(video.currentTime).toBe(25);
    fireEvent.keyDown(video, { key: 'ArrowLeft' });
    fireEvent.keyDown(video, { key: 'ArrowLeft' });
    expect(video.currentTime).toBe(15);
    fireEvent.keyDown(video, { key: 'm' });
    expect(video.muted).toBe(true);
    expect(video).toHaveAccessibleDescription(messages.videoShortcuts);
  });
});

describe('VideoPlayer: the watermark', () => {
  const watermark = { text: 'as•••@example.com', code: 'K7M2-Q9XD', opacity: 30, size: 'medium' as const };
  const overlayOf = () => document.querySelector<HTMLElement>('[data-player-watermark]');

  function renderWatermarked() {
    render(<VideoPlayer src="/a.mp4" label="Lecture 1" watermark={watermark} />);
    const video = screen.getByLabelText('Lecture 1') as HTMLVideoElement;
    vi.mocked(HTMLMediaElement.prototype.pause).mockClear();
    return video;
  }

  it('draws the viewer and the code over the video, inside the frame that goes full screen, with styles no stylesheet outranks', () => {
    const video = renderWatermarked();
    const overlay = overlayOf()!;
    expect(overlay.parentElement).toBe(video.parentElement);
    expect(overlay.shadowRoot!.textContent).toBe('as•••@example.com' + 'K7M2-Q9XD');
    expect(overlay).toHaveAttribute('aria-hidden', 'true');
    for (const name of ['display', 'visibility', 'opacity', 'transform', 'clip-path', 'filter']) {
      expect(overlay.style.getPropertyPriority(name), name).toBe('important');
    }
    expect(video.getAttribute('controlslist')).toContain('nofullscreen');
  });

  it('pauses and says so when the overlay is removed, draws it again, and plays once the viewer presses play', async () => {
    const video = renderWatermarked();
    act(() => overlayOf()!.remove());
    expect(await screen.findByRole('alert')).toHaveTextContent('The watermark must stay visible to play this video');
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();
    // Back at once, where it belongs.
    expect(overlayOf()!.parentElement).toBe(video.parentElement);
    act(() => void video.dispatchEvent(new Event('play')));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    ['display: none', (overlay: HTMLElement) => overlay.style.setProperty('display', 'none', 'important')],
    ['visibility: hidden', (overlay: HTMLElement) => overlay.style.setProperty('visibility', 'hidden', 'important')],
    ['a fainter opacity', (overlay: HTMLElement) => overlay.style.setProperty('opacity', '0.1', 'important')],
    ['a scale to nothing', (overlay: HTMLElement) => overlay.style.setProperty('transform', 'scale(0)', 'important')],
    ['a clip', (overlay: HTMLElement) => overlay.style.setProperty('clip-path', 'inset(50%)', 'important')],
    ['its words changed', (overlay: HTMLElement) => (overlay.shadowRoot!.firstElementChild!.textContent = '')],
  ])('pauses when it is hidden by %s', async (_how, hide) => {
    renderWatermarked();
    act(() => void hide(overlayOf()!));
    expect(await screen.findByRole('alert')).toHaveTextContent('The watermark must stay visible to play this video');
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalled();
  });

  it('catches what no change announces (a stylesheet) within a second', async () => {
    renderWatermarked();
    const frame = overlayOf()!.parentElement!;
    // Laid out as a browser would: the overlay pushed out of the frame.
    vi.spyOn(frame, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ x: 0, y: 0, width: 640, height: 360 }));
    vi.spyOn(overlayOf()!, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ x: 700, y: 10, width: 120, height: 30 }));
    expect(await screen.findByRole('alert', {}, { timeout: 2500 })).toHaveTextContent('The watermark must stay visible');
  });

  it('is first placed without measuring the page, along an edge, and moved once the page is laid out', () => {
    // The player's observers, each told of a 1280 × 720 frame when the page is "laid out".
    const observers: ((entries: unknown[]) => void)[] = [];
    const report = () => observers.forEach((callback) => callback([{ contentRect: DOMRect.fromRect({ width: 1280, height: 720 }) }]));
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: (entries: unknown[]) => void) {
          observers.push(callback);
        }
        observe() {}
        disconnect() {}
      },
    );
    const measured = vi.spyOn(Element.prototype, 'getBoundingClientRect');
    try {
      renderWatermarked();
      // A measure here would lay the page out before the video has its source.
      expect(measured).not.toHaveBeenCalled();
      const top = parseFloat(overlayOf()!.style.top);
      expect(top <= 10 || top >= 90, `top ${top}% is along an edge`).toBe(true);
      // Laid out as a browser would: a wide frame, with room beside the overlay.
      measured.mockImplementation(function (this: Element) {
        return this.hasAttribute('data-player-watermark')
          ? DOMRect.fromRect({ x: 0, y: 0, width: 200, height: 40 })
          : DOMRect.fromRect({ x: 0, y: 0, width: 1280, height: 720 });
      });
      const placed = new Set<string>();
      for (let layout = 0; layout < 20; layout++) {
        act(() => report());
        placed.add(overlayOf()!.style.left + overlayOf()!.style.top);
      }
      expect(measured).toHaveBeenCalled();
      // Placed anew at each report, anywhere out of the middle: not only along the top and bottom edges.
      expect(placed.size).toBeGreaterThan(1);
    } finally {
      measured.mockRestore();
      vi.unstubAllGlobals();
    }
  });

  it('moves every 15 to 30 s, never into the middle', () => {
    vi.useFakeTimers();
    try {
      renderWatermarked();
      const places = new Set<string>();
      for (let step = 0; step < 6; step++) {
        places.add(`${overlayOf()!.style.left} ${overlayOf()!.style.top}`);
        act(() => void vi.advanceTimersByTime(30_000));
      }
      expect(places.size).toBeGreaterThan(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('goes full screen as the frame, with the watermark in it (the F key and the button)', async () => {
    const requested: Element[] = [];
    HTMLElement.prototype.requestFullscreen = vi.fn(function (this: HTMLElement) {
      requested.push(this);
      return Promise.resolve();
    });
    const user = userEvent.setup();
    const video = renderWatermarked();
    fireEvent.keyDown(video, { key: 'f' });
    await user.click(screen.getByRole('button', { name: 'Full screen' }));
    expect(requested).toEqual([video.parentElement, video.parentElement]);
    expect(requested[0]!.contains(overlayOf())).toBe(true);
  });
});

describe('placeOutOfCentre', () => {
  it('keeps the overlay inside the frame and out of the middle 40 %, on a desktop and on a phone', () => {
    for (const [frame, mark] of [
      [
        { width: 1280, height: 720 },
        { width: 220, height: 44 },
      ],
      [
        { width: 360, height: 203 },
        { width: 140, height: 28 },
      ],
    ] as const) {
      for (let draw = 0; draw < 500; draw++) {
        const { p, q } = placeOutOfCentre(frame, mark);
        const left = p * (frame.width - mark.width);
        const top = q * (frame.height - mark.height);
        expect(left).toBeGreaterThanOrEqual(0);
        expect(top).toBeGreaterThanOrEqual(0);
        expect(left + mark.width).toBeLessThanOrEqual(frame.width + 1e-9);
        expect(top + mark.height).toBeLessThanOrEqual(frame.height + 1e-9);
        const overlapsX = left < 0.7 * frame.width && left + mark.width > 0.3 * frame.width;
        const overlapsY = top < 0.7 * frame.height && top + mark.height > 0.3 * frame.height;
        expect(overlapsX && overlapsY, `${left},${top} in ${frame.width}×${frame.height}`).toBe(false);
      }
    }
  });
});

describe('VideoPlayer: full screen', () => {
  it('hands full screen from the bare video (a browser control) to the frame, so the watermark goes with it', async () => {
    const requested: Element[] = [];
    HTMLElement.prototype.requestFullscreen = vi.fn(function (this: HTMLElement) {
      requested.push(this);
      return Promise.resolve();
    });
    render(<VideoPlayer src="/a.mp4" label="Lecture 1" />);
    const video = screen.getByLabelText('Lecture 1');
    Object.defineProperty(document, 'fullscreenElement', { value: video, configurable: true });
    try {
      act(() => void document.dispatchEvent(new Event('fullscreenchange')));
      await vi.waitFor(() => expect(requested).toEqual([video.parentElement]));
    } finally {
      Object.defineProperty(document, 'fullscreenElement', { value: null, configurable: true });
    }
  });
});
