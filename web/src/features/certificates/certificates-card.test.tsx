import { answers } from '@lms/contract/answers';
import type { Certificate } from '@lms/contract/certificates';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import { CertificatesCard } from './CertificatesCard';
import { certificatesTexts as texts } from './certificates-texts';
import { sampleCertificate } from './sample-certificate';

const mine = (certificates: Certificate[], chosen: string | null = null) => ({
  body: { success: true, message: answers.certificatesFetched, certificates, name: { chosen, default: 'Asha Verma' } },
});

function open() {
  storeLogin(sampleUser());
  return renderPage(<CertificatesCard />);
}

afterEach(() => vi.restoreAllMocks());

describe("the profile's certificates", () => {
  it('lists each certificate with its course, date and state, and what to do with it', async () => {
    stubApi({ 'GET /api/v1/certificates': mine([sampleCertificate()], 'Asha Verma') });
    open();
    const row = (await screen.findByRole('heading', { name: 'Data Structures in TypeScript' })).closest('li')!;
    expect(within(row).getByText(texts.issued('27 Nov 2026'))).toBeInTheDocument();
    expect(within(row).getByText(texts.ready)).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: texts.downloadPdfOf('Data Structures in TypeScript') })).toHaveAttribute(
      'href',
      '/api/v1/certificates/7K2M9QXD4T8RB3HW/pdf',
    );
    const linkedIn = within(row).getByRole('link', { name: texts.addToLinkedInOf('Data Structures in TypeScript') });
    expect(linkedIn).toHaveAttribute('href', sampleCertificate().linkedInUrl);
    expect(linkedIn).toHaveAttribute('target', '_blank');
    expect(linkedIn).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(row).getByRole('link', { name: texts.viewOf('Data Structures in TypeScript') })).toHaveAttribute('href', '/certificates/7K2M9QXD4T8RB3HW');
    // The name is fixed once chosen: shown, with no form.
    expect(screen.getByText('Asha Verma')).toBeInTheDocument();
    expect(screen.getByText(texts.nameFixedNote)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('copies the link that verifies a certificate, and says so', async () => {
    stubApi({ 'GET /api/v1/certificates': mine([sampleCertificate()], 'Asha Verma') });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: texts.copyLinkOf('Data Structures in TypeScript') }));
    expect(await findToast(texts.linkCopied)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('https://learn.example.com/certificates/7K2M9QXD4T8RB3HW');
  });

  it('without a clipboard, offers the link to select and copy by hand', async () => {
    stubApi({ 'GET /api/v1/certificates': mine([sampleCertificate()], 'Asha Verma') });
    const { user } = open();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    await user.click(await screen.findByRole('button', { name: texts.copyLinkOf('Data Structures in TypeScript') }));
    expect(await screen.findByRole('textbox', { name: texts.shareLink })).toHaveValue('https://learn.example.com/certificates/7K2M9QXD4T8RB3HW');
  });

  it('a certificate being made says so, offers no PDF yet, and is read again until it is ready', async () => {
    let reads = 0;
    stubApi({
      'GET /api/v1/certificates': () => {
        reads += 1;
        return mine([sampleCertificate({ state: reads > 1 ? 'ready' : 'issuing' })], 'Asha Verma');
      },
    });
    open();
    expect(await screen.findByText(texts.stillBeingMade)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: texts.downloadPdfOf('Data Structures in TypeScript') })).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: texts.downloadPdfOf('Data Structures in TypeScript') }, { timeout: 6000 })).toBeInTheDocument();
    expect(screen.queryByText(texts.stillBeingMade)).not.toBeInTheDocument();
  });

  it('a PDF asked for while it is being made (409) gives a note, not a file', async () => {
    stubApi({
      'GET /api/v1/certificates': mine([sampleCertificate()], 'Asha Verma'),
      'GET /api/v1/certificates/7K2M9QXD4T8RB3HW/pdf': { status: 409, body: { success: false, message: answers.certificateBeingMade } },
    });
    const { user } = open();
    await user.click(await screen.findByRole('link', { name: texts.downloadPdfOf('Data Structures in TypeScript') }));
    expect(await screen.findByText(texts.stillBeingMade)).toBeInTheDocument();
  });

  it('a revoked certificate says so with its date, and is not offered for sharing', async () => {
    stubApi({ 'GET /api/v1/certificates': mine([sampleCertificate({ revokedAt: '2026-12-03T10:00:00.000Z' })], 'Asha Verma') });
    open();
    const row = (await screen.findByRole('heading', { name: 'Data Structures in TypeScript' })).closest('li')!;
    expect(within(row).getByText(texts.revokedBadge)).toBeInTheDocument();
    expect(within(row).getByText(texts.revokedOn('3 Dec 2026'))).toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: texts.addToLinkedInOf('Data Structures in TypeScript') })).not.toBeInTheDocument();
  });

  it('none yet: says how one is earned', async () => {
    stubApi({ 'GET /api/v1/certificates': mine([]) });
    open();
    expect(await screen.findByText(texts.none)).toBeInTheDocument();
  });
});

