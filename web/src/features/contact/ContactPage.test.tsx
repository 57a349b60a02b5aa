import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { DEFAULT_SITE } from '@lms/contract/site';
import { setSite } from '../../lib/site';
import { findToast, renderPage, stubApi } from '../../test/render';
import ContactPage from './ContactPage';

const sent = { success: true, message: messages.contactSent };

async function fillAndSend(user: ReturnType<typeof renderPage>['user'], fields: { name?: string; email?: string; message?: string }) {
  if (fields.name) await user.type(screen.getByLabelText('Name'), fields.name);
  if (fields.email) await user.type(screen.getByLabelText('Email'), fields.email);
  if (fields.message) await user.type(screen.getByLabelText('Message'), fields.message);
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

afterEach(() => setSite(DEFAULT_SITE));

describe('contact page', () => {
  it("shows the seller's email, phone and address beside the form, and nothing of the kind on a fresh site", () => {
    const first = renderPage(<ContactPage />, { path: '/contact' });
    expect(screen.queryByRole('heading', { name: 'Other ways to reach us' })).not.toBeInTheDocument();
    first.unmount();

    setSite({ ...DEFAULT_SITE, contact: { email: 'hello@tabla.in', phone: '+91 98765 43210', address: '12 MG Road\nPune 411001' } });
    renderPage(<ContactPage />, { path: '/contact' });
    const details = screen.getByRole('region', { name: 'Other ways to reach us' });
    expect(within(details).getByRole('link', { name: 'hello@tabla.in' })).toHaveAttribute('href', 'mailto:hello@tabla.in');
    expect(within(details).getByRole('link', { name: '+91 98765 43210' })).toHaveAttribute('href', 'tel:+919876543210');
    expect(details).toHaveTextContent('12 MG Road Pune 411001');
    // The spec's form is still there, as it was.
    expect(screen.getByRole('heading', { level: 1, name: 'Contact Form' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
  });

  it('names the browser tab', () => {
    renderPage(<ContactPage />, { path: '/contact' });
    expect(document.title).toBe('Contact us · LMS');
  });

  // The spec's text, naming what is missing.
  const mandatory = (...missing: string[]) => messages.missingFields(messages.allFieldsMandatory, missing);
  it.each([
    { case: 'nothing filled in', fields: {}, text: mandatory('Name', 'Email', 'Message') },
    { case: 'no message', fields: { name: 'Asha Rao', email: 'asha@example.com' }, text: mandatory('Message') },
    { case: 'a name of blanks', fields: { name: '   ', email: 'asha@example.com', message: 'Hello' }, text: mandatory('Name') },
    { case: 'no email', fields: { name: 'Asha Rao', message: 'Hello' }, text: mandatory('Email') },
    { case: 'a malformed email', fields: { name: 'Asha Rao', email: 'asha@example', message: 'Hello' }, text: messages.invalidEmail },
  ])('with $case shows "$text" and sends nothing', async ({ fields, text }) => {
    const calls = stubApi({ 'POST /api/v1/contact': { body: sent } });
    const { user } = renderPage(<ContactPage />, { path: '/contact' });
    await fillAndSend(user, fields);
    expect(await findToast(text)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends name, email and message as JSON, shows the success toast and clears the form', async () => {
    const calls = stubApi({ 'POST /api/v1/contact': { body: sent } });
    const { user } = renderPage(<ContactPage />, { path: '/contact' });
    await fillAndSend(user, { name: '  Asha Rao ', email: 'asha@example.com', message: 'When does the next course start?' });

    expect(await findToast(messages.contactSent)).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/v1/contact');
    expect(calls[0]!.init.method).toBe('POST');
    expect(new Headers(calls[0]!.init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ name: 'Asha Rao', email: 'asha@example.com', message: 'When does the next course start?' });
    expect(screen.getByLabelText('Name')).toHaveValue('');
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Message')).toHaveValue('');
  });

  it("shows the server's message when it refuses, keeping what was typed", async () => {
    stubApi({ 'POST /api/v1/contact': { status: 429, body: { success: false, message: answers.tooManyRequests } } });
    const { user } = renderPage(<ContactPage />, { path: '/contact' });
    await fillAndSend(user, { name: 'Asha Rao', email: 'asha@example.com', message: 'Hello' });
    expect(await findToast(answers.tooManyRequests)).toBeInTheDocument();
    expect(screen.queryByText(messages.contactSent)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Message')).toHaveValue('Hello');
  });

  it("falls back to 'failed to submit the form' when the server gives no message", async () => {
    stubApi({ 'POST /api/v1/contact': { status: 500, body: {} } });
    const { user } = renderPage(<ContactPage />, { path: '/contact' });
    await fillAndSend(user, { name: 'Asha Rao', email: 'asha@example.com', message: 'Hello' });
    expect(await findToast(messages.failedSubmitForm)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });
});
