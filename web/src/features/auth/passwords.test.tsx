import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import ChangePasswordPage from './ChangePasswordPage';
import ForgotPasswordPage from './ForgotPasswordPage';
import ResetPasswordPage from './ResetPasswordPage';

const token = 'k3Yq9_Zr-4VnT8xWb2LmP7sD';

// Each page sets its own tab title: none is left from the page before.
beforeEach(() => {
  document.title = '';
});

describe('forgot password page', () => {
  function renderForgot() {
    const view = renderPage(<ForgotPasswordPage />, { path: '/forgot-password' });
    const send = async (email: string) => {
      if (email) await view.user.type(screen.getByLabelText('Email'), email);
      await view.user.click(screen.getByRole('button', { name: 'Send reset link' }));
    };
    return { ...view, send };
  }

  it('has a heading, a labelled email field and a way back to login', () => {
    renderForgot();
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeInTheDocument();
    expect(document.title).toBe('Forgot password · LMS');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });

  it.each([
    ['no email', messages.fillAllDetails, ''],
    ['a bad email', messages.invalidEmailId, 'asha@'],
  ])('with %s shows "%s" and sends nothing', async (_case, text, email) => {
    const calls = stubApi({});
    const { send } = renderForgot();
    await send(email);
    expect(await findToast(text)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("asks for a link and shows the server's neutral answer on the page", async () => {
    const calls = stubApi({ 'POST /api/v1/user/reset': { body: { success: true, message: answers.resetMailSent } } });
    const { send } = renderForgot();
    await send('asha@example.com');
    const page = screen.getByRole('region', { name: 'Forgot password' });
    expect(await within(page).findByText(answers.resetMailSent)).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/v1/user/reset');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ email: 'asha@example.com' });
  });

  it("shows the server's message when the request is refused", async () => {
    stubApi({ 'POST /api/v1/user/reset': { status: 429, body: { success: false, message: answers.tooManyRequests } } });
    const { send } = renderForgot();
    await send('asha@example.com');
    expect(await findToast(answers.tooManyRequests)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Forgot password' })).queryByText(answers.resetMailSent)).not.toBeInTheDocument();
  });

  it('shows "Operation failed" when the server gives no message', async () => {
    stubApi({ 'POST /api/v1/user/reset': { status: 500, body: {} } });
    const { send } = renderForgot();
    await send('asha@example.com');
    expect(await findToast(messages.operationFailed)).toBeInTheDocument();
  });
});

describe('reset password page', () => {
  async function renderReset(withToken = token) {
    const view = renderPage(<ResetPasswordPage />, { path: '/reset-password/:token' });
    await act(() => view.router.navigate(`/reset-password/${withToken}`));
    const reset = async (password: string, confirm: string) => {
      if (password) await view.user.type(screen.getByLabelText('New password'), password);
      if (confirm) await view.user.type(screen.getByLabelText('Confirm new password'), confirm);
      await view.user.click(screen.getByRole('button', { name: 'Reset password' }));
    };
    return { ...view, reset };
  }

  it('has a heading and two labelled password fields', async () => {
    await renderReset();
    expect(screen.getByRole('heading', { level: 1, name: 'Reset password' })).toBeInTheDocument();
    expect(document.title).toBe('Reset password · LMS');
    expect(screen.getByLabelText('New password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('type', 'password');
  });

  it('says at once that a malformed link is invalid, with a way to ask for a new one', async () => {
    await renderReset('short');
    expect(screen.getByRole('alert')).toHaveTextContent(messages.resetLinkInvalid);
    expect(document.title).toBe('Reset password · LMS');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it.each([
    ['nothing', messages.fillAllDetails, '', ''],
    ['no confirmation', messages.fillAllDetails, 'secret1!', ''],
    ['only the confirmation', messages.fillAllDetails, '', 'secret1!'],
    ['a password without a number', messages.passwordRule, 'secret!!', 'secret!!'],
    ['a 17-character password', messages.passwordRule, 'abcdefghijklmn1!x', 'abcdefghijklmn1!x'],
    ['a confirmation that differs', messages.passwordsDoNotMatch, 'secret1!', 'secret2!'],
  ])('with %s shows "%s" and sends nothing', async (_case, text, password, confirm) => {
    const calls = stubApi({});
    const { reset } = await renderReset();
    await reset(password, confirm);
    expect(await findToast(text)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sets the new password with the link and goes to login', async () => {
    const calls = stubApi({ [`POST /api/v1/user/reset/${token}`]: { body: { success: true, message: answers.passwordReset } } });
    const { reset, router } = await renderReset();
    await reset('newpass1!', 'newpass1!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ password: 'newpass1!' });
    expect(await findToast(answers.passwordReset)).toBeInTheDocument();
  });

  it("shows the server's message when the link has expired, and stays", async () => {
    stubApi({ [`POST /api/v1/user/reset/${token}`]: { status: 400, body: { success: false, message: messages.resetLinkInvalid } } });
    const { reset, router } = await renderReset();
    await reset('newpass1!', 'newpass1!');
    expect(await findToast(messages.resetLinkInvalid)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/reset-password/${token}`);
  });

  it('shows "Operation failed" when the server gives no message', async () => {
    stubApi({ [`POST /api/v1/user/reset/${token}`]: { status: 500, body: {} } });
    const { reset } = await renderReset();
    await reset('newpass1!', 'newpass1!');
    expect(await findToast(messages.operationFailed)).toBeInTheDocument();
  });
});

describe('change password page', () => {
  const user = sampleUser();

  function renderChange() {
    storeLogin(user);
    const view = renderPage(<ChangePasswordPage />, { path: '/changepassword' });
    const change = async (oldPassword: string, newPassword: string) => {
      if (oldPassword) await view.user.type(screen.getByLabelText('Old password'), oldPassword);
      if (newPassword) await view.user.type(screen.getByLabelText('New password'), newPassword);
      await view.user.click(screen.getByRole('button', { name: 'Change password' }));
    };
    return { ...view, change };
  }

  it('has a heading, two labelled password fields and a way back to the profile', () => {
    renderChange();
    expect(screen.getByRole('heading', { level: 1, name: 'Change password' })).toBeInTheDocument();
    expect(document.title).toBe('Change password · LMS');
    expect(screen.getByLabelText('Old password')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('New password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Back to profile' })).toHaveAttribute('href', '/user/profile');
  });

  it.each([
    ['nothing', messages.fillAllDetails, '', ''],
    ['no new password', messages.fillAllDetails, 'oldpass1!', ''],
    ['no old password', messages.fillAllDetails, '', 'newpass1!'],
    ['a new password without a special character', messages.passwordRule, 'oldpass1!', 'newpass12'],
  ])('with %s shows "%s" and sends nothing', async (_case, text, oldPassword, newPassword) => {
    const calls = stubApi({});
    const { change } = renderChange();
    await change(oldPassword, newPassword);
    expect(await findToast(text)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('changes the password and goes to the profile', async () => {
    const calls = stubApi({ 'POST /api/v1/user/change-password': { body: { success: true, message: answers.passwordChanged } } });
    const { change, router } = renderChange();
    await change('oldpass1!', 'newpass1!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/v1/user/change-password');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ oldPassword: 'oldpass1!', newPassword: 'newpass1!' });
    expect(await findToast(answers.passwordChanged)).toBeInTheDocument();
  });

  it("shows the server's message when the old password is wrong, and stays", async () => {
    stubApi({ 'POST /api/v1/user/change-password': { status: 400, body: { success: false, message: answers.oldPasswordWrong } } });
    const { change, router } = renderChange();
    await change('wrongpass1!', 'newpass1!');
    expect(await findToast(answers.oldPasswordWrong)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/changepassword');
    expect(screen.getByRole('button', { name: 'Change password' })).toBeEnabled();
  });

  it('shows "Operation failed" when the server gives no message', async () => {
    stubApi({ 'POST /api/v1/user/change-password': { status: 500, body: {} } });
    const { change } = renderChange();
    await change('oldpass1!', 'newpass1!');
    expect(await findToast(messages.operationFailed)).toBeInTheDocument();
  });
});
