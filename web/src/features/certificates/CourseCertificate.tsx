import { useEffect, useId, useRef, useState } from 'react';
import { useGetCourseProgressQuery } from '../progress';
import { CertificateActions } from './CertificateActions';
import { useGetCourseCertificateQuery } from './certificates.api';
import { certificatesTexts as texts, formatLongDate } from './certificates-texts';

const ISSUING_POLL_MS = 3000;

/**
 * On the lecture page, for a signed-in learner: their certificate of the course once earned, else how
 * many lectures are left to earn it. Nothing for a course without lectures.
 */
export function CourseCertificate({ courseId, className = '' }: { courseId: string; className?: string }) {
  const headingId = useId();
  const [issuing, setIssuing] = useState(false);
  const answer = useGetCourseCertificateQuery(courseId, { pollingInterval: issuing ? ISSUING_POLL_MS : 0 });
  const certificate = answer.currentData?.certificate ?? null;
  const nowIssuing = certificate?.state === 'issuing';
  useEffect(() => setIssuing(nowIssuing), [nowIssuing]);

  // The lecture page's own progress (the same cached answer): a lecture marked completed, or not, may
  // earn the certificate, so its standing is read again when the count moves.
  const completed = useGetCourseProgressQuery(courseId).currentData?.course?.completedLectures;
  const seen = useRef(completed);
  const { refetch } = answer;
  useEffect(() => {
    if (completed === seen.current) return;
    const first = seen.current === undefined;
    seen.current = completed;
    if (!first) void refetch();
  }, [completed, refetch]);

  if (!answer.currentData) return null;
  const { lecturesCompleted, lectures } = answer.currentData.requirements;
  if (!certificate && lectures === 0) return null;

  return (
    <section aria-labelledby={headingId} className={`rounded-box bg-base-100 p-4 shadow-sm ring-1 ring-base-content/10 sm:p-5 ${className}`}>
      <div className="flex items-start gap-3">
        <span
          className={`grid size-10 shrink-0 place-items-center rounded-full ${certificate ? 'bg-success text-success-content' : 'bg-primary/10 text-primary'}`}
          aria-hidden="true"
        >
          {/* A rosette: the certificate's mark. */}
          <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2">
            <circle cx="12" cy="9" r="6" />
            <path d="M8.5 14 7 22l5-3 5 3-1.5-8" strokeLinejoin="round" />
            {certificate && <path d="m9.5 9 1.8 1.8L14.8 7.3" strokeLinecap="round" strokeLinejoin="round" />}
          </svg>
        </span>
        <div className="min-w-0 flex-1 space-y-3">
          <div>
            <h2 id={headingId} className="text-lg font-semibold">
              {certificate ? texts.earnedHeading : texts.earnHeading}
            </h2>
            <p className="text-sm text-base-content/80 wrap-anywhere">{certificate ? texts.earnedLead(certificate.courseTitle) : texts.earnLead}</p>
          </div>
          {certificate?.revokedAt ? (
            <p className="text-sm font-medium">{texts.revokedOn(formatLongDate(certificate.revokedAt))}</p>
          ) : certificate ? (
            <CertificateActions certificate={certificate} onBeingMade={() => void refetch()} />
          ) : (
            <div className="max-w-md space-y-1">
              <p className="text-sm font-medium tabular-nums">{texts.lecturesCompleted(lecturesCompleted, lectures)}</p>
              <progress className="progress progress-primary w-full" value={lecturesCompleted} max={lectures} aria-label={texts.progressLabel} />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
