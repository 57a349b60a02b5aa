import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { findToast, renderPage, sampleUser, stubApi } from '../../test/render';
import SignInLinkPage from './SignInLinkPage';

const token = 'k3Yq9_Zr-4VnT8xWb2LmP7sDq1Xz0Ab9Cd8Ef7Gh6Ij';
const user = sampleUser();

beforeEach(() => {
  document.title = '';
});

async function renderSignIn(withToken = token) {
  const view = renderPage(<SignInLinkPage />, { path: '/sign-in/:token' });
  await act(() => view.router.navigate(`/sign-in/${withToken}`));
  const press = () => view.user.click(screen.getByRole('button', { name: messages.signInLinkSubmit }));
  return { ...view, press };
}

describe('sign-in link page (ours)', () => {
  it('says what the link does and signs in only when asked: opening it sends nothing', async () => {
    const calls = stubApi({});
    await renderSignIn();
    expect(screen.getByRole('heading', { level: 1, name: messages.signInLinkTitle })).toBeInTheDocument();
    expect(document.title).toBe(`${messages.signInLinkTitle} · LMS`);
    expect(screen.getByText(messages.signInLinkIntro)).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('signs in with the link and goes home, signed in', async () => {
    const calls = stubApi({ [`POST /api/v1/user/sign-in/${token}`]: { body: { success: true, message: answers.loggedIn, user } } });
    const { press, router, store } = await renderSignIn();
    await press();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls).toHaveLength(1);
    expect(store.getState().auth).toMatchObject({ isLoggedIn: true, data: user });
    expect(await findToast(answers.loggedIn)).toBeInTheDocument();
  });

  it('takes an administrator who must choose a password to the change-password page', async () => {
    stubApi({ [`POST /api/v1/user/sign-in/${token}`]: { body: { success: true, message: answers.loggedIn, user: { ...user, mustChangePassword: true } } } });
    const { press, router } = await renderSignIn();
    await press();
    await waitFor(() => expect(router.state.location.pathname).toBe('/changepassword'));
  });

  it('says a used or expired link is so, with the way to login, and offers no button', async () => {
    stubApi({ [`POST /api/v1/user/sign-in/${token}`]: { status: 400, body: { success: false, message: messages.signInLinkInvalid } } });
    const { press, store } = await renderSignIn();
    await press();
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.signInLinkInvalid);
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: messages.signInLinkSubmit })).not.toBeInTheDocument();
    expect(store.getState().auth.isLoggedIn).toBe(false);
  });

  it('keeps the button after a refusal that may pass (too many tries)', async () => {
    stubApi({ [`POST /api/v1/user/sign-in/${token}`]: { status: 429, body: { success: false, message: answers.tooManyRequests } } });
    const { press } = await renderSignIn();
    await press();
    expect(await screen.findByRole('alert')).toHaveTextContent(answers.tooManyRequests);
    expect(screen.getByRole('button', { name: messages.signInLinkSubmit })).toBeEnabled();
  });

  it('answers a malformed link at once', async () => {
    const calls = stubApi({});
    await renderSignIn('short');
    expect(screen.getByRole('alert')).toHaveTextContent(messages.signInLinkInvalid);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
