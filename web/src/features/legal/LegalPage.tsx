import type { LegalPage as LegalPageName } from '@lms/contract/settings';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { usePageTitle } from '../../lib/use-page-title';
import { useAuth } from '../auth';
import { legalTexts } from './legal-texts';
import { useGetLegalPageQuery } from './legal.api';
import { Markdown, splitHeading } from './Markdown';

// The editor is for administrators only: visitors never download it.
const LegalPageEditor = lazy(() => import('./LegalPageEditor'));

/**
 * One of the seller's legal pages (terms, privacy, refund policy), as the seller wrote it in Markdown,
 * or the starting template until they do. An administrator sees whether it is still the template and
 * edits it in place; visitors see the text alone.
 */
export function LegalPage({ page }: { page: LegalPageName }) {
  const title = legalTexts.title[page];
  usePageTitle(title);
  const isAdmin = useAuth((auth) => auth.isLoggedIn && auth.role === 'ADMIN');
  const { data, isLoading, isError, refetch } = useGetLegalPageQuery(page);
  const [editing, setEditing] = useState(false);

  if (isLoading) {
    return (
      <Frame>
        <div role="status" aria-label={legalTexts.loading} className="flex flex-col gap-4">
          <div className="skeleton h-10 w-2/3" />
          <div className="skeleton h-4 w-full" />
          <div className="skeleton h-4 w-full" />
          <div className="skeleton h-4 w-4/5" />
        </div>
      </Frame>
    );
  }
  if (isError || !data) {
    return (
      <Frame>
        <h1 className="text-3xl font-bold">{title}</h1>
        <div className="mt-6 rounded-box bg-base-200 p-6 text-center">
          <p>{legalTexts.failed}</p>
          <button type="button" className="btn btn-outline btn-sm mt-4" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      </Frame>
    );
  }

  const { markdown, template } = data.page;
  if (isAdmin && editing) {
    return (
      <Suspense fallback={<Frame>{null}</Frame>}>
        <LegalPageEditor page={page} title={title} markdown={markdown} template={template} onClose={() => setEditing(false)} />
      </Suspense>
    );
  }
  return (
    <Frame>
      {isAdmin && (
        <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          {template ? (
            <div role="note" className="rounded-box border border-warning/60 bg-warning/10 p-3 text-sm sm:max-w-lg">
              <strong className="block">{legalTexts.template}</strong>
              {legalTexts.templateHint}
            </div>
          ) : (
            <span />
          )}
          <button type="button" className="btn btn-primary btn-sm shrink-0 self-start" onClick={() => setEditing(true)}>
            {legalTexts.edit}
          </button>
        </div>
      )}
      <LegalArticle markdown={markdown} title={title} />
    </Frame>
  );
}

/** The page's text with its heading: what visitors see and the editor previews. */
export function LegalArticle({ markdown, title }: { markdown: string; title: string }) {
  const { heading, body } = splitHeading(markdown, title);
  return (
    <article>
      <h1 className="text-3xl font-bold leading-tight break-words sm:text-4xl">{heading}</h1>
      <div className="mt-6">
        <Markdown>{body}</Markdown>
      </div>
    </article>
  );
}

/** A readable column, as long text wants. */
function Frame({ children }: { children: ReactNode }) {
  return <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:py-12">{children}</div>;
}
