import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import type { AdminCertificate } from '@lms/contract/certificates';
import type { Course } from '@lms/contract/courses';
import { formatDate } from '../../../lib/format';
import { findToast, renderPage, sampleUser, storeLogin, stubApi } from '../../../test/render';
import CertificatesAdminPage from './CertificatesAdminPage';
import { certificatesAdminTexts as texts } from './certificates-admin-texts';

const course = (n: number, title: string): Course => ({
  _id: `30000000-0000-4000-8000-00000000000${n}`,
  title,
  description: 'A course',
  category: 'Programming',
  createdBy: 'Meera Iyer',
  thumbnail: { secure_url: '/media/thumb.png' },
  numbersOfLectures: 4,
  totalDuration: 600,
  state: 'published',
  publishAt: null,
});
const javascript = course(1, 'JavaScript');
const python = course(2, 'Python for everyone');

const certificate = (n: number, overrides: Partial<AdminCertificate> = {}): AdminCertificate => ({
  _id: `40000000-0000-4000-8000-00000000000${n}`,
  code: `7K2M9QXD4F8H2J${n}A`.slice(0, 16),
  name: 'Asha Verma',
  courseTitle: javascript.title,
  instructor: 'Meera Iyer',
  issuer: 'LMS',
  issuedAt: '2026-11-20T10:00:00.000Z',
  revokedAt: null,
  courseId: javascript._id,
  state: 'ready',
  pdfUrl: `/api/v1/certificates/7K2M9QXD4F8H2J${n}A/pdf`,
  verifyUrl: `https://lms.example/certificates/7K2M9QXD4F8H2J${n}A`,
  linkedInUrl: 'https://www.linkedin.com/profile/add',
  learner: { _id: '10000000-0000-4000-8000-000000000001', fullName: 'Asha Verma', email: 'asha@example.com' },
  issuedBy: null,
  ...overrides,
});

const earned = certificate(1);
const byHand = certificate(2, {
  name: 'Ravi K.',
  courseTitle: python.title,
  courseId: python._id,
  state: 'issuing',
  issuedAt: '2026-11-25T06:00:00.000Z',
  learner: { _id: '10000000-0000-4000-8000-000000000002', fullName: 'Ravi Kumar', email: 'ravi@example.com' },
  issuedBy: 'LMS Admin',
});
const revoked = certificate(3, {
  learner: { _id: '10000000-0000-4000-8000-000000000003', fullName: 'Sunil Rao', email: 'sunil@example.com' },
  name: 'Sunil Rao',
  revokedAt: '2026-11-26T09:00:00.000Z',
});

const listKey = (query: string) => `GET /api/v1/admin/certificates?${query}`;
const listed = (certificates: AdminCertificate[], total = certificates.length) => ({
  body: { success: true, message: answers.certificatesFetched, certificates, total },
});
const coursesAnswer = {
  'GET /api/v1/courses?limit=100': { body: { success: true, message: 'All courses', courses: [javascript, python], total: 2, page: 1, limit: 100 } },
};

function open() {
  storeLogin(sampleUser({ _id: '90000000-0000-4000-8000-000000000009', role: 'ADMIN', fullName: 'LMS Admin' }));
  return renderPage(<CertificatesAdminPage />, { path: '/admin/certificates' });
}

/** The wide screen's table (the phone's cards hold the same, hidden there by CSS). */
const table = () => screen.findByRole('table', { name: texts.listLabel });
const rowOf = async (name: string) => (await within(await table()).findByRole('rowheader', { name: new RegExp(name) })).closest('tr')!;
const rowNow = (name: string) =>
  within(screen.getByRole('table', { name: texts.listLabel }))
    .getByRole('rowheader', { name: new RegExp(name) })
    .closest('tr')!;

/** A date as the page shows it, its no-break spaces read as spaces (as the text matchers read them). */
const day = (iso: string) => formatDate(iso)!.replace(/\u00a0/g, ' ');

afterEach(() => vi.restoreAllMocks());

