import type { Caption } from '@lms/contract/captions';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeUpload } from '../../test/fake-upload';
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
const MAX_BYTES = 2 * 1024 * 1024;
const caption = (n: number, overrides: Partial<Caption> = {}): Caption => ({
  _id: `40000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`,
  language: 'en',
  label: 'English',
  isDefault: false,
  cueCount: 12,
  version: 1,
  url: `/media/private/captions/${n}.vtt?viewer=v&expires=1&signature=s`,
  updatedAt: '2026-11-27T10:00:00.000Z',
  ...overrides,
});
const listAnswer = (captions: Caption[]) => ({ body: { success: true, message: 'Captions', captions, maxBytes: MAX_BYTES, maxCaptions: 20 } });
const vttFile = (name = 'english.vtt', bytes = 64) => new File([new Uint8Array(bytes)], name, { type: 'text/vtt' });

function openManager() {
  return renderPage(<CaptionsManager courseId={courseId} lecture={lecture} />);
}

beforeEach(() => FakeUpload.install());
afterEach(() => toast.remove());

describe('adding captions', () => {
  it('explains captions when there are none, uploads a file with its progress, and lists it once added', async () => {
    stubApi({ [`GET ${captionsPath}`]: listAnswer([]) });
    const { user } = openManager();
    expect(await screen.findByText(/No captions yet\. Captions let viewers who are deaf or hard of hearing follow the lecture/)).toBeInTheDocument();
    expect(screen.getByText('WebVTT or SRT, up to 2 MB each · 0 of 20 languages')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add captions' }));
    const form = screen.getByRole('form', { name: 'Add captions' });
    expect(within(form).getByLabelText('Captions file')).toHaveFocus();
    expect(within(form).getByLabelText('Language')).toHaveValue('en');
    expect(within(form).getByLabelText('Label')).toHaveValue('English');
    // A lecture's first captions are its default, whatever the box says.
    expect(within(form).getByRole('checkbox', { name: 'Make these the default captions' })).toBeChecked();

    await user.selectOptions(within(form).getByLabelText('Language'), 'hi');
    expect(within(form).getByLabelText('Label')).toHaveValue('हिन्दी');
    await user.upload(within(form).getByLabelText('Captions file'), vttFile('hindi.vtt'));
    await user.click(within(form).getByRole('button', { name: 'Upload' }));

    const upload = FakeUpload.last!;
    expect(upload.method).toBe('POST');
    expect(upload.url).toBe(captionsPath);
    expect(upload.body!.get('language')).toBe('hi');
    expect(upload.body!.get('label')).toBe('हिन्दी');
    expect(upload.body!.get('default')).toBe('true');
    expect((upload.body!.get('captions') as File).name).toBe('hindi.vtt');
    act(() => upload.progress(0.42));
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('value', '42');
    expect(screen.getByText('Uploading hindi.vtt… 42%')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Upload' })).toBeDisabled();

    const added = caption(1, { language: 'hi', label: 'हिन्दी', isDefault: true, cueCount: 240 });
    act(() => upload.answer(201, { success: true, message: 'Captions added', caption: added }));
    expect(await findToast('Captions added')).toBeInTheDocument();
    const row = (await screen.findByText('हिन्दी', { selector: 'span' })).closest('li')!;
    expect(within(row).getByText('hi')).toBeInTheDocument();
    expect(within(row).getByText('Default')).toBeInTheDocument();
    expect(within(row).getByText('240 cues · version 1 · updated 27 Nov 2026')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Add captions' })).not.toBeInTheDocument();
    expect(screen.getByText('WebVTT or SRT, up to 2 MB each · 1 of 20 languages')).toBeInTheDocument();
  });

  it('checks the file and the language before uploading, and shows the server’s refusal naming the line', async () => {
    stubApi({ [`GET ${captionsPath}`]: listAnswer([caption(1, { isDefault: true })]) });
    const { user } = openManager();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add captions' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Add captions' }));
    const form = screen.getByRole('form', { name: 'Add captions' });
    const fileInput = within(form).getByLabelText('Captions file');
    // English is taken: the list starts at the next language, and offers English no more.
    expect(within(form).getByLabelText('Language')).toHaveValue('hi');
    expect(within(form).getByRole('option', { name: 'English (en)' })).toBeDisabled();
    expect(within(form).getByRole('checkbox', { name: 'Make these the default captions' })).not.toBeChecked();

    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Choose a WebVTT (.vtt) or SRT (.srt) file');

    fireEvent.change(fileInput, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('"notes.txt" is not a WebVTT (.vtt) or SRT (.srt) file');

    const big = vttFile('long.srt');
    Object.defineProperty(big, 'size', { value: MAX_BYTES + 1 });
    fireEvent.change(fileInput, { target: { files: [big] } });
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Caption files may be up to 2 MB, and this one is 2.1 MB');

    fireEvent.change(fileInput, { target: { files: [vttFile('english.srt')] } });
    await user.selectOptions(within(form).getByLabelText('Language'), 'other');
    await user.type(within(form).getByLabelText('Language tag'), 'EN');
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('This lecture already has English captions: replace their file instead');
    expect(FakeUpload.last).toBeUndefined();

    await user.clear(within(form).getByLabelText('Language tag'));
    await user.type(within(form).getByLabelText('Language tag'), 'pt-br');
    expect(within(form).getByLabelText('Label')).toHaveValue('Português (Brasil)');
    await user.click(within(form).getByRole('button', { name: 'Upload' }));
    expect(FakeUpload.last!.body!.get('language')).toBe('pt-BR');
    expect(FakeUpload.last!.body!.get('default')).toBe('false');
    act(() => FakeUpload.last!.answer(400, { success: false, message: 'Line 7: the cue ends before it starts' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Line 7: the cue ends before it starts');
    // Shown under the form, not as a toast; nothing listed.
    expect(screen.queryByText('Line 7: the cue ends before it starts', { selector: '[role="status"]' })).not.toBeInTheDocument();
    expect(screen.queryByText('Português (Brasil)', { selector: 'span' })).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});

describe('managing a lecture’s captions', () => {
  const english = caption(1, { isDefault: true });
  const hindi = caption(2, { language: 'hi', label: 'हिन्दी', cueCount: 1, version: 3 });

  it('makes another language the default, renames one in place, and deletes one once the admin confirms', async () => {
    let listed = [english, hindi];
    const calls = stubApi({
      [`GET ${captionsPath}`]: () => listAnswer(listed),
      [`PATCH ${captionsPath}/${hindi._id}`]: (init) => {
        expect(JSON.parse(init.body as string)).toEqual({ isDefault: true });
        listed = [
          { ...hindi, isDefault: true },
          { ...english, isDefault: false },
        ];
        return { body: { success: true, message: 'Captions saved', caption: listed[0]! } };
      },
      [`PATCH ${captionsPath}/${english._id}`]: (init) => {
        expect(JSON.parse(init.body as string)).toEqual({ label: 'English (India)' });
        listed = [listed[0]!, { ...listed[1]!, label: 'English (India)', version: 1 }];
        return { body: { success: true, message: 'Captions saved', caption: listed[1]! } };
      },
      [`DELETE ${captionsPath}/${hindi._id}`]: () => {
        listed = [{ ...listed[1]!, isDefault: true }];
        return { body: { success: true, message: 'Captions removed' } };
      },
    });
    const { user } = openManager();
    const items = () => screen.queryAllByRole('listitem').map((item) => item.textContent);
    await waitFor(() =>
      expect(items()).toEqual([expect.stringMatching(/^English.*en.*Default.*12 cues · version 1/), expect.stringMatching(/^हिन्दी.*hi.*1 cue · version 3/)]),
    );
    expect(screen.queryByRole('button', { name: 'Make English the default captions' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Make हिन्दी the default captions' }));
    expect(await findToast('Captions saved')).toBeInTheDocument();
    await waitFor(() => expect(items()[0]).toMatch(/^हिन्दी.*Default/));
    expect(items()[1]).not.toMatch(/Default/);

    await user.click(screen.getByRole('button', { name: 'Rename English' }));
    const field = screen.getByRole('textbox', { name: 'New label for English' });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, 'English (India){Enter}');
    expect(await screen.findByText('English (India)', { selector: 'span' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'New label for English' })).not.toBeInTheDocument();
    // Focus goes back to the button once the field has gone (a turn after the list shows the new label).
    await waitFor(() => expect(screen.getByRole('button', { name: 'Rename English (India)' })).toHaveFocus());

    window.confirm = vi.fn(() => false);
    await user.click(screen.getByRole('button', { name: 'Delete हिन्दी' }));
    expect(window.confirm).toHaveBeenCalledWith(
      'Delete the हिन्दी (hi) captions from this lecture? Viewers lose them in the player, the transcript and search.',
    );
    expect(calls.some((call) => call.init.method === 'DELETE')).toBe(false);

    window.confirm = vi.fn(() => true);
    await user.click(screen.getByRole('button', { name: 'Delete हिन्दी' }));
    expect(await findToast('Captions removed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('हिन्दी', { selector: 'span' })).not.toBeInTheDocument());
    // The list is read again: the server made the language left the default.
    await waitFor(() => expect(items()).toEqual([expect.stringMatching(/^English \(India\).*Default/)]));
    expect(screen.getByRole('heading', { name: 'Captions' })).toHaveFocus();
  });

  it('replaces a language’s file with its progress, and shows the new version', async () => {
    stubApi({ [`GET ${captionsPath}`]: listAnswer([english]) });
    const { user } = openManager();
    const input = await screen.findByLabelText('Replace the file of English', { selector: 'input' });
    await user.upload(input, vttFile('english-v2.vtt'));
    const upload = FakeUpload.last!;
    expect(upload.method).toBe('PUT');
    expect(upload.url).toBe(`${captionsPath}/${english._id}`);
    expect((upload.body!.get('captions') as File).name).toBe('english-v2.vtt');
    act(() => upload.progress(0.5));
    expect(screen.getByText('Uploading english-v2.vtt… 50%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit the cues of English' })).toBeDisabled();
    act(() => upload.answer(200, { success: true, message: 'Captions replaced', caption: { ...english, version: 2, cueCount: 14 } }));
    expect(await findToast('Captions replaced')).toBeInTheDocument();
    expect(await screen.findByText(/14 cues · version 2/)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });
});
