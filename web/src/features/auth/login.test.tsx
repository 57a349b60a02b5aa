import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
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
    ['nothing', '', '', ['Email', 'Password']],
    ['only the email', 'asha@example.com', '', ['Password']],
    ['only the password', '', 'secret1!', ['Email']],
  ])('with %s filled in shows "Please fill all the details", naming what is missing, and sends nothing', async (_case, email, password, missing) => {
    const calls = stubApi({});
    const { fill } = renderLogin();
    await fill(email, password);
    expect(await findToast(messages.missingFields(messages.fillAllDetails, missing))).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('logs in with JSON email and password and goes home', async () => {
    const calls = stubApi({ 'POST /api/v1/user/login': { body: { success: true, message: answers.loggedIn, user } } });
    const { fill, router, store } = renderLogin();
    await fill('asha@example.com', 'secret1!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/v1/user/login');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ email: 'asha@example.com', password: 'secret1!' });
    expect(store.getState().auth).toMatchObject({ isLoggedIn: true, role: 'USER', data: user });
    expect(await findToast(answers.loggedIn)).toBeInTheDocument();
  });

  it('goes back to the page the route guard sent the visitor from', async () => {
    stubApi({ 'POST /api/v1/user/login': { body: { success: true, message: answers.loggedIn, user } } });
    const { fill, router } = renderLogin();
    await act(() => router.navigate('/login', { state: { from: '/user/profile' } }));
    await fill('asha@example.com', 'secret1!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/profile'));
  });

  it('takes a user who must first choose a new password to the change-password page, wherever they were going', async () => {
    stubApi({ 'POST /api/v1/user/login': { body: { success: true, message: answers.loggedIn, user: { ...user, role: 'ADMIN', mustChangePassword: true } } } });
    const { fill, router } = renderLogin();
    await act(() => router.navigate('/login', { state: { from: '/admin/dashboard' } }));
    await fill('admin@lms.local', 'Handed#over12');
    await waitFor(() => expect(router.state.location.pathname).toBe('/changepassword'));
  });

  it("shows the server's message when the login is refused, and stays", async () => {
    stubApi({ 'POST /api/v1/user/login': { status: 401, body: { success: false, message: answers.wrongCredentials } } });
    const { fill, router, store } = renderLogin();
    await fill('asha@example.com', 'wrong1!');
    expect(await findToast(answers.wrongCredentials)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(store.getState().auth.isLoggedIn).toBe(false);
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();
  });

  it('keeps a lockout on the page with how long to wait, until the next try', async () => {
    const lockout = answers.tooManyLoginAttempts(12);
    let status = 429;
    stubApi({
      'POST /api/v1/user/login': () =>
        status === 429 ? { status, body: { success: false, message: lockout } } : { body: { success: true, message: answers.loggedIn, user } },
    });
    const view = renderLogin();
    await view.fill('asha@example.com', 'secret1!');
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many login attempts, please try again in 12 minutes');
    // Once, on the page: not a toast beside it.
    expect(screen.getAllByText(lockout)).toHaveLength(1);
    expect(view.router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('button', { name: 'Login' })).toBeEnabled();

    status = 200;
    await view.user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/'));
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
    await act(async () => answer(new Response(JSON.stringify({ success: false, message: answers.wrongCredentials }), { status: 401 })));
    await waitFor(() => expect(button).toBeEnabled());
  });
});

describe('login page: where it leads (ours)', () => {
  it('names the browser tab', () => {
    renderLogin();
    expect(document.title).toBe('Login · LMS');
  });

  it('sends a user who is already signed in when it opens to /, in place of /login', async () => {
    storeLogin(user);
    const calls = stubApi({});
    const { router } = renderPage(<LoginPage />, { path: '/login' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(calls).toEqual([]);
  });

  it('a signed-in user on /login?next=/checkout goes to / as well (Back from the checkout must not bounce forward)', async () => {
    storeLogin(user);
    const { router } = renderPage(<LoginPage />, { path: '/login' });
    await act(() => router.navigate('/login?next=%2Fcheckout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('goes to ?next= after logging in, says why it is there, and the signup link carries it on', async () => {
    stubApi({ 'POST /api/v1/user/login': { body: { success: true, message: answers.loggedIn, user } } });
    const { fill, router } = renderLogin();
    await act(() => router.navigate('/login?next=%2Fcheckout'));
    expect(screen.getByRole('note')).toHaveTextContent(messages.loginToSubscribe);
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/Signup?next=%2Fcheckout');
    await fill('asha@example.com', 'secret1!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it.each([
    ['an absolute URL', 'https://evil.example/checkout'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash URL', '/\\evil.example'],
  ])('ignores a ?next= that is %s and goes home', async (_case, next) => {
    stubApi({ 'POST /api/v1/user/login': { body: { success: true, message: answers.loggedIn, user } } });
    const { fill, router } = renderLogin();
    await act(() => router.navigate(`/login?next=${encodeURIComponent(next)}`));
    expect(screen.getByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/Signup');
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await fill('asha@example.com', 'secret1!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