describe('the certificates page', () => {
  it('lists each certificate with its learner, course, name printed, issue and state, and links to its page and PDF', async () => {
    const calls = stubApi({ ...coursesAnswer, [listKey('page=1&limit=50')]: listed([byHand, earned, revoked]) });
    open();
    expect(screen.getByRole('heading', { level: 1, name: texts.title })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Certificates · LMS'));
    expect(await screen.findByText(texts.total(3))).toBeInTheDocument();

    const ravi = await rowOf('Ravi Kumar');
    expect(ravi).toHaveTextContent('ravi@example.com');
    expect(ravi).toHaveTextContent('Python for everyone');
    expect(ravi).toHaveTextContent('Ravi K.');
    expect(ravi).toHaveTextContent(day(byHand.issuedAt));
    expect(ravi).toHaveTextContent('by LMS Admin');
    expect(ravi).toHaveTextContent('Issuing');
    // The PDF is not made yet: nothing to download.
    expect(within(ravi).getByRole('button', { name: /Download the PDF of Ravi Kumar’s certificate/ })).toBeDisabled();

    const asha = await rowOf('Asha Verma');
    expect(asha).toHaveTextContent('Earned');
    expect(asha).toHaveTextContent('Ready');
    expect(asha).toHaveTextContent('7K2M-9QXD-4F8H-2J1A');
    const view = within(asha).getByRole('link', { name: /View the certificate of Asha Verma for JavaScript/ });
    expect(view).toHaveAttribute('href', `/certificates/${earned.code}`);
    expect(view).toHaveAttribute('target', '_blank');
    expect(within(asha).getByRole('link', { name: /Download the PDF of Asha Verma’s certificate for JavaScript/ })).toHaveAttribute(
      'href',
      `/api/v1/certificates/${earned.code}/pdf`,
    );
    expect(within(asha).getByRole('button', { name: 'Revoke the certificate of Asha Verma for JavaScript' })).toBeInTheDocument();

    const sunil = await rowOf('Sunil Rao');
    expect(sunil).toHaveTextContent(`Revoked on ${day(revoked.revokedAt!)}`);
    expect(sunil).not.toHaveTextContent('Ready');
    expect(within(sunil).getByRole('button', { name: 'Restore the certificate of Sunil Rao for JavaScript' })).toBeInTheDocument();

    // The phone's cards: one per certificate, the same facts.
    const cards = within(screen.getByRole('list', { name: texts.listLabel })).getAllByRole('listitem');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual(['Ravi Kumar', 'Asha Verma', 'Sunil Rao']);
    expect(cards[2]).toHaveTextContent(`Revoked on ${day(revoked.revokedAt!)}`);

    // One page: no page buttons.
    expect(screen.queryByRole('navigation', { name: texts.pagination })).not.toBeInTheDocument();
    expect(calls.filter((call) => call.url.startsWith('/api/v1/admin/certificates')).map((call) => call.url)).toEqual([
      '/api/v1/admin/certificates?page=1&limit=50',
    ]);
  });

  it('filters by course: the list asks for that course’s, the address keeps it, and the CSV export carries it', async () => {
    const calls = stubApi({
      ...coursesAnswer,
      [listKey('page=1&limit=50')]: listed([byHand, earned]),
      [listKey(`courseId=${python._id}&page=1&limit=50`)]: listed([byHand]),
    });
    const { user, router } = open();
    await rowOf('Asha Verma');
    const exportLink = screen.getByRole('link', { name: texts.exportCsv });
    expect(exportLink).toHaveAttribute('href', '/api/v1/admin/certificates/export');
    expect(exportLink).toHaveAttribute('download');

    const filter = screen.getByLabelText(texts.course);
    await screen.findByRole('option', { name: 'Python for everyone' });
    await user.selectOptions(filter, 'Python for everyone');

    expect(await screen.findByText(texts.total(1))).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table', { name: texts.listLabel })).queryByText('Asha Verma')).not.toBeInTheDocument());
    expect(calls.map((call) => call.url)).toContain(`/api/v1/admin/certificates?courseId=${python._id}&page=1&limit=50`);
    expect(router.state.location.search).toBe(`?course=${python._id}`);
    expect(screen.getByRole('link', { name: texts.exportCsv })).toHaveAttribute('href', `/api/v1/admin/certificates/export?courseId=${python._id}`);

    // Back to every course.
    await user.selectOptions(filter, texts.allCourses);
    expect(await screen.findByText(texts.total(2))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: texts.exportCsv })).toHaveAttribute('href', '/api/v1/admin/certificates/export');
  });

  it('says so when a course has none yet, and offers to issue one', async () => {
    stubApi({ ...coursesAnswer, [listKey('page=1&limit=50')]: listed([]) });
    const { user } = open();
    expect(await screen.findByRole('heading', { name: texts.empty })).toBeInTheDocument();
    expect(screen.getByText(texts.total(0))).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const issueButtons = screen.getAllByRole('button', { name: texts.issue });
    expect(issueButtons).toHaveLength(2);
    await user.click(issueButtons[1]!);
    expect(screen.getByRole('dialog', { name: texts.issueTitle })).toBeInTheDocument();
  });

  it('issues one by hand: the server’s refusals are said in the form, which keeps what was typed; once issued, the toast and the new row', async () => {
    const issued = certificate(4, {
      learner: { _id: '10000000-0000-4000-8000-000000000004', fullName: 'Neha Singh', email: 'neha@example.com' },
      name: 'Neha Singh',
      courseTitle: python.title,
      courseId: python._id,
      state: 'issuing',
      issuedBy: 'LMS Admin',
    });
    let list = [earned];
    const sent: unknown[] = [];
    const refusals = [
      { status: 404, body: { success: false, message: answers.certificateLearnerNotFound } },
      { status: 409, body: { success: false, message: answers.certificateExists } },
    ];
    stubApi({
      ...coursesAnswer,
      [listKey('page=1&limit=50')]: () => listed(list),
      'POST /api/v1/admin/certificates': (init) => {
        sent.push(JSON.parse(init.body as string));
        const refusal = refusals.shift();
        if (refusal) return refusal;
        list = [issued, earned];
        return { status: 201, body: { success: true, message: answers.certificateIssued, certificate: issued } };
      },
    });
    const { user } = open();
    await rowOf('Asha Verma');
    await user.click(screen.getByRole('button', { name: texts.issue }));
    const dialog = screen.getByRole('dialog', { name: texts.issueTitle });

    // Checked before sending: a course must be chosen.
    await user.type(within(dialog).getByLabelText(texts.email), 'nobody@example.com');
    await user.click(within(dialog).getByRole('button', { name: texts.issue }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(texts.chooseCourse);
    expect(sent).toEqual([]);

    await user.selectOptions(within(dialog).getByLabelText(texts.course), 'Python for everyone');
    await user.click(within(dialog).getByRole('button', { name: texts.issue }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(answers.certificateLearnerNotFound);
    expect(within(dialog).getByLabelText(texts.email)).toHaveValue('nobody@example.com');
    expect(within(dialog).getByLabelText(texts.email)).toHaveAttribute('aria-invalid', 'true');
    // Said in the form, not as a toast.
    expect(screen.queryByText(answers.certificateLearnerNotFound, { selector: '[role="status"]' })).not.toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(texts.email));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(texts.email), 'Neha@Example.com');
    await user.click(within(dialog).getByRole('button', { name: texts.issue }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(answers.certificateExists);

    await user.click(within(dialog).getByRole('button', { name: texts.issue }));
    expect(await findToast(answers.certificateIssued)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const neha = await rowOf('Neha Singh');
    expect(neha).toHaveTextContent('Issuing');
    expect(neha).toHaveTextContent('by LMS Admin');
    expect(screen.getByText(texts.total(2))).toBeInTheDocument();
    expect(sent).toEqual([
      { email: 'nobody@example.com', courseId: python._id },
      { email: 'neha@example.com', courseId: python._id },
      { email: 'neha@example.com', courseId: python._id },
    ]);
  });

  it('asks before revoking; Cancel sends nothing; once revoked the row says since when and offers Restore, which asks too', async () => {
    let current = earned;
    const sent: { url: string; body: unknown }[] = [];
    const revocation = (init: RequestInit) => {
      const body = JSON.parse(init.body as string) as { revoked: boolean };
      sent.push({ url: 'revocation', body });
      current = { ...current, revokedAt: body.revoked ? '2026-11-27T12:00:00.000Z' : null };
      return { body: { success: true, message: answers.certificateRevocation(body.revoked), certificate: current } };
    };
    stubApi({
      ...coursesAnswer,
      [listKey('page=1&limit=50')]: () => listed([current]),
      [`PUT /api/v1/admin/certificates/${earned.code}/revocation`]: revocation,
    });
    const { user } = open();
    let row = await rowOf('Asha Verma');

    await user.click(within(row).getByRole('button', { name: 'Revoke the certificate of Asha Verma for JavaScript' }));
    let dialog = screen.getByRole('dialog', { name: texts.revokeTitle });
    expect(dialog).toHaveTextContent(texts.revokeBody('Asha Verma', 'JavaScript'));
    await user.click(within(dialog).getByRole('button', { name: texts.cancel }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual([]);
    expect(row).toHaveTextContent('Ready');

    await user.click(within(row).getByRole('button', { name: 'Revoke the certificate of Asha Verma for JavaScript' }));
    dialog = screen.getByRole('dialog', { name: texts.revokeTitle });
    await user.click(within(dialog).getByRole('button', { name: texts.revoke }));
    expect(await findToast(answers.certificateRevocation(true))).toBeInTheDocument();
    await waitFor(() => expect(rowNow('Asha Verma')).toHaveTextContent(`Revoked on ${day('2026-11-27T12:00:00.000Z')}`));
    expect(sent).toEqual([{ url: 'revocation', body: { revoked: true } }]);

    row = await rowOf('Asha Verma');
    await user.click(within(row).getByRole('button', { name: 'Restore the certificate of Asha Verma for JavaScript' }));
    dialog = screen.getByRole('dialog', { name: texts.restoreTitle });
    await user.click(within(dialog).getByRole('button', { name: texts.restore }));
    expect(await findToast(answers.certificateRevocation(false))).toBeInTheDocument();
    await waitFor(() => expect(rowNow('Asha Verma')).toHaveTextContent('Ready'));
    expect(sent).toEqual([
      { url: 'revocation', body: { revoked: true } },
      { url: 'revocation', body: { revoked: false } },
    ]);
  });

  it('shows 50 a page with the total, and moves between pages, the course filter kept', async () => {
    const many = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        certificate(1, {
          _id: `40000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`,
          learner: { _id: `10000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`, fullName: `Learner ${from + i}`, email: `l${from + i}@example.com` },
        }),
      );
    const calls = stubApi({
      ...coursesAnswer,
      [listKey('page=1&limit=50')]: listed([earned, byHand]),
      [listKey(`courseId=${javascript._id}&page=1&limit=50`)]: listed(many(1, 50), 120),
      [listKey(`courseId=${javascript._id}&page=2&limit=50`)]: listed(many(51, 50), 120),
      [listKey(`courseId=${javascript._id}&page=3&limit=50`)]: listed(many(101, 20), 120),
      [listKey(`courseId=${javascript._id}&page=9&limit=50`)]: listed([], 120),
    });
    const { user, router } = open();
    await rowOf('Ravi Kumar');
    await screen.findByRole('option', { name: 'JavaScript' });
    await user.selectOptions(screen.getByLabelText(texts.course), 'JavaScript');

    expect(await screen.findByText(texts.total(120))).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: texts.pagination });
    expect(pages).toHaveTextContent('Page 1 of 3');
    expect(within(pages).getByRole('button', { name: /Previous/ })).toBeDisabled();
    expect(within(await table()).getAllByRole('row')).toHaveLength(51);

    await user.click(within(pages).getByRole('button', { name: /Next/ }));
    expect(await rowOf('Learner 51')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: texts.pagination })).toHaveTextContent('Page 2 of 3');
    expect(router.state.location.search).toBe(`?course=${javascript._id}&page=2`);

    await user.click(within(screen.getByRole('navigation', { name: texts.pagination })).getByRole('button', { name: /Next/ }));
    expect(await rowOf('Learner 120')).toBeInTheDocument();
    expect(within(await table()).getAllByRole('row')).toHaveLength(21);
    expect(within(screen.getByRole('navigation', { name: texts.pagination })).getByRole('button', { name: /Next/ })).toBeDisabled();

    await user.click(within(screen.getByRole('navigation', { name: texts.pagination })).getByRole('button', { name: /Previous/ }));
    expect(await rowOf('Learner 100')).toBeInTheDocument();
    // Each page asked for once, of that course, 50 at a time (page 2 again comes from the cache).
    const asked = calls.filter((call) => call.url.includes('courseId=')).map((call) => new URL(call.url, 'http://localhost').searchParams);
    expect(asked.map((query) => [query.get('courseId'), query.get('page'), query.get('limit')])).toEqual([
      [javascript._id, '1', '50'],
      [javascript._id, '2', '50'],
      [javascript._id, '3', '50'],
    ]);

    // An old link past the last page leads to the last page, not to "none yet".
    await router.navigate(`/admin/certificates?course=${javascript._id}&page=9`);
    await waitFor(() => expect(router.state.location.search).toBe(`?course=${javascript._id}&page=3`));
    expect(await rowOf('Learner 120')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: texts.emptyCourse })).not.toBeInTheDocument();
  });
});
