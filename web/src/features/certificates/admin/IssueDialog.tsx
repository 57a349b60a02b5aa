import { IssueCertificateSchema } from '@lms/contract/certificates';
import type { Course } from '@lms/contract/courses';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { isServerError } from '../../../lib/server-state';
import { certificatesAdminTexts as texts } from './certificates-admin-texts';
import { useIssueCertificateMutation } from './certificates-admin.api';

interface Props {
  courses: Course[];
  coursesLoading: boolean;
  /** The course the list is filtered on, chosen to begin with. */
  courseId?: string;
  /** The dialog has closed (issued, cancelled, Escape or a click outside): the page unmounts it. */
  onClose: () => void;
}

/**
 * Issuing a certificate by hand, in a modal dialog open while mounted: the learner's email and the
 * course. A refusal (no account has the email, they already have one) is said under the fields and
 * keeps what was typed; once issued, the toast says so and the list shows it.
 */
export function IssueDialog({ courses, coursesLoading, courseId, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const emailId = useId();
  const courseFieldId = useId();
  const errorId = useId();
  const [email, setEmail] = useState('');
  const [course, setCourse] = useState(courseId && courses.some((item) => item._id === courseId) ? courseId : '');
  const [error, setError] = useState<string | null>(null);
  const [issue, state] = useIssueCertificateMutation();
  const busy = state.isLoading;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);

  // The browser's own close gives focus back to the button that opened the dialog.
  const close = () => {
    dialog.current?.close();
    onClose();
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const check = IssueCertificateSchema.safeParse({ email, courseId: course });
    if (!check.success) {
      setError(course === '' && check.error.issues.every((issue) => issue.path[0] === 'courseId') ? texts.chooseCourse : check.error.issues[0]!.message);
      return;
    }
    try {
      await issue(check.data).unwrap();
      close();
    } catch (refusal) {
      if (isServerError(refusal)) setError(refusal.message);
    }
  }

  const described = error ? errorId : undefined;

  return (
    <dialog ref={dialog} className="modal modal-bottom sm:modal-middle" aria-labelledby={titleId} onClose={onClose}>
      <div className="modal-box sm:max-w-lg">
        <h2 id={titleId} className="text-xl font-bold">
          {texts.issueTitle}
        </h2>
        <p className="mt-1 text-sm text-base-content/80">{texts.issueIntro}</p>
        <form noValidate onSubmit={(event) => void submit(event)} className="mt-2 flex flex-col">
          <div className="fieldset">
            <label htmlFor={emailId} className="fieldset-legend text-sm">
              {texts.email}
            </label>
            <input
              id={emailId}
              type="email"
              className={`input w-full ${error ? 'input-error' : ''}`}
              value={email}
              autoComplete="off"
              spellCheck={false}
              maxLength={254}
              required
              aria-invalid={error !== null}
              aria-describedby={[`${emailId}-hint`, described].filter(Boolean).join(' ')}
              onChange={(event) => {
                setEmail(event.target.value);
                setError(null);
              }}
            />
            <p id={`${emailId}-hint`} className="label whitespace-normal">
              {texts.emailHint}
            </p>
          </div>
          <div className="fieldset">
            <label htmlFor={courseFieldId} className="fieldset-legend text-sm">
              {texts.course}
            </label>
            <select
              id={courseFieldId}
              className="select w-full"
              value={course}
              required
              aria-describedby={described}
              onChange={(event) => {
                setCourse(event.target.value);
                setError(null);
              }}
            >
              <option value="" disabled>
                {coursesLoading ? texts.coursesLoading : texts.chooseCourse}
              </option>
              {courses.map((item) => (
                <option key={item._id} value={item._id}>
                  {item.title}
                </option>
              ))}
            </select>
          </div>
          {error && (
            <p id={errorId} role="alert" className="mt-3 flex items-start gap-2 rounded-box bg-error/10 px-3 py-2 text-sm text-base-content">
              <svg
                viewBox="0 0 24 24"
                width="18"
                height="18"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                className="mt-px shrink-0 text-error"
                aria-hidden="true"
              >
                <circle cx="12" cy="12" r="9" />
                <path d="M12 7v6M12 16.5v.5" />
              </svg>
              <span>{error}</span>
            </p>
          )}
          <div className="modal-action flex-wrap">
            <button type="button" className="btn btn-ghost" onClick={close} disabled={busy}>
              {texts.cancel}
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
              {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {texts.issue}
            </button>
          </div>
        </form>
      </div>
      {/* A click outside the box closes the dialog, as Escape does. */}
      <form method="dialog" className="modal-backdrop">
        <button disabled={busy}>{texts.close}</button>
      </form>
    </dialog>
  );
}
