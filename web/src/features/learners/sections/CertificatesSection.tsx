import { certificateCodeForDisplay } from '@lms/contract/certificates';
import type { LearnerDetail } from '@lms/contract/learners';
import { generatePath, Link } from 'react-router';
import { formatDate } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { learnersTexts as texts } from '../learners-texts';
import { DotBadge } from './badges';
import { Section } from './Section';

/** Certificates issued: the code links to its public page; revoked ones say since when. */
export function CertificatesSection({ learner }: { learner: LearnerDetail }) {
  return (
    <Section title={texts.certificates} empty={learner.certificates.length === 0} emptyText={texts.noCertificates}>
      <ul className="flex flex-col divide-y divide-base-300 text-sm">
        {learner.certificates.map((certificate) => (
          <li key={certificate.code} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2 first:pt-0 last:pb-0">
            <div className="min-w-40 flex-1">
              <p className="font-medium wrap-anywhere">{certificate.courseTitle}</p>
              <p className="text-base-content/70">
                <Link to={generatePath(paths.certificate, { code: certificate.code })} className="link font-mono">
                  {certificateCodeForDisplay(certificate.code)}
                </Link>{' '}
                · {texts.issued} {formatDate(certificate.issuedAt)}
              </p>
            </div>
            {certificate.revokedAt ? (
              <DotBadge dot="bg-error">{texts.revokedOn(formatDate(certificate.revokedAt) ?? '')}</DotBadge>
            ) : (
              <DotBadge dot="bg-success">{texts.valid}</DotBadge>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}
