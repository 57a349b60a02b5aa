import { messages } from '@lms/contract/messages';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlayerCaption } from './caption-choice';
import { VideoPlayer } from './VideoPlayer';

/** hls.js as the player drives it for captions: the playlist's subtitle tracks, the one chosen, shown or not. */
const fake = vi.hoisted(() => {
  const handlers = new Map<string, (event: string, data: unknown) => void>();
  const instance = {
    currentLevel: -1,
    subtitleTrack: -1,
    subtitleDisplay: true,
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
      Events: { MANIFEST_PARSED: 'manifestParsed', LEVEL_SWITCHED: 'levelSwitched', ERROR: 'error', SUBTITLE_TRACKS_UPDATED: 'subtitleTracksUpdated' },
    },
  );
  return { Hls, instance, emit: (name: string, data: unknown) => handlers.get(name)?.(name, data) };
});
vi.mock('hls.js', () => ({ default: fake.Hls }));

// jsdom has <track> elements but no TextTrack behind them: each gets one, as a browser's, whose mode the test reads.
const textTracks = new WeakMap<HTMLTrackElement, { kind: string; language: string; mode: TextTrackMode }>();
const trackProperty = Object.getOwnPropertyDescriptor(HTMLTrackElement.prototype, 'track');
beforeAll(() => {
  Object.defineProperty(HTMLTrackElement.prototype, 'track', {
    configurable: true,
    get(this: HTMLTrackElement) {
      if (!textTracks.has(this)) textTracks.set(this, { kind: this.kind, language: this.srclang, mode: 'disabled' });
      return textTracks.get(this);
    },
  });
});
afterAll(() => {
  if (trackProperty) Object.defineProperty(HTMLTrackElement.prototype, 'track', trackProperty);
  else delete (HTMLTrackElement.prototype as { track?: unknown }).track;
});

const captions: PlayerCaption[] = [
  { language: 'en', label: 'English', isDefault: true, url: '/media/captions/en.vtt?sig=1' },
  { language: 'hi', label: 'हिन्दी', isDefault: false, url: '/media/captions/hi.vtt?sig=1' },
];

/** Which language the video shows, as a learner sees it: the one track 'showing' (null: none). */
function shownLanguage(): string | null {
  const tracks = [...document.querySelectorAll('track')].map((element) => element.track);
  const showing = tracks.filter((track) => track.mode === 'showing');
  expect(showing.length).toBeLessThanOrEqual(1);
  for (const track of tracks) if (track.mode !== 'showing') expect(track.mode).toBe('disabled');
  return showing[0]?.language ?? null;
}

const ccButton = () => screen.getByRole('button', { name: 'Captions' });

beforeEach(() => {
  localStorage.clear();
  fake.instance.subtitleTrack = -1;
  fake.instance.subtitleDisplay = true;
  fake.instance.loadSource.mockClear();
  HTMLMediaElement.prototype.play = vi.fn(() => Promise.resolve());
  HTMLMediaElement.prototype.pause = vi.fn();
});

