import type { Caption } from '@lms/contract/captions';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, renderPage, stubApi } from '../../test/render';
import { CaptionsManager } from './CaptionsManager';

const courseId = '00000000-0000-4000-8000-000000000001';
const lecture = {
  _id: '20000000-0000-4000-8000-000000000001',
  title: 'Ledgers',
  secure_url: '/media/private/videos/1.mp4?sig=x',
  hls_url: null,
  poster_url: null,
};
const captionsPath = `/api/v1/courses/${courseId}/lectures/${lecture._id}/captions`;
const english: Caption = {
  _id: '40000000-0000-4000-8000-000000000001',
  language: 'en',
  label: 'English',
  isDefault: true,
  cueCount: 3,
  version: 1,
  url: '/media/private/captions/1.vtt?viewer=v&expires=1&signature=s',
  updatedAt: '2026-11-27T10:00:00.000Z',
};
const FILE = `WEBVTT

1
00:00:01.000 --> 00:00:03.000
Welcome to ledgers

2
00:00:04.000 --> 00:00:06.500
Every entry has two sides

3
00:00:07.000 --> 00:00:09.000
Debit and credit
`;

/** The API stubbed, and the caption file served as text at its link (which the editor fetches itself). */
function serve(answers: Parameters<typeof stubApi>[0]) {
  const calls = stubApi({
    [`GET ${captionsPath}`]: { body: { success: true, message: 'Captions', captions: [english], maxBytes: 2 << 20, maxCaptions: 20 } },
    ...answers,
  });
  const api = globalThis.fetch;
  const fileFetches: RequestInit[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    if (url !== english.url) return api(url, init);
    fileFetches.push(init);
    return new Response(FILE, { headers: { 'content-type': 'text/vtt' } });
  }) as typeof fetch;
  return { calls, fileFetches };
}

async function openEditor() {
  const view = renderPage(<CaptionsManager courseId={courseId} lecture={lecture} />);
  await view.user.click(await screen.findByRole('button', { name: 'Edit the cues of English' }));
  const dialog = await screen.findByRole('dialog', { name: 'Edit cues: English (en)' });
  await within(dialog).findByRole('textbox', { name: 'Text of cue 1' });
  const video = within(dialog).getByLabelText('Preview: Ledgers') as HTMLVideoElement;
  return { ...view, dialog, video };
}

afterEach(() => toast.remove());

