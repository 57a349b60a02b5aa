import type { Certificate } from '@lms/contract/certificates';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { certificatePdfHref, downloadCertificate } from './certificates.api';
import { certificatesTexts } from './certificates-texts';

/** The public page of a certificate, within the site. */
export const certificatePagePath = (code: string) => paths.certificate.replace(':code', encodeURIComponent(code));

const icon = { viewBox: '0 0 24 24', width: 16, height: 16, fill: 'none', stroke: 'currentColor', strokeWidth: 2, 'aria-hidden': true } as const;

/**
 * What a learner does with a certificate: download its PDF (the one primary action), add it to
 * LinkedIn, copy the link that verifies it, view its public page. `onBeingMade` reads the
 * certificates again when the PDF turned out to be still in the making.
 */
export function CertificateActions({ certificate, onBeingMade }: { certificate: Certificate; onBeingMade: () => void }) {
  const [downloading, setDownloading] = useState(false);
  const [beingMade, setBeingMade] = useState(false);
  const [copyYourself, setCopyYourself] = useState(false);
  const course = certificate.courseTitle;
  const issuing = certificate.state === 'issuing';

  async function onDownload(event: React.MouseEvent) {
    event.preventDefault();
    setDownloading(true);
    const result = await downloadCertificate(certificate.code);
    setDownloading(false);
    setBeingMade(result === 'being-made');
    if (result === 'being-made') onBeingMade();
    if (result === 'failed') toast.error(certificatesTexts.downloadFailed);
  }

  async function onCopy() {
    try {
      await navigator.clipboard.writeText(certificate.verifyUrl);
      toast.success(certificatesTexts.linkCopied);
      setCopyYourself(false);
    } catch {
      // No clipboard (an insecure page, a refused permission): the link to select and copy by hand.
      setCopyYourself(true);
    }
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        {issuing ? (
          <span className="btn btn-sm btn-disabled gap-2" aria-disabled="true">
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            {certificatesTexts.beingMade}
          </span>
        ) : (
          <a href={certificatePdfHref(certificate.code)} className="btn btn-primary btn-sm" aria-busy={downloading} onClick={(event) => void onDownload(event)}>
            {downloading ? (
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            ) : (
              <svg {...icon}>
                <path d="M12 4v11m0 0-4-4m4 4 4-4M5 19h14" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            )}
            {certificatesTexts.downloadPdf}
            <Also course={course} />
          </a>
        )}
        <a href={certificate.linkedInUrl} target="_blank" rel="noopener noreferrer" className="btn btn-outline btn-sm">
          <svg viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true">
            <path d="M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.75h4v11H3zm6.5 0h3.8v1.5h.06c.53-1 1.83-2.06 3.77-2.06 4.03 0 4.77 2.65 4.77 6.1v5.46h-4v-4.84c0-1.16-.02-2.65-1.61-2.65-1.62 0-1.87 1.26-1.87 2.56v4.93h-4z" />
          </svg>
          {certificatesTexts.addToLinkedIn}
          <Also course={course} newTab />
        </a>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void onCopy()}>
          <svg {...icon}>
            <path d="M10 14a4 4 0 0 0 5.66 0l3-3a4 4 0 0 0-5.66-5.66l-1 1M14 10a4 4 0 0 0-5.66 0l-3 3a4 4 0 0 0 5.66 5.66l1-1" strokeLinecap="round" />
          </svg>
          {certificatesTexts.copyLink}
          <Also course={course} />
        </button>
        <Link to={certificatePagePath(certificate.code)} className="btn btn-ghost btn-sm">
          <svg {...icon}>
            <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
            <circle cx="12" cy="12" r="3" />
          </svg>
          {certificatesTexts.view}
          <Also course={course} />
        </Link>
      </div>
      {(issuing || beingMade) && (
        <p role="status" className="text-sm text-base-content/80">
          {certificatesTexts.stillBeingMade}
        </p>
      )}
      {copyYourself && (
        <label className="block text-sm">
          <span className="mb-1 block text-base-content/80">{certificatesTexts.copyYourself}</span>
          <input
            readOnly
            className="input input-sm w-full font-mono text-xs"
            value={certificate.verifyUrl}
            aria-label={certificatesTexts.shareLink}
            onFocus={(event) => event.target.select()}
            ref={(element) => element?.select()}
          />
        </label>
      )}
    </div>
  );
}

/** The course an action is about, for screen readers only: the visible words stay first in its name (as a voice command says them). */
function Also({ course, newTab = false }: { course: string; newTab?: boolean }) {
  return (
    <span className="sr-only">
      {certificatesTexts.ofCourse(course)}
      {newTab && certificatesTexts.newTab}
    </span>
  );
}
