import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { splitHeading } from './Markdown';
import PrivacyPage from './PrivacyPage';
import RefundPolicyPage from './RefundPolicyPage';
import TermsPage from './TermsPage';

const PAGE = 'GET /api/v1/pages/terms';
const answer = (markdown: string, template = false, page = 'terms') => ({ body: { success: true, message: 'Page', page: { page, markdown, template } } });

const hostile = [
  '# Terms of service',
  '',
  'Plain **bold** text and a [good link](https://example.com/terms).',
  '',
  '<script>window.hacked = true</script>',
  '',
  '<img src=x onerror="window.hacked = true">',
  '',
  '[click me](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=) and <a href="javascript:alert(2)">raw</a>',
].join('\n');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a legal page', () => {
  it('renders the Markdown, with raw HTML as inert text and script links emptied', async () => {
    stubApi({ [PAGE]: answer(hostile) });
    const { container } = renderPage(<TermsPage />, { path: '/terms' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of service' })).toBeInTheDocument();
    expect(document.title).toBe('Terms of service · LMS');
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByRole('link', { name: 'good link' })).toHaveAttribute('href', 'https://example.com/terms');
    // The HTML shows as the text it is, and does nothing.
    const article = screen.getByRole('article');
    expect(article).toHaveTextContent('<script>window.hacked = true</script>');
    expect(article).toHaveTextContent('<img src=x onerror="window.hacked = true">');
    expect(container.querySelector('script, img, iframe')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    for (const link of container.querySelectorAll('a')) {
      expect(link.getAttribute('href') ?? '').not.toMatch(/^\s*(javascript|data|vbscript):/i);
    }
    expect(screen.getByText('click me').closest('a')).toBeNull();
    // A visitor sees neither the editor nor any note about templates.
    expect(screen.queryByRole('button', { name: 'Edit page' })).not.toBeInTheDocument();
  });

  it('has its own title on each page, the page title as heading when the text has none', async () => {
    stubApi({ 'GET /api/v1/pages/privacy': answer('We keep your email.', false, 'privacy') });
    const first = renderPage(<PrivacyPage />, { path: '/privacy' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
    expect(screen.getByText('We keep your email.')).toBeInTheDocument();
    expect(document.title).toBe('Privacy policy · LMS');
    first.unmount();

    stubApi({ 'GET /api/v1/pages/refund-policy': answer('## Refunds\n\nWithin 14 days.', true, 'refund-policy') });
    renderPage(<RefundPolicyPage />, { path: '/refund-policy' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Refund policy' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Refunds' })).toBeInTheDocument();
    expect(document.title).toBe('Refund policy · LMS');
    // Still the template: the visitor is not told.
    expect(screen.queryByText(/Template/)).not.toBeInTheDocument();
  });

  it('says when the page cannot be read, and tries again', async () => {
    let fail = true;
    stubApi({ [PAGE]: () => (fail ? { status: 500, body: { success: false, message: 'down' } } : answer('Back.')) });
    const { user } = renderPage(<TermsPage />, { path: '/terms' });
    expect(await screen.findByText('This page could not be loaded just now.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Back.')).toBeInTheDocument();
  });
});

describe('a legal page, for an administrator', () => {
  const admin = sampleUser({ role: 'ADMIN' });

  it('marks the template, and saves an edit made with a live preview', async () => {
    storeLogin(admin);
    let saved = 'Starting text.';
    const calls = stubApi({
      [PAGE]: () => answer(saved, saved === 'Starting text.'),
      'PUT /api/v1/pages/terms': (init) => {
        saved = (JSON.parse(String(init.body)) as { markdown: string }).markdown;
        return { body: { success: true, message: 'Page saved', page: { page: 'terms', markdown: saved, template: false } } };
      },
    });
    const { user } = renderPage(<TermsPage />, { path: '/terms' });
    expect(await screen.findByRole('note')).toHaveTextContent('Template — review before going live');

    await user.click(screen.getByRole('button', { name: 'Edit page' }));
    const text = await screen.findByRole('textbox', { name: 'Page text (Markdown)' });
    expect(text).toHaveValue('Starting text.');
    await user.clear(text);
    await user.type(text, '## Who we are{enter}{enter}We are **Tabla Gurukul**.');
    const preview = screen.getByRole('region', { name: 'Preview' });
    await waitFor(() => expect(within(preview).getByRole('heading', { level: 2, name: 'Who we are' })).toBeInTheDocument());
    expect(within(preview).getByText('Tabla Gurukul').tagName).toBe('STRONG');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Page saved')).toBeInTheDocument();
    const put = calls.find((call) => call.init.method === 'PUT')!;
    expect(JSON.parse(String(put.init.body))).toEqual({ markdown: '## Who we are\n\nWe are **Tabla Gurukul**.' });
    // Back on the page, as visitors now see it, and no longer a template.
    expect(await screen.findByRole('heading', { level: 2, name: 'Who we are' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('note')).not.toBeInTheDocument());
  });

  it('goes back to the template after a confirmation, and not without one', async () => {
    storeLogin(admin);
    let current = { markdown: 'My own terms.', template: false };
    const calls = stubApi({
      [PAGE]: () => answer(current.markdown, current.template),
      'DELETE /api/v1/pages/terms': () => {
        current = { markdown: 'Starting text.', template: true };
        return { body: { success: true, message: 'Back to the template', page: { page: 'terms', ...current } } };
      },
    });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { user } = renderPage(<TermsPage />, { path: '/terms' });
    await user.click(await screen.findByRole('button', { name: 'Edit page' }));
    await user.click(await screen.findByRole('button', { name: 'Back to the template' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(calls.some((call) => call.init.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Back to the template' }));
    expect(await screen.findByText('Starting text.')).toBeInTheDocument();
    expect(calls.filter((call) => call.init.method === 'DELETE')).toHaveLength(1);
    expect(await screen.findByRole('note')).toHaveTextContent('Template — review before going live');
  });

  it('does not save an empty page', async () => {
    storeLogin(admin);
    const calls = stubApi({ [PAGE]: answer('My own terms.') });
    const { user } = renderPage(<TermsPage />, { path: '/terms' });
    await user.click(await screen.findByRole('button', { name: 'Edit page' }));
    await user.clear(await screen.findByRole('textbox', { name: 'Page text (Markdown)' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Write the page before saving.')).toBeInTheDocument();
    expect(calls.some((call) => call.init.method === 'PUT')).toBe(false);
  });
});

describe('splitHeading', () => {
  it.each([
    ['# Terms of Acme\n\nText', { heading: 'Terms of Acme', body: '\nText' }],
    ['\n\n#   Terms ##\nText', { heading: 'Terms', body: 'Text' }],
    ['# C#\nText', { heading: 'C#', body: 'Text' }],
    ['## Section\nText', { heading: 'Fallback', body: '## Section\nText' }],
    ['#NoSpace', { heading: 'Fallback', body: '#NoSpace' }],
    ['', { heading: 'Fallback', body: '' }],
  ])('%j', (markdown, expected) => {
    expect(splitHeading(markdown, 'Fallback')).toEqual(expected);
  });

  it('reads a long line of hashes in linear time', () => {
    const start = performance.now();
    splitHeading(`# ${'#'.repeat(50_000)}x`, 'Fallback');
    expect(performance.now() - start).toBeLessThan(200);
  });
});