describe('the cue editor', () => {
  it('loads the file’s cues, shows edits over the video at their time, and seeks to a cue', async () => {
    const { fileFetches } = serve({});
    const { user, dialog, video } = await openEditor();
    expect(fileFetches).toEqual([expect.objectContaining({ credentials: 'same-origin' })]);
    expect(within(dialog).getAllByRole('listitem', { name: /^Cue \d$/ })).toHaveLength(3);
    expect(within(dialog).getByRole('textbox', { name: 'Start of cue 2' })).toHaveValue('00:04.000');
    expect(within(dialog).getByRole('textbox', { name: 'End of cue 2' })).toHaveValue('00:06.500');
    const text = within(dialog).getByRole('textbox', { name: 'Text of cue 2' });
    expect(text).toHaveValue('Every entry has two sides');

    await user.click(within(dialog).getByRole('button', { name: 'Play cue 2 from 00:04.000' }));
    expect(video.currentTime).toBe(4);
    act(() => void video.dispatchEvent(new Event('seeked')));
    expect(within(dialog).getByText('Every entry has two sides', { selector: 'span' })).toBeInTheDocument();
    expect(within(dialog).getByRole('listitem', { name: 'Cue 2' })).toHaveAttribute('aria-current', 'true');

    // The preview follows the words as they are typed, before any save (tags shown as the player shows them).
    await user.clear(text);
    await user.type(text, 'Each entry has <i>two</i> sides');
    expect(within(dialog).getByText('Each entry has two sides', { selector: 'span' })).toBeInTheDocument();
    expect(within(dialog).getByText('Unsaved changes')).toBeInTheDocument();

    // A time taken from the video.
    video.currentTime = 7.25;
    await user.click(within(dialog).getByRole('button', { name: 'Set the start of cue 3 to the video’s time' }));
    expect(within(dialog).getByRole('textbox', { name: 'Start of cue 3' })).toHaveValue('00:07.250');
  });

  it('names and focuses the first broken cue, and saves every cue as the server takes them', async () => {
    let sent: unknown;
    serve({
      [`PUT ${captionsPath}/${english._id}/cues`]: (init) => {
        sent = JSON.parse(init.body as string);
        return { body: { success: true, message: 'Captions saved', caption: { ...english, version: 2, cueCount: 4 } } };
      },
    });
    const { user, dialog } = await openEditor();
    const save = within(dialog).getByRole('button', { name: 'Save' });

    const start2 = within(dialog).getByRole('textbox', { name: 'Start of cue 2' });
    await user.clear(start2);
    await user.type(start2, 'soon');
    await user.click(save);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Cue 2: the start time should look like 01:02.500');
    expect(start2).toHaveFocus();
    expect(start2).toHaveAttribute('aria-invalid', 'true');

    await user.clear(start2);
    await user.type(start2, '00:08.000');
    await user.click(save);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Cue 2: the cue ends before it starts');
    expect(within(dialog).getByRole('textbox', { name: 'End of cue 2' })).toHaveFocus();
    expect(sent).toBeUndefined();

    // Seconds are taken as well as clock times.
    await user.clear(start2);
    await user.type(start2, '4.25');
    // A cue added after the first starts where it ends; its text is where the admin types next.
    await user.click(within(dialog).getByRole('button', { name: 'Add a cue after cue 1' }));
    const added = within(dialog).getByRole('textbox', { name: 'Text of cue 2' });
    expect(added).toHaveFocus();
    expect(within(dialog).getByRole('textbox', { name: 'Start of cue 2' })).toHaveValue('00:03.000');
    expect(within(dialog).getByRole('textbox', { name: 'End of cue 2' })).toHaveValue('00:05.000');
    await user.click(save);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Cue 2: the cue has no text');
    expect(added).toHaveFocus();
    await user.type(added, 'Both sides & more');

    await user.click(within(dialog).getByRole('button', { name: 'Delete cue 4' }));
    expect(within(dialog).getAllByRole('listitem', { name: /^Cue \d$/ })).toHaveLength(3);
    await user.click(within(dialog).getByRole('button', { name: 'Add a cue after cue 3' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Text of cue 4' }), 'The end');

    await user.click(save);
    expect(await findToast('Captions saved')).toBeInTheDocument();
    expect(sent).toEqual({
      cues: [
        { start: 1, end: 3, text: 'Welcome to ledgers' },
        { start: 3, end: 5, text: 'Both sides &amp; more' },
        { start: 4.25, end: 6.5, text: 'Every entry has two sides' },
        { start: 6.5, end: 8.5, text: 'The end' },
      ],
    });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Saved as version 2');
    // The manager behind the editor has the new version.
    expect(await screen.findByText(/4 cues · version 2/)).toBeInTheDocument();
  });

  it('asks before discarding unsaved edits, and closes at once without them', async () => {
    serve({});
    const { user, dialog } = await openEditor();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Edit the cues of English' }));
    const again = await screen.findByRole('dialog', { name: 'Edit cues: English (en)' });
    await user.type(await within(again).findByRole('textbox', { name: 'Text of cue 1' }), '!');
    window.confirm = vi.fn(() => false);
    fireEvent(again, new Event('cancel', { cancelable: true }));
    expect(window.confirm).toHaveBeenCalledWith('Discard your changes to these cues?');
    expect(again).toBeInTheDocument();
    window.confirm = vi.fn(() => true);
    await user.click(within(again).getByRole('button', { name: 'Close the cue editor' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('finds cues by their words and pages through a long file', async () => {
    const many = Array.from(
      { length: 250 },
      (_, n) =>
        `${n + 1}\n00:${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.000 --> 00:${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}.900\nLine ${n + 1}${n === 180 ? ' ledger' : ''}\n`,
    );
    stubApi({ [`GET ${captionsPath}`]: { body: { success: true, message: 'Captions', captions: [english], maxBytes: 2 << 20, maxCaptions: 20 } } });
    const api = globalThis.fetch;
    globalThis.fetch = (async (url: string, init?: RequestInit) =>
      url === english.url ? new Response(`WEBVTT\n\n${many.join('\n')}`) : api(url, init)) as typeof fetch;
    const { user, dialog } = await openEditor();
    expect(within(dialog).getAllByRole('listitem', { name: /^Cue \d+$/ })).toHaveLength(100);
    expect(within(dialog).getByText('1–100 of 250')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Next cues' }));
    await user.click(within(dialog).getByRole('button', { name: 'Next cues' }));
    expect(within(dialog).getByText('201–250 of 250')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Text of cue 250' })).toHaveValue('Line 250');

    await user.type(within(dialog).getByRole('searchbox', { name: 'Find in cues' }), 'ledger');
    expect(within(dialog).getAllByRole('listitem', { name: /^Cue \d+$/ })).toHaveLength(1);
    expect(within(dialog).getByRole('textbox', { name: 'Text of cue 181' })).toHaveValue('Line 181 ledger');
  });
});
