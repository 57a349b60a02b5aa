import { messages } from '@lms/contract/messages';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { VideoPlayer } from './VideoPlayer';

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

  it('falls back to the MP4 when hls.js reports a fatal error', async () => {
    render(<VideoPlayer src="/a.mp4" hlsSrc="/media/hls/g/f/master.m3u8" label="Lecture 1" />);
    await vi.waitFor(() => expect(fake.instance.loadSource).toHaveBeenCalled());
    act(() => fake.emit('manifestParsed', { levels: [{ height: 360 }] }));
    act(() => fake.emit('error', { fatal: true }));
    expect(screen.getByLabelText('Lecture 1')).toHaveAttribute('src', '/a.mp4');
    expect(screen.queryByRole('combobox', { name: messages.videoQuality })).not.toBeInTheDocument();
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
