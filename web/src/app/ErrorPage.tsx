import { messages } from '@lms/contract/messages';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from '../lib/paths';
import { usePageTitle } from '../lib/use-page-title';

/** An uncaught route error shows a screen titled 'Unexpected Application Error!'. */
export function ErrorPage() {
  const error = useRouteError();
  usePageTitle(messages.unexpectedError);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : error instanceof Error ? error.message : String(error);
  return (
    <main className="flex min-h-page flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-3xl font-bold">{messages.unexpectedError}</h1>
      <p className="max-w-prose opacity-80">{detail}</p>
      <Link to={paths.home} className="btn btn-primary">
        {messages.goHome}
      </Link>
    </main>
  );
}
