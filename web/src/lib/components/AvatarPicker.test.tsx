import { messages } from '@lms/contract/messages';
import { AVATAR_ACCEPT } from '@lms/contract/users';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarPicker } from './AvatarPicker';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const MB = 1024 * 1024;
/** A png of `bytes` bytes: its signature, then zeros. */
const pngOf = (name: string, bytes: number) => {
  const content = new Uint8Array(bytes);
  content.set(PNG);
  return new File([content], name, { type: 'image/png' });
};

function Picker({ onChange, required }: { onChange: (file: File | null) => void; required?: boolean }) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <AvatarPicker
      label="Profile picture"
      file={file}
      accept={AVATAR_ACCEPT}
      maxBytes={5 * MB}
      required={required}
      previewAlt="Your chosen profile picture"
      hint="jpg, jpeg, png or svg"
      onChange={(next) => {
        onChange(next);
        setFile(next);
      }}
    />
  );
}

describe('AvatarPicker', () => {
  let urls = 0;
  beforeEach(() => {
    urls = 0;
    URL.createObjectURL = vi.fn(() => `blob:avatar-${++urls}`);
    URL.revokeObjectURL = vi.fn();
  });

  it('refuses a file that is not a picture at once, under the input, and keeps the picture chosen before', async () => {
    const onChange = vi.fn();
    render(<Picker onChange={onChange} />);
    // The file dialog set to show all files.
    const user = userEvent.setup({ applyAccept: false });
    const input = screen.getByLabelText('Profile picture');

    await user.upload(input, new File([new Uint8Array(PNG)], 'me.png', { type: 'image/png' }));
    expect(await screen.findByRole('img', { name: 'Your chosen profile picture' })).toHaveAttribute('src', 'blob:avatar-1');
    expect(onChange).toHaveBeenCalledTimes(1);

    for (const refused of [
      new File(['%PDF-1.7'], 'cv.pdf', { type: 'application/pdf' }),
      // Typed and named as a picture, but its bytes are a zip archive's.
      new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04])], 'holiday.png', { type: 'image/png' }),
    ]) {
      await user.upload(input, refused);
      const refusal = await screen.findByRole('alert');
      expect(refusal).toHaveTextContent(messages.pickedFileRefused(refused.name, messages.avatarType));
      expect(input).toHaveAccessibleDescription(`${messages.pickedFileRefused(refused.name, messages.avatarType)} jpg, jpeg, png or svg`);
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(onChange).toHaveBeenCalledTimes(1);
      expect(screen.getByRole('img', { name: 'Your chosen profile picture' })).toHaveAttribute('src', 'blob:avatar-1');
    }

    // An SVG is a picture too; choosing one clears the refusal.
    await user.upload(input, new File(['<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'], 'me.svg', { type: 'image/svg+xml' }));
    await vi.waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(onChange).toHaveBeenCalledTimes(2);
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('refuses a picture larger than the limit when it is picked, saying both sizes, and keeps the one chosen before', async () => {
    const onChange = vi.fn();
    render(<Picker onChange={onChange} />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('Profile picture');

    await user.upload(input, pngOf('small.png', 5 * MB));
    expect(await screen.findByRole('img', { name: 'Your chosen profile picture' })).toHaveAttribute('src', 'blob:avatar-1');

    await user.upload(input, pngOf('holiday.png', 7.25 * MB));
    const said = messages.pickedFileRefused('holiday.png', messages.imageTooLarge('5 MB', '7.3 MB'));
    expect(await screen.findByRole('alert')).toHaveTextContent(said);
    expect(input).toHaveAccessibleDescription(`${said} jpg, jpeg, png or svg`);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('img', { name: 'Your chosen profile picture' })).toHaveAttribute('src', 'blob:avatar-1');
  });

  it('says when a picture is required, beside the label and to assistive technology, and not otherwise', () => {
    const { unmount } = render(<Picker onChange={vi.fn()} required />);
    expect(screen.getByLabelText('Profile picture')).toBeRequired();
    expect(screen.getByText(messages.required)).toBeVisible();
    unmount();
    render(<Picker onChange={vi.fn()} />);
    expect(screen.getByLabelText('Profile picture')).not.toBeRequired();
    expect(screen.queryByText(messages.required)).not.toBeInTheDocument();
  });
});
