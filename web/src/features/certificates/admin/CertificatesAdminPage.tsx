import { certificateCodeForDisplay, type AdminCertificate } from '@lms/contract/certificates';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { generatePath, useSearchParams } from 'react-router';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { useGetCoursesQuery } from '../../courses';
import { certificatesAdminTexts as texts } from './certificates-admin-texts';
import {
  certificatePdfUrl,
  CERTIFICATES_PAGE_SIZE,
  certificatesExportUrl,
  useGetAdminCertificatesQuery,
  useSetCertificateRevokedMutation,
} from './certificates-admin.api';
import { ConfirmRevocation, type Revocation } from './ConfirmRevocation';
import { IssueDialog } from './IssueDialog';
import { Pagination } from '../../../lib/components/Pagination';
import { AdminPageHeader } from '../../../lib/components/AdminPageHeader';
import { DownloadIcon, PlusIcon } from '../../../lib/components/icons';

/** The course filter offers the newest this many courses (the server's page limit), as the dashboard lists them. */
const COURSES_LIMIT = 100;

/** A page number from the address: a whole number from 1, else the first page. */
function pageOf(text: string | null): number {
  const page = Number(text);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * Admin only (the router guards it): the certificates issued, newest first, one course's or all, a
 * page at a time; each with its learner, the name printed, when and by whom it was issued and its
 * state, and a way to see its public page, download its PDF, and revoke or restore it. From here the
 * administrator issues one by hand and exports the list as a CSV. The course and the page are kept
 * in the address, so a reload or a link shows the same list. Cards below `lg`.
 */
export default function CertificatesAdminPage() {
  usePageTitle(texts.title);
  const [params, setParams] = useSearchParams();
  const courseId = params.get('course') ?? undefined;
  const page = pageOf(params.get('page'));
  const query = useGetAdminCertificatesQuery({ courseId, page });
  const courses = useGetCoursesQuery({ limit: COURSES_LIMIT });
  const [issuing, setIssuing] = useState(false);
  const [revocation, setRevocation] = useState<Revocation | null>(null);
  const filterId = useId();

  const answer = query.currentData;
  const total = answer?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / CERTIFICATES_PAGE_SIZE));
  const courseList = courses.data?.courses ?? [];

  function go(next: { course?: string; page?: number }, replace = false) {
    const search = new URLSearchParams();
    if (next.course) search.set('course', next.course);
    if (next.page && next.page > 1) search.set('page', String(next.page));
    setParams(search, { replace });
  }

  // A page past the last (an old link, or the last certificates of a course moved away): the last page instead.
  const pastTheEnd = answer !== undefined && answer.certificates.length === 0 && page > pages;
  useEffect(() => {
    if (pastTheEnd) go({ course: courseId, page: pages }, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pastTheEnd]);

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader
        title={texts.title}
        intro={texts.intro}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setIssuing(true)}>
            <PlusIcon />
            {texts.issue}
          </button>
        }
      />

      <div className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm sm:flex-row sm:items-end sm:justify-between">
        <div className="fieldset min-w-0 p-0 sm:w-80">
          <label htmlFor={filterId} className="fieldset-legend pt-0 text-sm">
            {texts.course}
          </label>
          <select id={filterId} className="select w-full" value={courseId ?? ''} onChange={(event) => go({ course: event.target.value })}>
            <option value="">{texts.allCourses}</option>
            {courseList.map((course) => (
              <option key={course._id} value={course._id}>
                {course.title}
              </option>
            ))}
            {/* A course no longer among the newest (or deleted) still shows as the one chosen. */}
            {courseId && courses.data && !courseList.some((course) => course._id === courseId) && (
              <option value={courseId}>{answer?.certificates[0]?.courseTitle ?? texts.course}</option>
            )}
          </select>
        </div>
        <div className="flex items-center justify-between gap-3 sm:justify-end">
          <p className="text-sm text-base-content/80 tabular-nums" aria-live="polite">
            {answer ? texts.total(total) : ''}
          </p>
          <a className="btn btn-outline btn-sm" href={certificatesExportUrl(courseId)} download title={courseId ? texts.exportCourseHint : undefined}>
            <DownloadIcon />
            {texts.exportCsv}
          </a>
        </div>
      </div>

      {answer ? (
        answer.certificates.length === 0 && total === 0 ? (
          <EmptyState filtered={courseId !== undefined} onIssue={() => setIssuing(true)} />
        ) : (
          <>
            <CertificateList certificates={answer.certificates} onRevocation={setRevocation} />
            {pages > 1 && <Pagination label={texts.pagination} page={page} pages={pages} onPage={(next) => go({ course: courseId, page: next })} />}
          </>
        )
      ) : (
        <Pending failed={query.isError && !query.isFetching} />
      )}

      {issuing && <IssueDialog courses={courseList} coursesLoading={courses.isLoading} courseId={courseId} onClose={() => setIssuing(false)} />}
      <RevocationFlow revocation={revocation} onDone={() => setRevocation(null)} />
    </div>
  );
}

