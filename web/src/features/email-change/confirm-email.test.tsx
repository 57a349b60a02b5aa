import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { renderPage, stubApi } from '../../test/render';
import ConfirmEmailPage from './ConfirmEmailPage';
import { emailChangeTexts as texts } from './email-change-texts';

const token = 'Qm9vbXNoYWthbGFrYV9yZWFsbHlfbG9uZ190b2tlbg';

async function open(withToken = token) {
  const view = renderPage(<ConfirmEmailPage />, { path: '/confirm-email/:token' });
  await act(() => view.router.navigate(`/confirm-email/${withToken}`));
  const press = () => view.user.click(screen.getByRole('button', { name: texts.submit }));
  return { ...view, press };
}

describe('the page of a new email’s confirmation link', () => {
  it('sends nothing on opening, confirms once on the press, and offers to log in', async () => {
    const calls = stubApi({ [`POST /api/v1/user/email/${token}`]: { body: { success: true, message: answers.emailChangeConfirmed } } });
    const { press } = await open();
    expect(screen.getByRole('heading', { level: 1, name: texts.title })).toBeInTheDocument();
    expect(document.title).toBe(`${texts.title} · LMS`);
    expect(calls).toEqual([]);
    await press();
    expect(await screen.findByRole('status')).toHaveTextContent(answers.emailChangeConfirmed);
    expect(screen.getByRole('link', { name: texts.logIn })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: texts.submit })).not.toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it('says a used or expired link is so, with no button', async () => {
    stubApi({ [`POST /api/v1/user/email/${token}`]: { status: 400, body: { success: false, message: answers.emailChangeLinkInvalid } } });
    const { press } = await open();
    await press();
    expect(await screen.findByRole('alert')).toHaveTextContent(answers.emailChangeLinkInvalid);
    expect(screen.queryByRole('button', { name: texts.submit })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.logIn })).toBeInTheDocument();
  });

  it('keeps the button after a refusal that may pass', async () => {
    stubApi({ [`POST /api/v1/user/email/${token}`]: { status: 429, body: { success: false, message: answers.tooManyRequests } } });
    const { press } = await open();
    await press();
    expect(await screen.findByRole('alert')).toHaveTextContent(answers.tooManyRequests);
    expect(screen.getByRole('button', { name: texts.submit })).toBeEnabled();
  });

  it('answers a malformed link at once', async () => {
    const calls = stubApi({});
    await open('short');
    expect(screen.getByRole('alert')).toHaveTextContent(answers.emailChangeLinkInvalid);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
