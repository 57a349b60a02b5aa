import { answers } from '@lms/contract/answers';
import type { VerifiedCertificate } from '@lms/contract/certificates';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { paths } from '../../lib/paths';
import { renderPage, stubApi } from '../../test/render';
import CertificatePage from './CertificatePage';
import { certificatesTexts as texts } from './certificates-texts';

const CODE = '7K2M9QXD4T8RB3HW';
const verified = (overrides: Partial<VerifiedCertificate> = {}): VerifiedCertificate => ({
  code: CODE,
  name: 'Asha Verma',
  courseTitle: 'Data Structures in TypeScript',
  instructor: 'Ravi Kumar',
  issuer: 'Learn Academy',
  issuedAt: '2026-11-27T06:30:00.000Z',
  revokedAt: null,
  ...overrides,
});
const found = (certificate: VerifiedCertificate) => ({ body: { success: true, message: answers.certificateVerified, certificate } });
const notFound = { status: 404, body: { success: false, message: answers.certificateNotFound } };

/** The public page at /certificates/<code>, as a visitor who is not logged in opens it. */
async function open(code: string) {
  const view = renderPage(<p>start</p>, { path: '/start', routes: [{ path: paths.certificate, element: <CertificatePage /> }] });
  await act(() => view.router.navigate(`/certificates/${code}`));
  return view;
}

describe('the public certificate page', () => {
  it('a valid certificate: says so in words with its mark, and shows the name, course, instructor, long date, issuer and the code in groups', async () => {
    const calls = stubApi({ [`GET /api/v1/certificates/${CODE}`]: found(verified()) });
    await open(CODE.toLowerCase());
    expect(await screen.findByRole('heading', { level: 1, name: texts.valid })).toBeInTheDocument();
    expect(screen.getByText(texts.validLead('Learn Academy'))).toBeInTheDocument();
    const sheet = screen.getByRole('region', { name: texts.certificateOf });
    expect(within(sheet).getByText('Asha Verma')).toBeInTheDocument();
    expect(within(sheet).getByText('Data Structures in TypeScript')).toBeInTheDocument();
    expect(within(sheet).getByText('Ravi Kumar')).toBeInTheDocument();
    expect(within(sheet).getByText('27 November 2026')).toBeInTheDocument();
    expect(within(sheet).getByText('Learn Academy')).toBeInTheDocument();
    expect(within(sheet).getByText('7K2M-9QXD-4T8R-B3HW')).toBeInTheDocument();
    expect(screen.queryByText(texts.revoked)).not.toBeInTheDocument();
    // The code as a link carries it (any case) is read as the code.
    expect(calls.map((call) => call.url)).toEqual([`/api/v1/certificates/${CODE}`]);
    expect(document.title).toContain(texts.pageTitle('Asha Verma', 'Data Structures in TypeScript'));
  });

  it('a revoked certificate: says revoked, with the date, not valid', async () => {
    stubApi({ [`GET /api/v1/certificates/${CODE}`]: found(verified({ revokedAt: '2026-12-03T10:00:00.000Z' })) });
    await open(CODE);
    expect(await screen.findByRole('heading', { level: 1, name: texts.revoked })).toBeInTheDocument();
    expect(screen.getByText(texts.revokedOn('3 December 2026'))).toBeInTheDocument();
    expect(screen.getByText(texts.revokedLead, { exact: false })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: texts.valid })).not.toBeInTheDocument();
  });

  it('an unknown or altered code: "not found" with a hint, and no error toast', async () => {
    stubApi({ [`GET /api/v1/certificates/${CODE}`]: notFound });
    await open(CODE);
    expect(await screen.findByRole('heading', { level: 1, name: texts.notFound })).toBeInTheDocument();
    expect(screen.getByText(texts.notFoundLead)).toBeInTheDocument();
    expect(screen.queryByText(answers.certificateNotFound)).not.toBeInTheDocument();
    expect(document.title).toContain(texts.notFound);
  });

  it('a code that cannot be one is not found without asking the server', async () => {
    const calls = stubApi({});
    await open('not-a-code');
    expect(await screen.findByRole('heading', { level: 1, name: texts.notFound })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('the form: an invalid code is refused under the field; a typed code (dashes, spaces, lower case) opens its page', async () => {
    stubApi({ [`GET /api/v1/certificates/${CODE}`]: found(verified()) });
    const { user, router } = await open('0000');
    const field = await screen.findByLabelText(texts.codeLabel);
    await user.type(field, '7K2M-9QXD');
    await user.click(screen.getByRole('button', { name: texts.verify }));
    expect(screen.getByRole('alert')).toHaveTextContent(texts.codeInvalid);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/certificates/0000');

    await user.clear(field);
    await user.type(field, '7k2m-9qxd 4t8r-b3hw');
    await user.click(screen.getByRole('button', { name: texts.verify }));
    expect(await screen.findByRole('heading', { level: 1, name: texts.valid })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/certificates/${CODE}`);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: texts.verifyAnotherHeading })).toBeInTheDocument();
  });
});
