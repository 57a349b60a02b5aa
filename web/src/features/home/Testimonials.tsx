import { useId } from 'react';
import { initialsOf } from '../../lib/components/initials';
import { useSite } from '../../lib/site';

/**
 * What learners told the seller, as the seller wrote it in the settings, with their initials for a
 * picture (no photos of real people). None on a fresh site: the section is not there.
 */
export function Testimonials() {
  const headingId = useId();
  const { testimonials } = useSite();
  if (testimonials.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
      <h2 id={headingId} className="text-center text-2xl font-bold sm:text-3xl">
        What learners say
      </h2>
      <ul className={`mt-8 grid gap-6 ${columns(testimonials.length)}`}>
        {testimonials.map((testimonial, index) => (
          <li key={index} className="flex">
            <figure className="flex w-full flex-col gap-4 rounded-box bg-base-100 p-6 shadow-sm ring-1 ring-base-300">
              <svg viewBox="0 0 32 24" width="32" height="24" className="fill-secondary" aria-hidden="true">
                <path d="M0 24V14C0 6 4 1 12 0l1 4c-4 1-6 4-6 8h5v12zm19 0V14c0-8 4-13 12-14l1 4c-4 1-6 4-6 8h5v12z" />
              </svg>
              <blockquote className="flex-1 break-words">
                <p className="whitespace-pre-line">{testimonial.quote}</p>
              </blockquote>
              <figcaption className="flex items-center gap-3">
                <span
                  className="flex size-11 shrink-0 items-center justify-center rounded-full bg-secondary font-semibold text-secondary-content"
                  aria-hidden="true"
                >
                  {initialsOf(testimonial.name)}
                </span>
                <span>
                  <span className="block font-semibold">{testimonial.name}</span>
                  {testimonial.role && <span className="block text-sm text-base-content/70">{testimonial.role}</span>}
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One quote centred at a readable width, two side by side, three or more in rows of three. */
function columns(count: number) {
  if (count === 1) return 'mx-auto max-w-xl';
  if (count === 2) return 'mx-auto max-w-4xl md:grid-cols-2';
  return 'md:grid-cols-3';
}
