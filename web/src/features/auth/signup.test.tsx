import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { AVATAR_ACCEPT } from '@lms/contract/users';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import SignupPage from './SignupPage';

const user = sampleUser();
const picture = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'asha.png', { type: 'image/png' });
const valid = { fullName: 'Asha Verma', email: 'asha@example.com', password: 'secret1!' };

let urls = 0;
beforeEach(() => {
  urls = 0;
  URL.createObjectURL = vi.fn(() => `blob:preview-${++urls}`);
  URL.revokeObjectURL = vi.fn();
});

function renderSignup() {
  const view = renderPage(<SignupPage />, { path: '/Signup' });
  const fill = async (fields: Partial<typeof valid>, avatar: File | null) => {
    if (avatar) await view.user.upload(screen.getByLabelText('Profile picture'), avatar);
    if (fields.fullName) await view.user.type(screen.getByLabelText('Full name'), fields.fullName);
    if (fields.email) await view.user.type(screen.getByLabelText('Email'), fields.email);
    if (fields.password) await view.user.type(screen.getByLabelText('Password'), fields.password);
    await view.user.click(screen.getByRole('button', { name: 'Create account' }));
  };
  return { ...view, fill };
}

describe('signup page', () => {
  it('has a heading, labelled fields in spec order and a link to login', () => {
    renderSignup();
    expect(screen.getByRole('heading', { level: 1, name: 'Sign up' })).toBeInTheDocument();
    const fields = ['Profile picture', 'Full name', 'Email', 'Password'].map((label) => screen.getByLabelText(label));
    for (const [i, field] of fields.entries()) {
      if (i > 0) expect(fields[i - 1]!.compareDocumentPosition(field) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    }
    expect(fields[0]).toHaveAttribute('accept', AVATAR_ACCEPT);
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });

  const fillAll = (...missing: string[]) => messages.missingFields(messages.fillAllDetails, missing);
  it.each([
    // The spec's text, naming what is missing.
    ['without an avatar', fillAll('Profile picture'), valid, false],
    ['without a full name', fillAll('Full name'), { ...valid, fullName: '' }, true],
    ['without an email', fillAll('Email'), { ...valid, email: '' }, true],
    ['without a password', fillAll('Password'), { ...valid, password: '' }, true],
    ['with a blank full name', fillAll('Full name'), { ...valid, fullName: '    ' }, true],
    ['with nothing', fillAll('Profile picture', 'Full name', 'Email', 'Password'), {}, false],
    ['with a 4-letter name', messages.nameTooShort, { ...valid, fullName: 'Asha' }, true],
    ['with a bad email', messages.invalidEmailId, { ...valid, email: 'asha@example' }, true],
    ['with a password without a special character', messages.passwordRule, { ...valid, password: 'secret12' }, true],
    ['with a 5-character password', messages.passwordRule, { ...valid, password: 'ab1!x' }, true],
    // Spec order: presence of every field (the avatar too) first, then the name, the email, the password.
    ['without an avatar and a short name', fillAll('Profile picture'), { ...valid, fullName: 'Asha' }, false],
    ['with a short name and a bad email', messages.nameTooShort, { ...valid, fullName: 'Asha', email: 'nope' }, true],
    ['with a bad email and a bad password', messages.invalidEmailId, { ...valid, email: 'nope', password: 'short' }, true],
  ])('%s shows "%s" and sends nothing', async (_case, text, fields, withAvatar) => {
    const calls = stubApi({});
    const { fill } = renderSignup();
    await fill(fields, withAvatar ? picture() : null);
    expect(await findToast(text)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('marks the picture required and says its types and size limit before anything is sent', () => {
    renderSignup();
    const input = screen.getByLabelText('Profile picture');
    expect(input).toBeRequired();
    expect(screen.getByText(messages.required)).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription('jpg, jpeg, png or svg, up to 5 MB');
  });

  it('says the limit the server wrote into the page', () => {
    const meta = Object.assign(document.createElement('meta'), { name: 'lms-image-max-bytes', content: String(2 * 1024 * 1024) });
    document.head.append(meta);
    try {
      renderSignup();
      expect(screen.getByLabelText('Profile picture')).toHaveAccessibleDescription('jpg, jpeg, png or svg, up to 2 MB');
    } finally {
      meta.remove();
    }
  });

  it('refuses a picture over the limit when it is picked, and then asks for one on submit', async () => {
    const calls = stubApi({});
    const { user: events, fill } = renderSignup();
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await events.upload(screen.getByLabelText('Profile picture'), new File([big], 'huge.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.pickedFileRefused('huge.png', messages.imageTooLarge('5 MB', '5.1 MB')));
    await fill(valid, null);
    expect(await findToast(fillAll('Profile picture'))).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows a preview of the chosen picture, and lets go of the old one on change and on leaving', async () => {
    const { user: events, unmount } = renderSignup();
    expect(screen.queryByRole('img', { name: 'Your chosen profile picture' })).not.toBeInTheDocument();
    const input = screen.getByLabelText('Profile picture');
    await events.upload(input, picture());
    expect(await screen.findByRole('img', { name: 'Your chosen profile picture' })).toHaveAttribute('src', 'blob:preview-1');
    await events.upload(input, new File(['<svg/>'], 'other.svg', { type: 'image/svg+xml' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Your chosen profile picture' })).toHaveAttribute('src', 'blob:preview-2'));
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
    expect(URL.revokeObjectURL).not.toHaveBeenCalledWith('blob:preview-2');
    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview-2');
  });

  it('sends the multipart form and goes home logged in', async () => {
    const calls = stubApi({ 'POST /api/v1/user/register': { status: 201, body: { success: true, message: answers.accountCreated, user } } });
    const { fill, router, store } = renderSignup();
    const avatar = picture();
    await fill({ ...valid, email: 'Asha@Example.com' }, avatar);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/v1/user/register');
    expect(calls[0]!.init.method).toBe('POST');
    const body = calls[0]!.init.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect([...body.keys()]).toEqual(['fullName', 'email', 'password', 'avatar']);
    expect(body.get('fullName')).toBe('Asha Verma');
    expect(body.get('email')).toBe('asha@example.com');
    expect(body.get('password')).toBe('secret1!');
    expect((body.get('avatar') as File).name).toBe('asha.png');
    expect(store.getState().auth).toMatchObject({ isLoggedIn: true, data: user });
  });

  it("shows the server's message when the account is refused, and stays", async () => {
    stubApi({ 'POST /api/v1/user/register': { status: 409, body: { success: false, message: answers.emailTaken } } });
    const { fill, router } = renderSignup();
    await fill(valid, picture());
    expect(await findToast(answers.emailTaken)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/Signup');
    expect(screen.getByRole('button', { name: 'Create account' })).toBeEnabled();
  });

  it('shows "Failed to create account" when the server gives no message', async () => {
    stubApi({ 'POST /api/v1/user/register': { status: 500, body: {} } });
    const { fill } = renderSignup();
    await fill(valid, picture());
    expect(await findToast(messages.failedCreateAccount)).toBeInTheDocument();
  });
});

describe('signup page: where it leads (ours)', () => {
  it('names the browser tab', () => {
    renderSignup();
    expect(document.title).toBe('Sign up · LMS');
  });

  it('sends a user who is already signed in when it opens to /, in place of /Signup', async () => {
    storeLogin(user);
    const calls = stubApi({});
    const { router } = renderPage(<SignupPage />, { path: '/Signup' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(calls).toEqual([]);
  });

  it('goes to ?next= after signing up, says why it is there, and the login link carries it on', async () => {
    stubApi({ 'POST /api/v1/user/register': { status: 201, body: { success: true, message: answers.accountCreated, user } } });
    const { fill, router } = renderSignup();
    await act(() => router.navigate('/Signup?next=%2Fcheckout'));
    expect(screen.getByRole('note')).toHaveTextContent(messages.signupToSubscribe);
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login?next=%2Fcheckout');
    await fill(valid, picture());
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('ignores a ?next= off the site and goes home after signing up', async () => {
    stubApi({ 'POST /api/v1/user/register': { status: 201, body: { success: true, message: answers.accountCreated, user } } });
    const { fill, router } = renderSignup();
    await act(() => router.navigate(`/Signup?next=${encodeURIComponent('//evil.example/checkout')}`));
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    await fill(valid, picture());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