describe('the name on certificates', () => {
  it('is prefilled with the full name, checked, confirmed, saved once, then shown as fixed', async () => {
    const calls = stubApi({
      'GET /api/v1/certificates': mine([sampleCertificate()]),
      'PUT /api/v1/certificates/name': (init) => {
        const { name } = JSON.parse(init.body as string) as { name: string };
        return { body: { ...mine([sampleCertificate({ name, state: 'issuing' })], name).body, message: answers.certificateNameChosen } };
      },
    });
    const { user } = open();
    const field = await screen.findByRole('textbox', { name: texts.nameLabel });
    expect(field).toHaveValue('Asha Verma');
    expect(screen.getByText(texts.nameNote)).toBeInTheDocument();

    // Too short: refused under the field, nothing sent.
    await user.clear(field);
    await user.type(field, 'A');
    await user.click(screen.getByRole('button', { name: texts.saveName }));
    expect(screen.getByRole('alert')).toHaveTextContent(answers.certificateNameInvalid);
    expect(calls.filter((call) => call.init.method === 'PUT')).toEqual([]);

    // Going back from the confirmation sends nothing either.
    await user.clear(field);
    await user.type(field, '  Asha R. Verma ');
    await user.click(screen.getByRole('button', { name: texts.saveName }));
    const dialog = screen.getByRole('dialog', { name: texts.confirmNameTitle });
    expect(within(dialog).getByText('Asha R. Verma')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    expect(calls.filter((call) => call.init.method === 'PUT')).toEqual([]);

    await user.click(screen.getByRole('button', { name: texts.saveName }));
    await user.click(within(screen.getByRole('dialog', { name: texts.confirmNameTitle })).getByRole('button', { name: texts.confirmName }));
    expect(await findToast(answers.certificateNameChosen)).toBeInTheDocument();
    const puts = calls.filter((call) => call.init.method === 'PUT');
    expect(puts.map((call) => JSON.parse(call.init.body as string) as unknown)).toEqual([{ name: 'Asha R. Verma' }]);
    await waitFor(() => expect(screen.queryByRole('textbox', { name: texts.nameLabel })).not.toBeInTheDocument());
    expect(screen.getByText('Asha R. Verma')).toBeInTheDocument();
    expect(screen.getByText(texts.nameFixedNote)).toBeInTheDocument();
    // Made again with the new name: the certificate says so.
    expect(screen.getByText(texts.stillBeingMade)).toBeInTheDocument();
  });

  it("the server's refusal (chosen already, elsewhere) shows under the field", async () => {
    stubApi({
      'GET /api/v1/certificates': mine([]),
      'PUT /api/v1/certificates/name': { status: 409, body: { success: false, message: answers.certificateNameAlreadyChosen } },
    });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: texts.saveName }));
    await user.click(within(screen.getByRole('dialog', { name: texts.confirmNameTitle })).getByRole('button', { name: texts.confirmName }));
    expect(await screen.findByRole('alert')).toHaveTextContent(answers.certificateNameAlreadyChosen);
  });
});
