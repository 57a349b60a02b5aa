import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Transcript } from './Transcript';

const english = [
  'WEBVTT',
  '',
  '00:00:01.000 --> 00:00:04.000',
  'Welcome to <b>Rust</b>.',
  '',
  '00:00:05.000 --> 00:00:09.500',
  'Ownership &amp; borrowing.',
  '',
  '00:01:02.000 --> 00:01:06.000',
  'Lifetimes next.',
  '',
].join('\n');
const hindi = ['WEBVTT', '', '00:00:01.000 --> 00:00:04.000', 'रस्ट में स्वागत है।', ''].join('\n');
const captions = [
  { language: 'en', label: 'English', isDefault: true, url: '/media/captions/en.vtt?sig=1' },
  { language: 'hi', label: 'हिन्दी', isDefault: false, url: '/media/captions/hi.vtt?sig=1' },
];

let requests: { url: string; credentials: RequestCredentials | undefined }[] = [];
beforeEach(() => {
  requests = [];
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    requests.push({ url, credentials: init.credentials });
    return new Response(url.includes('/hi.vtt') ? hindi : english, { headers: { 'content-type': 'text/vtt' } });
  }) as typeof fetch;
});
afterEach(() => vi.useRealTimers());

function videoAt(seconds: number) {
  const video = document.createElement('video');
  video.currentTime = seconds;
  return video;
}
function playTo(video: HTMLVideoElement, seconds: number) {
  video.currentTime = seconds;
  act(() => void video.dispatchEvent(new Event('timeupdate')));
}
const lines = () => within(screen.getByRole('region', { name: 'Transcript' })).getAllByRole('button', { name: /^\d+:\d\d / });

describe('Transcript', () => {
  it("lists the lines with their times, as plain text, from the caption's link", async () => {
    render(<Transcript captions={captions} shown={null} video={videoAt(0)} />);
    await screen.findByText('Welcome to Rust.');
    expect(lines().map((line) => line.textContent)).toEqual(['0:01Welcome to Rust.', '0:05Ownership & borrowing.', '1:02Lifetimes next.']);
    expect(requests).toEqual([{ url: '/media/captions/en.vtt?sig=1', credentials: 'same-origin' }]);
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(3);
  });

  it('highlights the line being spoken as the video plays, and none between lines', async () => {
    const video = videoAt(0);
    render(<Transcript captions={captions} shown={null} video={video} />);
    await screen.findByText('Welcome to Rust.');
    expect(lines().filter((line) => line.hasAttribute('aria-current'))).toHaveLength(0);
    playTo(video, 6);
    expect(screen.getByRole('button', { name: /Ownership/ })).toHaveAttribute('aria-current', 'true');
    expect(lines().filter((line) => line.hasAttribute('aria-current'))).toHaveLength(1);
    playTo(video, 30);
    expect(lines().filter((line) => line.hasAttribute('aria-current'))).toHaveLength(0);
  });

  it('seeks the video to a line clicked (just inside it), and the line is then the current one', async () => {
    const user = userEvent.setup();
    const video = videoAt(0);
    render(<Transcript captions={captions} shown={null} video={video} />);
    await user.click(await screen.findByRole('button', { name: /Lifetimes next/ }));
    expect(video.currentTime).toBe(62.25);
    expect(screen.getByRole('button', { name: /Lifetimes next/ })).toHaveAttribute('aria-current', 'true');
  });

  it('is one tab stop; the arrows move between the lines', async () => {
    const user = userEvent.setup();
    render(<Transcript captions={[captions[0]!]} shown={null} video={videoAt(0)} />);
    await screen.findByText('Welcome to Rust.');
    // First the phone's fold button, then the lines, once.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Hide the transcript' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: /Welcome/ })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: /Ownership/ })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('button', { name: /Lifetimes/ })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Hide the transcript' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: /Lifetimes/ })).toHaveFocus();
  });

  it('keeps the current line in view, stops following when the learner scrolls, and follows again on request or after a pause', async () => {
    // Laid out as a browser would: each line 40 px below the one before.
    const offsetTop = vi.spyOn(HTMLElement.prototype, 'offsetTop', 'get').mockImplementation(function (this: HTMLElement) {
      return Number(this.dataset.line ?? 0) * 40;
    });
    const clientHeight = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(60);
    try {
      const video = videoAt(0);
      render(<Transcript captions={captions} shown={null} video={video} />);
      await screen.findByText('Welcome to Rust.');
      const list = screen.getByRole('list');
      playTo(video, 63);
      expect(list.scrollTop).toBe(80 - 20);

      // The learner scrolls up to read: the list stays where they put it.
      fireEvent.wheel(list);
      list.scrollTop = 0;
      fireEvent.scroll(list);
      playTo(video, 2);
      playTo(video, 6);
      expect(list.scrollTop).toBe(0);
      const back = screen.getByRole('button', { name: 'Back to current' });
      await userEvent.click(back);
      expect(list.scrollTop).toBe(40 - 20);
      expect(screen.queryByRole('button', { name: 'Back to current' })).not.toBeInTheDocument();

      // And by itself, a few seconds after the learner's last scroll.
      vi.useFakeTimers();
      fireEvent.wheel(list);
      list.scrollTop = 0;
      fireEvent.scroll(list);
      expect(screen.getByRole('button', { name: 'Back to current' })).toBeInTheDocument();
      act(() => void vi.advanceTimersByTime(7000));
      playTo(video, 63);
      expect(list.scrollTop).toBe(60);
    } finally {
      offsetTop.mockRestore();
      clientHeight.mockRestore();
    }
  });

  it("follows the player's captions language, and has its own choice when there are several", async () => {
    const user = userEvent.setup();
    const video = videoAt(0);
    const { rerender } = render(<Transcript captions={captions} shown={null} video={video} />);
    await screen.findByText('Welcome to Rust.');
    rerender(<Transcript captions={captions} shown="hi" video={video} />);
    expect(await screen.findByText('रस्ट में स्वागत है।')).toBeInTheDocument();
    const select = screen.getByRole('combobox', { name: 'Transcript language' });
    expect(select).toHaveValue('hi');
    await user.selectOptions(select, 'English');
    expect(await screen.findByText('Welcome to Rust.')).toBeInTheDocument();
  });

  it('says so when the file cannot be read', async () => {
    globalThis.fetch = (async () => new Response('nope', { status: 403 })) as typeof fetch;
    render(<Transcript captions={[captions[0]!]} shown={null} video={videoAt(0)} />);
    expect(await screen.findByText('The transcript could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });
});