/** The confirmation, then the call; the dialog stays open (busy) until the server has answered. */
function RevocationFlow({ revocation, onDone }: { revocation: Revocation | null; onDone: () => void }) {
  const [setRevoked, state] = useSetCertificateRevokedMutation();
  async function confirm() {
    if (!revocation) return;
    // A refusal is the API client's toast; the dialog closes either way, the list shows the truth.
    await setRevoked({ code: revocation.certificate.code, revoked: revocation.revoke })
      .unwrap()
      .catch(() => undefined);
    onDone();
  }
  return <ConfirmRevocation revocation={revocation} busy={state.isLoading} onCancel={onDone} onConfirm={() => void confirm()} />;
}

function Pending({ failed }: { failed: boolean }) {
  if (failed) return <p className="rounded-box bg-base-200 p-6 text-base-content/80">{texts.failed}</p>;
  return (
    <div className="flex flex-col gap-3" aria-busy="true">
      <span className="sr-only">{texts.loading}</span>
      <div className="skeleton h-24 w-full" />
      <div className="skeleton h-24 w-full" />
      <div className="skeleton h-24 w-full" />
    </div>
  );
}

function EmptyState({ filtered, onIssue }: { filtered: boolean; onIssue: () => void }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-box border border-dashed border-base-300 px-6 py-12 text-center">
      <AwardIcon className="size-10 text-base-content/40" />
      <h2 className="text-lg font-semibold">{filtered ? texts.emptyCourse : texts.empty}</h2>
      <p className="max-w-md text-base-content/80">{texts.emptyHint}</p>
      <button type="button" className="btn btn-outline btn-primary btn-sm mt-1" onClick={onIssue}>
        <PlusIcon />
        {texts.issue}
      </button>
    </div>
  );
}

interface ListProps {
  certificates: AdminCertificate[];
  onRevocation: (revocation: Revocation) => void;
}

