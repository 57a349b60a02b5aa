import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { findToast, renderPage, sampleUser, stubApi } from '../../test/render';
import LoginPage from './LoginPage';

const user = sampleUser();

function renderLogin() {
  const view = renderPage(<LoginPage />, { path: '/login' });
  const fill = async (email: string, password: string) => {
    if (email) await view.user.type(screen.getByLabelText('Email'), email);
    if (password) await view.user.type(screen.getByLabelText('Password'), password);
    await view.user.click(screen.getByRole('button', { name: 'Login' }));
  };
  return { ...view, fill };
}

describe('login page', () => {
  it('has a heading, labelled fields and links to signup and forgot password', async () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Login' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/Signup');
    expect(screen.getByRole('link', { name: 'Forgot password' })).toHaveAttribute('href', '/forgot-password');
  });

  it.each([
    ['nothing', '', ''],
    ['only the email', 'asha@example.com', ''],
    ['only the password', '', 'secret1!'],
  ])('with %s filled in shows "Please fill all the details" and sends nothing', async (_case, email, password) => {
    const calls = stubApi({});
    const { fill } = renderLogin();
    await fill(email, password);
    expect(await findToast(messages.fillAllDetails)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('logs in with JSON email and password and goes home', async () => {
    const calls = stubApi({ 'POST /api/v1/user/login': { body: { success: true, message: messages.loggedIn, user } } });
    const { fill, router, store } = renderLogin();
    await fill('asha@example.com', 'secret1!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/v1/user/login');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ email: 'asha@example.com', password: 'secret1!' });
    expect(store.getState().auth).toMatchObject({ isLoggedIn: true, role: 'USER', data: user });
    expect(await findToast(messages.loggedIn)).toBeInTheDocument();
  });

  it('goes back to the page the route guard sent the visitor from', async () => {
    stubApi({ 'POST /api/v1/user/login': { body: { success: true, message: messages.loggedIn, user } } });
    const { fill, router } = renderLogin();
    await act(() => router.navigate('/login', { state: { from: '/user/profile' } }));
    await fill('asha@example.com', 'secret1!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
  });

  it("shows the server's message when the login is refused, and stays", async () => {
    stubApi({ 'POST /api/v1/user/login': { status: 401, body: { success: false, message: messages.wrongCredentials } } });
    const { fill, router, store } = renderLogin();
    await fill('asha@example.com', 'wrong1!');
    expect(await findToast(messages.wrongCredentials)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(store.getState().auth.isLoggedIn).toBe(false);
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('shows "Failed to log in" when the server gives no message', async () => {
    stubApi({ 'POST /api/v1/user/login': { status: 500, body: {} } });
    const { fill } = renderLogin();
    await fill('asha@example.com', 'secret1!');
    expect(await findToast(messages.failedLogIn)).toBeInTheDocument();
  });

  it('disables the button while the request is in flight', async () => {
    let answer!: (response: Response) => void;
    globalThis.fetch = () => new Promise<Response>((resolve) => (answer = resolve));
    const { fill } = renderLogin();
    await fill('asha@example.com', 'secret1!');
    const button = screen.getByRole('button', { name: 'Login' });
    expect(button).toBeDisabled();
    await act(async () => answer(new Response(JSON.stringify({ success: false, message: messages.wrongCredentials }), { status: 401 })));
    await waitFor(() => expect(button).toBeEnabled());
  });
});