describe('VideoPlayer: captions on an MP4', () => {
  it('offers Off and each language, starts with none, and shows the language chosen (and only it)', async () => {
    const user = userEvent.setup();
    render(<VideoPlayer src="/a.mp4" label="Lecture 1" captions={captions} viewer="u1" />);
    const tracks = [...document.querySelectorAll('track')];
    expect(tracks.map((track) => [track.srclang, track.label, track.getAttribute('src')])).toEqual([
      ['en', 'English', '/media/captions/en.vtt?sig=1'],
      ['hi', 'हिन्दी', '/media/captions/hi.vtt?sig=1'],
    ]);
    expect(shownLanguage()).toBeNull();
    expect(ccButton()).toHaveAttribute('aria-pressed', 'false');

    await user.click(ccButton());
    expect(ccButton()).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('menu', { name: 'Captions' });
    const items = within(menu).getAllByRole('menuitemradio');
    expect(items.map((item) => [item.textContent, item.getAttribute('aria-checked')])).toEqual([
      ['Off', 'true'],
      ['English', 'false'],
      ['हिन्दी', 'false'],
    ]);
    await user.click(within(menu).getByRole('menuitemradio', { name: 'हिन्दी' }));
    expect(shownLanguage()).toBe('hi');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(ccButton()).toHaveAttribute('aria-pressed', 'true');

    await user.click(ccButton());
    expect(screen.getByRole('menuitemradio', { name: 'हिन्दी' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('menuitemradio', { name: 'Off' }));
    expect(shownLanguage()).toBeNull();
  });

  it('closes the menu with Escape, back on the button, choosing nothing', async () => {
    const user = userEvent.setup();
    render(<VideoPlayer src="/a.mp4" label="Lecture 1" captions={captions} viewer="u1" />);
    await user.click(ccButton());
    expect(screen.getByRole('menuitemradio', { name: 'Off' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitemradio', { name: 'English' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(ccButton()).toHaveFocus();
    expect(shownLanguage()).toBeNull();
  });

  it('remembers the choice per viewer: the same language next time, the default when that lecture lacks it, none for someone else', async () => {
    const user = userEvent.setup();
    const first = render(<VideoPlayer src="/a.mp4" label="Lecture 1" captions={captions} viewer="u1" />);
    await user.click(ccButton());
    await user.click(screen.getByRole('menuitemradio', { name: 'हिन्दी' }));
    first.unmount();

    const again = render(<VideoPlayer src="/b.mp4" label="Lecture 2" captions={captions} viewer="u1" />);
    expect(shownLanguage()).toBe('hi');
    again.unmount();

    // Another lecture without Hindi: its default, since this viewer watches with captions.
    const french = [captions[0]!, { language: 'fr', label: 'Français', isDefault: false, url: '/fr.vtt' }].map((caption, index) => ({
      ...caption,
      isDefault: index === 1,
    }));
    const other = render(<VideoPlayer src="/c.mp4" label="Lecture 3" captions={french} viewer="u1" />);
    expect(shownLanguage()).toBe('fr');
    other.unmount();

    render(<VideoPlayer src="/a.mp4" label="Lecture 1" captions={captions} viewer="u2" />);
    expect(shownLanguage()).toBeNull();
  });

  it('opens with the remembered language when the list arrives after the player', () => {
    localStorage.setItem('lms.captions.u1', 'hi');
    const { rerender } = render(<VideoPlayer src="/a.mp4" label="Lecture 1" viewer="u1" />);
    expect(screen.queryByRole('button', { name: 'Captions' })).not.toBeInTheDocument();
    rerender(<VideoPlayer src="/a.mp4" label="Lecture 1" captions={captions} viewer="u1" />);
    expect(shownLanguage()).toBe('hi');
  });

  it('toggles with C from the page or the player, back to the language chosen last, but not while typing', async () => {
    const user = userEvent.setup();
    render(
      <>
        <input aria-label="Notes" />
        <VideoPlayer src="/a.mp4" label="Lecture 1" captions={captions} viewer="u1" overlay={<input aria-label="Answer" />} />
      </>,
    );
    expect(screen.getByLabelText('Lecture 1')).toHaveAccessibleDescription(`${messages.videoShortcuts}, C captions`);
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(shownLanguage()).toBe('en');
    expect(localStorage.getItem('lms.captions.u1')).toBe('en');
    fireEvent.keyDown(screen.getByLabelText('Lecture 1'), { key: 'C' });
    expect(shownLanguage()).toBeNull();
    expect(localStorage.getItem('lms.captions.u1')).toBe('off');

    await user.click(ccButton());
    await user.click(screen.getByRole('menuitemradio', { name: 'हिन्दी' }));
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(shownLanguage()).toBeNull();
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(shownLanguage()).toBe('hi');

    await user.type(screen.getByRole('textbox', { name: 'Notes' }), 'cc');
    expect(screen.getByRole('textbox', { name: 'Notes' })).toHaveValue('cc');
    expect(shownLanguage()).toBe('hi');
    // A field drawn over the picture is inside the player, and still a field.
    await user.type(screen.getByRole('textbox', { name: 'Answer' }), 'c');
    expect(shownLanguage()).toBe('hi');
    // Ctrl+C copies; it is not the shortcut.
    fireEvent.keyDown(document.body, { key: 'c', ctrlKey: true });
    expect(shownLanguage()).toBe('hi');
  });

  it('has no captions control, and C does nothing, when the lecture has no captions', () => {
    render(<VideoPlayer src="/a.mp4" label="Lecture 1" viewer="u1" />);
    expect(screen.queryByRole('button', { name: 'Captions' })).not.toBeInTheDocument();
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(document.querySelectorAll('track')).toHaveLength(0);
    expect(localStorage.getItem('lms.captions.u1')).toBeNull();
  });

  it('tells the page which language is shown, for the transcript', async () => {
    const onCaptionChange = vi.fn();
    const user = userEvent.setup();
    render(<VideoPlayer src="/a.mp4" label="Lecture 1" captions={captions} viewer="u1" onCaptionChange={onCaptionChange} />);
    await user.click(ccButton());
    await user.click(screen.getByRole('menuitemradio', { name: 'English' }));
    expect(onCaptionChange).toHaveBeenLastCalledWith('en');
  });
});

describe('VideoPlayer: captions through hls.js', () => {
  it("shows the playlist's subtitle track of the chosen language, with no <track> of its own", async () => {
    const user = userEvent.setup();
    render(<VideoPlayer src="/a.mp4" hlsSrc="/media/hls/g/f/master.m3u8" label="Lecture 1" captions={captions} viewer="u1" />);
    await vi.waitFor(() => expect(fake.instance.loadSource).toHaveBeenCalled());
    const playlistTracks = [{ lang: 'en' }, { lang: 'hi' }];
    act(() => fake.emit('manifestParsed', { levels: [{ height: 360 }], subtitleTracks: playlistTracks }));
    act(() => fake.emit('subtitleTracksUpdated', { subtitleTracks: playlistTracks }));
    expect(document.querySelectorAll('track')).toHaveLength(0);
    expect(fake.instance.subtitleTrack).toBe(-1);
    expect(fake.instance.subtitleDisplay).toBe(false);

    await user.click(ccButton());
    await user.click(screen.getByRole('menuitemradio', { name: 'हिन्दी' }));
    expect(fake.instance.subtitleTrack).toBe(1);
    expect(fake.instance.subtitleDisplay).toBe(true);
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(fake.instance.subtitleTrack).toBe(-1);
    expect(fake.instance.subtitleDisplay).toBe(false);
  });

  it('falls back to <track>s when the playlist has no subtitles group', async () => {
    localStorage.setItem('lms.captions.u1', 'en');
    render(<VideoPlayer src="/a.mp4" hlsSrc="/media/hls/g/f/master.m3u8" label="Lecture 1" captions={captions} viewer="u1" />);
    await vi.waitFor(() => expect(fake.instance.loadSource).toHaveBeenCalled());
    act(() => fake.emit('manifestParsed', { levels: [{ height: 360 }], subtitleTracks: [] }));
    expect(shownLanguage()).toBe('en');
  });
});
