import { answers } from '@lms/contract/answers';
import { EmailChangeTokenParamsSchema } from '@lms/contract/learners';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { FormCard } from '../../lib/components/FormCard';
import { SubmitButton } from '../../lib/components/SubmitButton';
import { paths } from '../../lib/paths';
import { isServerError } from '../../lib/server-state';
import { usePageTitle } from '../../lib/use-page-title';
import { useConfirmEmailMutation } from './email-change.api';
import { emailChangeTexts as texts } from './email-change-texts';

/**
 * The page the link mailed to a new address opens. It confirms when the person presses the
 * button, never on opening: mail scanners open every link in a mail, and one that confirmed on
 * opening would be spent before its owner saw it. Confirming ends every session, so what
 * follows is logging in with the new email.
 */
export default function ConfirmEmailPage() {
  const { token = '' } = useParams();
  const [confirm, state] = useConfirmEmailMutation();
  const [answer, setAnswer] = useState<string>();
  const [refusal, setRefusal] = useState<{ message: string; final: boolean }>();
  usePageTitle(texts.title);

  const logIn = (
    <Link to={paths.login} className="btn btn-primary">
      {texts.logIn}
    </Link>
  );

  if (answer) {
    return (
      <FormCard title={texts.title}>
        <p role="status" className="alert alert-success">
          {answer}
        </p>
        {logIn}
      </FormCard>
    );
  }
  // A link that cannot be one, or one the server refused for good, is answered without a button that would only fail.
  const isWellFormed = EmailChangeTokenParamsSchema.safeParse({ token }).success;
  if (!isWellFormed || refusal?.final) {
    return (
      <FormCard title={texts.title}>
        <p role="alert" className="alert alert-error">
          {refusal?.message ?? answers.emailChangeLinkInvalid}
        </p>
        {logIn}
      </FormCard>
    );
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.isLoading) return;
    setRefusal(undefined);
    try {
      setAnswer((await confirm(token).unwrap()).message);
    } catch (error) {
      if (!isServerError(error)) throw error;
      // A used or expired link stays so, as does an address taken meanwhile; anything else (too many tries, no connection) may pass later.
      setRefusal({ message: error.message, final: error.status === 400 || error.status === 404 || error.status === 409 });
    }
  }

  return (
    <FormCard title={texts.title}>
      <p>{texts.intro}</p>
      {refusal && (
        <p role="alert" className="alert alert-error">
          {refusal.message}
        </p>
      )}
      <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
        <SubmitButton busy={state.isLoading}>{texts.submit}</SubmitButton>
      </form>
    </FormCard>
  );
}