function CertificateList({ certificates, onRevocation }: ListProps) {
  return (
    <>
      {/* Up to a laptop's width: a card per certificate, two abreast from a tablet's. */}
      <ul aria-label={texts.listLabel} className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:hidden">
        {certificates.map((certificate) => (
          <li key={certificate._id} className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-sm">
            <div className="flex items-start justify-between gap-3">
              <Learner certificate={certificate} heading />
              <StateBadge certificate={certificate} />
            </div>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
              <Detail label={texts.course} wide>
                <CourseTitle certificate={certificate} />
              </Detail>
              <Detail label={texts.namePrinted}>{certificate.name}</Detail>
              <Detail label={texts.issued}>
                <Issued certificate={certificate} />
              </Detail>
              <Detail label={texts.code} wide>
                <span className="font-mono">{certificateCodeForDisplay(certificate.code)}</span>
              </Detail>
            </dl>
            <RowActions certificate={certificate} onRevocation={onRevocation} className="mt-auto flex-wrap border-t border-base-300 pt-3" />
          </li>
        ))}
      </ul>

      {/* Wide screens: a table. */}
      <div className="hidden rounded-box border border-base-300 bg-base-100 xl:block">
        <table className="table [&_tbody_:is(td,th)]:align-top" aria-label={texts.listLabel}>
          <thead>
            <tr>
              <th scope="col">{texts.learner}</th>
              <th scope="col">{texts.course}</th>
              <th scope="col">{texts.namePrinted}</th>
              <th scope="col">{texts.issued}</th>
              <th scope="col">{texts.state}</th>
              <th scope="col">
                <span className="sr-only">{texts.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {certificates.map((certificate) => (
              <tr key={certificate._id}>
                <th scope="row" className="max-w-60 min-w-48 font-normal">
                  <Learner certificate={certificate} />
                </th>
                <td className="min-w-44">
                  <CourseTitle certificate={certificate} />
                  <span className="mt-0.5 block font-mono text-xs text-base-content/70">{certificateCodeForDisplay(certificate.code)}</span>
                </td>
                <td className="max-w-40 wrap-anywhere">{certificate.name}</td>
                <td className="whitespace-nowrap">
                  <Issued certificate={certificate} />
                </td>
                <td>
                  <StateBadge certificate={certificate} />
                </td>
                <td>
                  <RowActions certificate={certificate} onRevocation={onRevocation} className="-mt-1.5" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Learner({ certificate, heading = false }: { certificate: AdminCertificate; heading?: boolean }) {
  const Name = heading ? 'h2' : 'span';
  return (
    <div className="flex min-w-0 flex-col">
      <Name className={`font-semibold wrap-anywhere ${heading ? 'text-lg' : ''}`}>{certificate.learner.fullName}</Name>
      <span className="text-sm text-base-content/70 wrap-anywhere">
        <Email address={certificate.learner.email} />
      </span>
    </div>
  );
}

/** An email that breaks before its `@` when it must break: never in the middle of a word unless a part is too long alone. */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}

function CourseTitle({ certificate }: { certificate: AdminCertificate }) {
  return (
    <>
      <span className="block font-medium wrap-anywhere">{certificate.courseTitle}</span>
      {certificate.courseId === null && <span className="block text-xs text-base-content/70">{texts.courseDeleted}</span>}
    </>
  );
}

function Issued({ certificate }: { certificate: AdminCertificate }) {
  return (
    <>
      <time dateTime={certificate.issuedAt} className="block">
        {formatDate(certificate.issuedAt)}
      </time>
      <span className="block text-xs text-base-content/70 wrap-anywhere whitespace-normal">
        {certificate.issuedBy === null ? texts.earned : texts.issuedBy(certificate.issuedBy)}
      </span>
    </>
  );
}

function Detail({ label, wide = false, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`flex min-w-0 flex-col ${wide ? 'col-span-2' : ''}`}>
      <dt className="text-base-content/70">{label}</dt>
      <dd className="wrap-anywhere">{children}</dd>
    </div>
  );
}

/** The state in words, the colour on a dot beside it (coloured 12 px text fails contrast); a revocation with its day under it. */
function StateBadge({ certificate }: { certificate: AdminCertificate }) {
  const revokedOn = formatDate(certificate.revokedAt ?? undefined);
  const [dot, words] = revokedOn
    ? ['bg-error', texts.revoked]
    : certificate.state === 'issuing'
      ? ['bg-info animate-pulse', texts.states.issuing]
      : ['bg-success', texts.states.ready];
  return (
    <span className="flex shrink-0 flex-col items-end gap-0.5 xl:items-start">
      <span className="badge badge-sm badge-ghost gap-1.5 whitespace-nowrap">
        <span className={`size-2 shrink-0 rounded-full ${dot}`} aria-hidden="true" />
        {words}
      </span>{' '}
      {revokedOn && <span className="text-xs whitespace-nowrap text-base-content/70">{texts.revokedOnDay(revokedOn)}</span>}
    </span>
  );
}

/** View (the public page, in a new tab), the PDF (once made), and Revoke or Restore after a confirmation. */
function RowActions({
  certificate,
  onRevocation,
  className = '',
}: {
  certificate: AdminCertificate;
  onRevocation: (revocation: Revocation) => void;
  className?: string;
}) {
  const who = certificate.learner.fullName;
  const course = certificate.courseTitle;
  const revoked = certificate.revokedAt !== null;
  return (
    <div className={`flex gap-1 ${className}`}>
      <a
        className="btn btn-ghost btn-sm whitespace-nowrap"
        href={generatePath(paths.certificate, { code: certificate.code })}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={texts.viewNamed(who, course)}
      >
        <ExternalIcon />
        {texts.view}
      </a>
      {certificate.state === 'ready' ? (
        <a className="btn btn-ghost btn-sm whitespace-nowrap" href={certificatePdfUrl(certificate.code)} download aria-label={texts.pdfNamed(who, course)}>
          <DownloadIcon />
          {texts.pdf}
        </a>
      ) : (
        <button
          type="button"
          className="btn btn-ghost btn-sm whitespace-nowrap"
          disabled
          title={texts.pdfBeingMade}
          aria-label={`${texts.pdfNamed(who, course)}: ${texts.pdfBeingMade}`}
        >
          <DownloadIcon />
          {texts.pdf}
        </button>
      )}
      <button
        type="button"
        className={`btn btn-ghost btn-sm whitespace-nowrap ${revoked ? '' : 'text-error'}`}
        aria-label={revoked ? texts.restoreNamed(who, course) : texts.revokeNamed(who, course)}
        onClick={() => onRevocation({ certificate, revoke: !revoked })}
      >
        {revoked ? <RestoreIcon /> : <RevokeIcon />}
        {revoked ? texts.restore : texts.revoke}
      </button>
    </div>
  );
}

// Icons: 16 px strokes in the text's colour, as on the other admin pages.
const icon = {
  viewBox: '0 0 24 24',
  width: 16,
  height: 16,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

function ExternalIcon() {
  return (
    <svg {...icon} aria-hidden="true">
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </svg>
  );
}
function RevokeIcon() {
  return (
    <svg {...icon} aria-hidden="true">
      <circle cx="12" cy="12" r="8" />
      <path d="m6.5 6.5 11 11" />
    </svg>
  );
}
function RestoreIcon() {
  return (
    <svg {...icon} aria-hidden="true">
      <path d="M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3" />
    </svg>
  );
}
function AwardIcon({ className = '' }: { className?: string }) {
  return (
    <svg {...icon} width={40} height={40} strokeWidth={1.5} className={className} aria-hidden="true">
      <circle cx="12" cy="9" r="6" />
      <path d="M8.5 14 7 22l5-3 5 3-1.5-8" />
    </svg>
  );
}
