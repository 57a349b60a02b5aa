import { certificateCodeForDisplay, readCertificateCode, type VerifiedCertificate } from '@lms/contract/certificates';
import { useId, useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useSite } from '../../lib/site';
import { usePageTitle } from '../../lib/use-page-title';
import { useVerifyCertificateQuery } from './certificates.api';
import { certificatesTexts as texts, formatLongDate } from './certificates-texts';
import { certificatePagePath } from './CertificateActions';

/**
 * A certificate's public page: what an employer sees from a learner's LinkedIn. Valid, revoked (with
 * the date), or not found for a code no certificate has (an altered one too); each says so in words
 * and with its own mark, never by colour alone. No login: anyone may verify a certificate.
 */
export default function CertificatePage() {
  const { code: typed = '' } = useParams();
  const code = readCertificateCode(typed);
  const answer = useVerifyCertificateQuery(code ?? '', { skip: !code });
  const certificate = answer.currentData?.certificate;
  // A 404 (or a code that reads as none) is the answer "not found"; anything else failed to check.
  const notFound = !code || (answer.isError && 'status' in answer.error && answer.error.status === 404);
  const failed = answer.isError && !notFound;
  usePageTitle(certificate ? texts.pageTitle(certificate.name, certificate.courseTitle) : notFound ? texts.notFound : failed ? texts.verifyHeading : undefined);

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">
      {certificate ? (
        <VerifiedView certificate={certificate} />
      ) : notFound ? (
        <StatusHeader tone="notFound" title={texts.notFound} lead={texts.notFoundLead}>
          {typed && (
            <p className="mt-3 text-sm text-base-content/80">
              {texts.youEntered} <span className="block font-mono wrap-anywhere text-base-content">{typed}</span>
            </p>
          )}
        </StatusHeader>
      ) : failed ? (
        <div role="alert" className="alert alert-warning flex flex-wrap">
          <span>{texts.loadFailed}</span>
          <button type="button" className="btn btn-sm" onClick={() => void answer.refetch()}>
            {texts.tryAgain}
          </button>
        </div>
      ) : (
        <div aria-busy="true" className="space-y-4">
          <span className="sr-only" role="status">
            {texts.checking}
          </span>
          <div className="skeleton h-28 w-full rounded-box" aria-hidden="true" />
          <div className="skeleton h-80 w-full rounded-box" aria-hidden="true" />
        </div>
      )}
      <VerifyForm className="mt-10" heading={certificate ? texts.verifyAnotherHeading : texts.verifyHeading} />
    </div>
  );
}

type Tone = 'valid' | 'revoked' | 'notFound';
const tones: Record<Tone, { box: string; mark: string; path: ReactNode }> = {
  valid: {
    box: 'border-success/40 bg-success/10',
    mark: 'bg-success text-success-content',
    path: <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />,
  },
  revoked: {
    box: 'border-error/50 bg-error/10',
    mark: 'bg-error text-error-content',
    path: <path d="M7 7l10 10M17 7 7 17" strokeLinecap="round" />,
  },
  notFound: {
    box: 'border-warning/60 bg-warning/10',
    mark: 'bg-warning text-warning-content',
    path: <path d="M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6v.6M12 17.5h.01" strokeLinecap="round" strokeLinejoin="round" />,
  },
};

/** The page's heading: what the check found, in words, with its mark (a check, a cross, a question mark). */
function StatusHeader({ tone, title, lead, children }: { tone: Tone; title: string; lead: ReactNode; children?: ReactNode }) {
  const { box, mark, path } = tones[tone];
  return (
    <header className={`flex items-start gap-4 rounded-box border p-5 sm:p-6 ${box}`}>
      <span className={`grid size-12 shrink-0 place-items-center rounded-full ${mark}`}>
        <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true">
          {path}
        </svg>
      </span>
      <div className="min-w-0">
        <h1 className="text-2xl font-bold sm:text-3xl">{title}</h1>
        <div className="mt-1 text-base-content/80">{lead}</div>
        {children}
      </div>
    </header>
  );
}

