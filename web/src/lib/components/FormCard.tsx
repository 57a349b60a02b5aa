import { useId, type ReactNode } from 'react';

/** A centred card with the page's heading: the frame of every small form page. Full width on a phone. */
export function FormCard({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex justify-center px-4 py-8">
      <div className="card w-full max-w-md bg-base-100 shadow-xl">
        <div className="card-body gap-4 p-5 sm:p-8">
          <h1 id={headingId} className="card-title justify-center text-center text-2xl">
            {title}
          </h1>
          {children}
        </div>
      </div>
    </section>
  );
}
