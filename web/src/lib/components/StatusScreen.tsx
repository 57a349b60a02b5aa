import { messages } from '@lms/contract/messages';
import { Link } from 'react-router';

/** A full-page status (404, 403): the code large, the title as the heading, and a way home. */
export function StatusScreen({ code, title }: { code: number; title: string }) {
  return (
    <section className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-8xl font-extrabold tracking-widest" aria-hidden="true">
        {code}
      </p>
      <h1 className="text-2xl font-bold">{title}</h1>
      <Link to="/" className="btn btn-primary">
        {messages.goHome}
      </Link>
    </section>
  );
}