function VerifiedView({ certificate }: { certificate: VerifiedCertificate }) {
  const site = useSite();
  const revoked = certificate.revokedAt !== null;
  const issued = formatLongDate(certificate.issuedAt);
  // The site's logo beside the issuer, when the issuer is this site (the name it had when it issued).
  const logo = site.logo && site.name === certificate.issuer ? site.logo : null;
  return (
    <article className="space-y-6">
      <div>
        {revoked ? (
          <StatusHeader
            tone="revoked"
            title={texts.revoked}
            lead={
              <>
                <strong className="font-semibold text-base-content">{texts.revokedOn(formatLongDate(certificate.revokedAt!))}</strong>. {texts.revokedLead}
              </>
            }
          />
        ) : (
          <StatusHeader tone="valid" title={texts.valid} lead={texts.validLead(certificate.issuer)} />
        )}
      </div>

      {/* The certificate as printed: a framed sheet; once revoked, stamped so and the name struck through (not faded: the text stays readable). */}
      <section aria-label={texts.certificateOf} className={`relative overflow-hidden rounded-box border border-base-content/10 bg-base-100 shadow-lg`}>
        <div className={`h-1.5 ${revoked ? 'bg-error' : 'bg-primary'}`} aria-hidden="true" />
        <div className="m-3 rounded-[calc(var(--radius-box)-4px)] border border-primary/25 px-5 py-8 text-center sm:m-4 sm:px-10 sm:py-12">
          {revoked && (
            <p className="mb-4">
              {/* The word in the text colour (red text on a pale red fails contrast); the border and the dot carry the colour. */}
              <span className="badge gap-1.5 border-error/70 bg-base-100 font-semibold tracking-wide uppercase">
                <span className="size-2 rounded-full bg-error" aria-hidden="true" />
                {texts.revokedBadge}
              </span>
            </p>
          )}
          <p className="text-xs font-semibold tracking-[0.2em] text-primary uppercase">{texts.certificateOf}</p>
          <p className="mt-6 text-sm text-base-content/70">{texts.certifies}</p>
          <p className={`mt-2 font-serif text-3xl font-semibold wrap-anywhere sm:text-4xl ${revoked ? 'line-through decoration-error/70' : ''}`}>
            {certificate.name}
          </p>
          <p className="mt-4 text-sm text-base-content/70">{texts.completed}</p>
          <p className="mt-2 text-xl font-semibold text-balance wrap-anywhere sm:text-2xl">{certificate.courseTitle}</p>
          <dl className="mx-auto mt-8 grid max-w-xl grid-cols-1 gap-x-6 gap-y-4 border-t border-base-content/10 pt-6 text-left sm:grid-cols-2">
            <Fact term={texts.instructor}>{certificate.instructor}</Fact>
            <Fact term={texts.issuedOn}>
              <time dateTime={certificate.issuedAt}>{issued}</time>
            </Fact>
            <Fact term={texts.issuedBy}>
              <span className="flex items-center gap-2">
                {logo && <img src={logo.url} width={logo.width} height={logo.height} alt="" className="h-6 w-auto max-w-24 shrink-0 object-contain" />}
                <span className="min-w-0 wrap-anywhere">{certificate.issuer}</span>
              </span>
            </Fact>
            <Fact term={texts.code}>
              <span className="font-mono tracking-wider whitespace-nowrap">{certificateCodeForDisplay(certificate.code)}</span>
            </Fact>
          </dl>
        </div>
      </section>
    </article>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-base-content/70 uppercase">{term}</dt>
      <dd className="mt-1 font-medium wrap-anywhere">{children}</dd>
    </div>
  );
}

/** A code typed by hand (from a printed certificate): normalised, checked, then its page. */
function VerifyForm({ heading, className = '' }: { heading: string; className?: string }) {
  const navigate = useNavigate();
  const headingId = useId();
  const inputId = useId();
  const errorId = useId();
  const hintId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState('');

  function onSubmit(event: React.FormEvent) {
    event.preventDefault();
    const code = readCertificateCode(text.trim());
    if (!code) {
      setError(texts.codeInvalid);
      return;
    }
    setError('');
    setText('');
    void navigate(certificatePagePath(code));
  }

  return (
    <section aria-labelledby={headingId} className={`rounded-box bg-base-200 p-5 sm:p-6 ${className}`}>
      <h2 id={headingId} className="text-lg font-semibold">
        {heading}
      </h2>
      <form noValidate onSubmit={onSubmit} className="mt-3">
        <label htmlFor={inputId} className="text-sm font-medium">
          {texts.codeLabel}
        </label>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row">
          <input
            id={inputId}
            className={`input w-full font-mono tracking-wider uppercase placeholder:normal-case sm:flex-1 ${error ? 'input-error' : ''}`}
            value={text}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
            placeholder="XXXX-XXXX-XXXX-XXXX"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            onChange={(event) => {
              setText(event.target.value);
              if (error) setError('');
            }}
          />
          <button type="submit" className="btn btn-primary">
            {texts.verify}
          </button>
        </div>
        {error ? (
          <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-error">
            {error}
          </p>
        ) : null}
        <p id={hintId} className="mt-2 text-xs text-base-content/70">
          {texts.codeHint}
        </p>
      </form>
    </section>
  );
}
