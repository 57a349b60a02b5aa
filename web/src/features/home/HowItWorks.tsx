import { useId } from 'react';

const steps = [
  {
    title: 'Create your account',
    text: 'Sign up with your name, email and a profile picture. It takes a minute and costs nothing.',
    icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 20a8 8 0 0 1 16 0',
  },
  {
    title: 'Subscribe to the bundle',
    text: 'One monthly plan, paid by card through a secure checkout. It opens every course at once.',
    icon: 'M3 7h18v10H3zM3 11h18M7 15h3',
  },
  {
    title: 'Learn at your own pace',
    text: 'Watch any lecture of any course, as often as you like, on your phone or your computer.',
    icon: 'M4 5h16v11H4zM10 8.5v4l3.5-2zM8 20h8',
  },
];

/** Three steps from visitor to learner. */
export function HowItWorks() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="bg-base-200">
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:py-16">
        <h2 id={headingId} className="text-center text-2xl font-bold sm:text-3xl">
          How it works
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4 rounded-box bg-base-100 p-6 shadow-sm md:flex-col">
              <span className="relative flex size-12 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
                <svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" aria-hidden="true">
                  <path d={step.icon} />
                </svg>
                <span
                  className="absolute -right-1 -top-1 flex size-6 items-center justify-center rounded-full bg-primary text-xs font-bold text-primary-content"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
              </span>
              <div>
                <h3 className="text-lg font-semibold">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-1 text-base-content/80">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
