import { usePageTitle } from '../../lib/use-page-title';
import { QuoteCarousel, type Quote } from './QuoteCarousel';

/** Five quotes from famous people about learning. */
const quotes: Quote[] = [
  { text: 'Education is the most powerful weapon which you can use to change the world.', name: 'Nelson Mandela' },
  { text: 'Live as if you were to die tomorrow. Learn as if you were to live forever.', name: 'Mahatma Gandhi' },
  { text: 'The beautiful thing about learning is that nobody can take it away from you.', name: 'B. B. King' },
  { text: 'The more that you read, the more things you will know. The more that you learn, the more places you\u2019ll go.', name: 'Dr. Seuss' },
  {
    text: 'Learning gives creativity, creativity leads to thinking, thinking provides knowledge, and knowledge makes you great.',
    name: 'A. P. J. Abdul Kalam',
  },
];

export default function AboutPage() {
  usePageTitle('About us');
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-10 px-4 py-10">
      <section className="flex flex-col gap-4">
        <h1 className="text-4xl font-bold">About us</h1>
        <p className="text-lg">
          LMS brings video courses from skilled and qualified instructors to anyone with a browser. We believe good teaching should not cost a fortune: one
          monthly bundle opens every course in the catalogue, the existing ones and every new one we launch.
        </p>
        <p className="text-lg">
          Learn at your own pace, pick up where you left off, and cancel whenever you like. If anything is unclear, our team is one message away on the contact
          page.
        </p>
      </section>
      <QuoteCarousel quotes={quotes} label="Quotes about learning" />
    </div>
  );
}
