import { useEffect, useId, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../lib/paths';
import { rupees } from '../../lib/format';
import { useSite } from '../../lib/site';

/**
 * Questions a buyer asks before paying, answered plainly: the seller's own where written, else the
 * product's, whose refund rule is the one the server applies (its refund window and price, once they
 * are known). Each question has its address (`/#faq-refund`): opened there, it is open and in view.
 */
export function Faq({ price, refundWindowDays }: { price: number | undefined; refundWindowDays: number | undefined }) {
  const headingId = useId();
  const { faq } = useSite();
  const { hash } = useLocation();
  useEffect(() => {
    const item = hash.startsWith('#faq-') ? document.getElementById(hash.slice(1)) : null;
    if (!(item instanceof HTMLDetailsElement)) return;
    item.open = true;
    item.scrollIntoView({ block: 'start' });
  }, [hash]);
  const perMonth = price !== undefined ? `${rupees.format(price)} a month` : 'the monthly price';
  const refundWindow =
    refundWindowDays !== undefined
      ? `within ${refundWindowDays} ${refundWindowDays === 1 ? 'day' : 'days'} of a payment`
      : 'within the refund window after a payment';
  const builtIn: { id: string; question: string; answer: ReactNode }[] = [
    {
      id: 'included',
      question: 'What do I get for my subscription?',
      answer: (
        <p>
          Every course in the catalogue, the existing ones and every new one we launch, for {perMonth}. Each course page lists all its lectures with their
          length, so you know what you are getting before you pay.
        </p>
      ),
    },
    {
      id: 'cancel',
      question: 'Can I cancel any time?',
      answer: <p>Yes. Cancel from your profile whenever you like, in two clicks; nothing renews after that.</p>,
    },
    {
      id: 'refund',
      question: 'Do I get my money back if I cancel?',
      answer: (
        <>
          <p>The first time you cancel {refundWindow}, we refund that payment in full and your access ends straight away. This works once in any 12 months.</p>
          <p className="mt-2">
            Any other cancellation (later than that, or a second one within 12 months) refunds nothing, but you keep watching until the end of the period you
            have paid for (the month, or the year on a yearly plan).
          </p>
        </>
      ),
    },
    {
      id: 'payment',
      question: 'How do I pay, and when am I charged?',
      answer: (
        <p>
          By card, through our payment provider&apos;s secure checkout. You pay {perMonth} when you subscribe, and the bundle renews every month on the same
          date until you cancel.
        </p>
      ),
    },
    {
      id: 'devices',
      question: 'Can I watch on my phone?',
      answer: <p>Yes: the lectures play in any modern browser, on a phone, a tablet or a computer. No app to install.</p>,
    },
  ];
  // The seller's own questions, when written, in place of the product's.
  const questions = faq
    ? faq.map((entry, index) => ({
        id: String(index + 1),
        question: entry.question,
        answer: <p className="whitespace-pre-line break-words">{entry.answer}</p>,
      }))
    : builtIn;
  if (questions.length === 0) return null;

  return (
    <section id="faq" aria-labelledby={headingId} className="mx-auto w-full max-w-3xl scroll-mt-4 px-4 py-12 sm:py-16">
      <h2 id={headingId} className="text-center text-2xl font-bold sm:text-3xl">
        Questions, answered
      </h2>
      <div className="mt-8 flex flex-col gap-3">
        {questions.map((item) => (
          <details key={item.id} id={`faq-${item.id}`} className="group scroll-mt-4 rounded-box bg-base-100 ring-1 ring-base-300 open:ring-primary/40">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-box px-5 py-4 font-semibold [&::-webkit-details-marker]:hidden">
              {item.question}
              <svg
                viewBox="0 0 24 24"
                width="20"
                height="20"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                className="shrink-0 transition-transform group-open:rotate-180"
                aria-hidden="true"
              >
                <path d="M6 9l6 6 6-6" />
              </svg>
            </summary>
            <div className="px-5 pb-5 text-base-content/80">{item.answer}</div>
          </details>
        ))}
      </div>
      <p className="mt-8 text-center">
        Something else?{' '}
        <Link to={paths.contact} className="link link-primary">
          Ask us on the contact page
        </Link>
        .
      </p>
    </section>
  );
}
