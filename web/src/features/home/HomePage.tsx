import { messages } from '@lms/contract/messages';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { useSite } from '../../lib/site';
import { usePageTitle } from '../../lib/use-page-title';
import { useAuth } from '../auth';
import { NewestCoursesFrame } from './NewestCoursesFrame';

// Below the hero, with the data it shows: loaded after the first paint (`/` has a budget of 110 KB
// of JavaScript). A visitor's sections read without the server-state cache, a signed-in user's through it.
const VisitorHomeSections = lazy(() => import('./VisitorHomeSections'));
const SignedInHomeSections = lazy(() => import('./SignedInHomeSections'));

/** Headline and intro text (the seller's, else the product's own), 'Explore Courses' (to /courses) and 'Contact Us'; then the storefront below. */
export default function HomePage() {
  usePageTitle(messages.homeTitle);
  const { hero } = useSite();
  const signedIn = useAuth((auth) => auth.isLoggedIn);
  return (
    <>
      <section className="bg-gradient-to-b from-primary/5 to-base-100">
        <div className="mx-auto grid w-full max-w-6xl items-center gap-8 px-4 pb-2 pt-10 sm:py-14 lg:grid-cols-[1.1fr_1fr] lg:gap-12 lg:py-16">
          <div className="flex flex-col items-center gap-6 text-center lg:items-start lg:text-left">
            <h1 className="text-4xl font-bold leading-tight break-words sm:text-5xl">
              {hero.headline ?? (
                <>
                  Find out the best <span className="text-primary">online courses</span>
                </>
              )}
            </h1>
            <p className="max-w-2xl text-lg whitespace-pre-line break-words">
              {hero.text ??
                'We have a large library of courses taught by highly skilled and qualified faculty, at a very affordable cost: one monthly bundle opens every course.'}
            </p>
            <div className="flex flex-wrap justify-center gap-3 sm:gap-4">
              <Link to={paths.courses} className="btn btn-primary sm:btn-lg">
                {messages.exploreCourses}
              </Link>
              <Link to={paths.contact} className="btn btn-outline sm:btn-lg">
                Contact Us
              </Link>
            </div>
            <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-base-content/80 lg:justify-start">
              {['Every course, one plan', 'Watch on any device', 'Cancel any time'].map((point) => (
                <li key={point} className="flex items-center gap-2">
                  <svg
                    viewBox="0 0 24 24"
                    width="16"
                    height="16"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="3"
                    className="text-secondary"
                    aria-hidden="true"
                  >
                    <path d="M5 12l5 5L20 7" />
                  </svg>
                  {point}
                </li>
              ))}
            </ul>
          </div>
          {/*
            The hero's picture (public/hero.svg: a lecture playing, the course's lessons, a graduation badge), in the
            brand's colours for light and dark. An image rather than inline SVG: no bytes in the page's JavaScript
            (the first download has a budget), and its width and height hold its place, so nothing moves when it arrives.
          */}
          <img src="/hero.svg" width={560} height={420} alt="" fetchPriority="high" className="mx-auto h-auto w-full max-w-md lg:max-w-none" />
        </div>
      </section>
      <Suspense fallback={<NewestCoursesFrame />}>{signedIn ? <SignedInHomeSections /> : <VisitorHomeSections />}</Suspense>
    </>
  );
}
