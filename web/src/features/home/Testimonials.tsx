import { useId } from 'react';
import { initialsOf } from '../../lib/components/initials';

/** What learners told us, with their initials for a picture (no photos of real people). */
const testimonials = [
  {
    quote:
      'I had tried free videos for months and kept losing the thread. Here the lectures are short and in order, and I finally finished a course, then started the next one.',
    name: 'Kavya Reddy',
    role: 'Final-year engineering student, Hyderabad',
  },
  {
    quote: 'One price for everything changed how I learn. I opened a design course out of curiosity, and what I picked up there is now part of my job.',
    name: 'Arjun Malhotra',
    role: 'Product manager, Pune',
  },
  {
    quote: 'I watch a lecture on the train most mornings. When exams came I cancelled from my profile, and a month later I was back where I had stopped.',
    name: 'Sneha Kulkarni',
    role: 'Chartered accountancy student, Mumbai',
  },
];

/** Three learners' words. */
export function Testimonials() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
      <h2 id={headingId} className="text-center text-2xl font-bold sm:text-3xl">
        What learners say
      </h2>
      <ul className="mt-8 grid gap-6 md:grid-cols-3">
        {testimonials.map((testimonial) => (
          <li key={testimonial.name} className="flex">
            <figure className="flex w-full flex-col gap-4 rounded-box bg-base-100 p-6 shadow-sm ring-1 ring-base-300">
              <svg viewBox="0 0 32 24" width="32" height="24" className="fill-secondary" aria-hidden="true">
                <path d="M0 24V14C0 6 4 1 12 0l1 4c-4 1-6 4-6 8h5v12zm19 0V14c0-8 4-13 12-14l1 4c-4 1-6 4-6 8h5v12z" />
              </svg>
              <blockquote className="flex-1 break-words">
                <p>{testimonial.quote}</p>
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
                  <span className="block text-sm text-base-content/70">{testimonial.role}</span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
