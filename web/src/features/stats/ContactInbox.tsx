import { useId } from 'react';
import { useGetContactMessagesQuery } from './stats.api';

/** Texts of the inbox, which the spec does not have. */
const texts = {
  heading: 'Messages',
  loading: 'Loading messages…',
  empty: 'No messages yet. What visitors send through the contact form shows up here.',
  failed: 'The messages could not be loaded.',
  shown: (count: number, total: number) => `The newest ${count} of ${total} messages.`,
};

export const INBOX_LIMIT = 20;

const dateFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

/** The newest contact messages (every field of the contact form is stored, for the admin to read). */
export function ContactInbox() {
  const headingId = useId();
  const answer = useGetContactMessagesQuery(INBOX_LIMIT);
  const inbox = answer.currentData
    ? { state: 'ready' as const, page: answer.currentData }
    : { state: answer.isError ? ('failed' as const) : ('loading' as const) };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-2xl font-semibold">
        {texts.heading}
      </h2>
      {inbox.state === 'loading' && <p aria-busy="true">{texts.loading}</p>}
      {inbox.state === 'failed' && <p className="text-error">{texts.failed}</p>}
      {inbox.state === 'ready' && inbox.page.messages.length === 0 && <p className="text-base-content/70">{texts.empty}</p>}
      {inbox.state === 'ready' && inbox.page.messages.length > 0 && (
        <>
          {inbox.page.total > inbox.page.messages.length && (
            <p className="text-sm text-base-content/70">{texts.shown(inbox.page.messages.length, inbox.page.total)}</p>
          )}
          <ul className="flex flex-col gap-3">
            {inbox.page.messages.map((item) => (
              <li key={item._id}>
                <article className="rounded-box bg-base-200 p-4">
                  <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                    <h3 className="min-w-0 font-semibold wrap-anywhere">{item.name}</h3>
                    <a href={`mailto:${item.email}`} className="link link-primary break-all">
                      {item.email}
                    </a>
                    <time dateTime={item.createdAt} className="text-sm text-base-content/70 sm:ml-auto">
                      {dateFormat.format(new Date(item.createdAt))}
                    </time>
                  </header>
                  <p className="mt-2 whitespace-pre-line wrap-anywhere">{item.message}</p>
                </article>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
