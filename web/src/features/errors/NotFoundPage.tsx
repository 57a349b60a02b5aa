import { messages } from '@lms/contract/messages';
import { Link } from 'react-router';
import { paths } from '../../app/paths';

export default function NotFoundPage() {
  return (
    <section className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-8xl font-extrabold tracking-widest" aria-hidden="true">404</p>
      <h1 className="text-2xl font-bold">{messages.pageNotFound}</h1>
      <Link to={paths.home} className="btn btn-primary">{messages.goHome}</Link>
    </section>
  );
}
