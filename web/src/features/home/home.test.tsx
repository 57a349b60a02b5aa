import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { DEFAULT_SITE } from '@lms/contract/site';
import { setSite } from '../../lib/site';
import { renderPage, sampleUser, storeLogin, stubApi } from '../../test/render';
import HomePage from './HomePage';

const course = (n: number): Course => ({
  _id: `00000000-0000-4000-8000-00000000000${n}`,
  title: `Course ${n}`,
  description: `About course ${n}`,
  category: 'Web',
  createdBy: `Teacher ${n}`,
  thumbnail: { secure_url: `/media/thumbnails/${n}.webp` },
  numbersOfLectures: n,
  totalDuration: null,
  state: 'published',
  publishAt: null,
});
const newest = (courses: Course[]) => ({ body: { success: true, message: answers.coursesFetched, courses, total: courses.length, page: 1, limit: 3 } });
const plan = { body: { success: true, message: answers.subscriptionPlan, price: 149, currency: 'INR', refundWindowDays: 14 } };
const NEWEST = 'GET /api/v1/courses?page=1&limit=3';
const PLAN = 'GET /api/v1/payments/plan';

const bundleCard = () => screen.getByRole('article', { name: 'Subscription Bundle' });

afterEach(() => setSite(DEFAULT_SITE));

describe('home page', () => {
  it("keeps the spec's headline, intro and buttons, with a picture of fixed size and its own title", async () => {
    stubApi({ [NEWEST]: newest([]), [PLAN]: plan });
    renderPage(<HomePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Find out the best online courses' })).toBeInTheDocument();
    expect(screen.getByText(/We have a large library of courses/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: messages.exploreCourses })).toHaveAttribute('href', '/courses');
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
    const hero = document.querySelector('img[src="/hero.svg"]')!;
    expect(hero).toHaveAttribute('width', '560');
    expect(hero).toHaveAttribute('height', '420');
    expect(document.title).toBe(`${messages.homeTitle} · LMS`);
    await screen.findByText(messages.noCoursesYet);
  });

  it('shows placeholders, then the newest courses as the catalogue’s cards, opening a course by its link', async () => {
    stubApi({ [NEWEST]: newest([course(3), course(2), course(1)]), [PLAN]: plan });
    const { router, user } = renderPage(<HomePage />);
    expect(screen.getByTestId('newest-placeholders')).toBeInTheDocument();

    const section = (await screen.findByRole('heading', { name: 'New in the catalogue' })).closest('section')!;
    await within(section).findByRole('button', { name: 'Course 3' });
    expect(
      within(section)
        .getAllByRole('article')
        .map((card) => within(card).getByRole('heading').textContent),
    ).toEqual(['Course 3', 'Course 2', 'Course 1']);
    expect(screen.queryByTestId('newest-placeholders')).not.toBeInTheDocument();
    expect(within(section).getByRole('link', { name: /see all courses/i })).toHaveAttribute('href', '/courses');

    await user.click(within(section).getByRole('button', { name: 'Course 2' }));
    expect(router.state.location.pathname).toBe('/course/description');
    expect(router.state.location.search).toBe(`?id=${course(2)._id}`);
  });

  it("shows the bundle with the server's price per month and the spec's texts; Subscribe leads to /checkout", async () => {
    stubApi({ [NEWEST]: newest([course(1)]), [PLAN]: plan });
    renderPage(<HomePage />);
    await waitFor(() => expect(within(bundleCard()).getByText('₹149')).toBeInTheDocument());
    expect(within(bundleCard()).getByText(messages.perMonth)).toBeInTheDocument();
    expect(within(bundleCard()).getByText('1 month')).toBeInTheDocument();
    expect(within(bundleCard()).getByText(messages.bundleIncludes)).toBeInTheDocument();
    expect(within(bundleCard()).getByText(messages.bundleRefundable)).toBeInTheDocument();
    // Beside the spec's promise, the rule with the server's window, and the way to the whole of it.
    const policy = within(bundleCard()).getByRole('link', { name: messages.refundPolicy });
    expect(policy.closest('li')).toHaveTextContent(`${messages.bundleRefundable}${messages.refundRule(14)} ${messages.refundPolicy}`);
    expect(policy).toHaveAttribute('href', '/refund-policy');
    expect(within(bundleCard()).getByRole('link', { name: messages.subscribe })).toHaveAttribute('href', '/checkout');
  });

  it('points a subscriber to the courses instead of Subscribe', async () => {
    storeLogin(sampleUser({ subscription: { status: 'active' } }));
    stubApi({ [NEWEST]: newest([course(1)]), [PLAN]: plan });
    renderPage(<HomePage />);
    await waitFor(() => expect(within(bundleCard()).getByText('₹149')).toBeInTheDocument());
    expect(within(bundleCard()).queryByRole('link', { name: messages.subscribe })).not.toBeInTheDocument();
    expect(within(bundleCard()).getByRole('link', { name: messages.browseCourses })).toHaveAttribute('href', '/courses');
  });

  it("answers the refund question with the server's refund window and price: the refund rule in plain words", async () => {
    stubApi({ [NEWEST]: newest([course(1)]), [PLAN]: plan });
    renderPage(<HomePage />);
    const refund = (await screen.findByText('Do I get my money back if I cancel?')).closest('details')!;
    await waitFor(() =>
      expect(refund).toHaveTextContent(
        'The first time you cancel within 14 days of a payment, we refund that payment in full and your access ends straight away. This works once in any 12 months.',
      ),
    );
    expect(refund).toHaveTextContent('you keep watching until the end of the period you have paid for (the month, or the year on a yearly plan)');
    expect(screen.getByText('Can I cancel any time?')).toBeInTheDocument();
    expect(screen.getByText(/for ₹149 a month/)).toBeInTheDocument();
  });

  it('opens the refund question and brings it into view when the address points at it', async () => {
    stubApi({ [NEWEST]: newest([course(1)]), [PLAN]: plan });
    // jsdom lays nothing out, and has no scrollIntoView: record who asks for it.
    const scrolled: Element[] = [];
    const before = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      const { router } = renderPage(<HomePage />);
      const refund = (await screen.findByText('Do I get my money back if I cancel?')).closest('details')!;
      expect(refund.open).toBe(false);
      await act(() => router.navigate('/#faq-refund'));
      expect(refund.open).toBe(true);
      expect(scrolled).toEqual([refund]);
      // Another question is left as it was.
      expect(screen.getByText('Can I cancel any time?').closest('details')!.open).toBe(false);
    } finally {
      Element.prototype.scrollIntoView = before;
    }
  });

  it('says what to do when there are no courses yet: a visitor is asked what to learn, an admin creates the first', async () => {
    stubApi({ [NEWEST]: newest([]), [PLAN]: plan });
    const first = renderPage(<HomePage />);
    expect(await screen.findByText(messages.noCoursesYet)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
    first.unmount();

    storeLogin(sampleUser({ role: 'ADMIN' }));
    renderPage(<HomePage />);
    expect(await screen.findByRole('link', { name: messages.createFirstCourse })).toHaveAttribute('href', '/course/create');
  });

  it('shows no testimonials on a fresh site, and three steps', async () => {
    stubApi({ [NEWEST]: newest([course(1)]), [PLAN]: plan });
    renderPage(<HomePage />);
    const steps = (await screen.findByRole('heading', { name: 'How it works' })).closest('section')!;
    expect(within(steps).getAllByRole('listitem')).toHaveLength(3);
    await screen.findByText('Can I cancel any time?');
    expect(screen.queryByRole('heading', { name: 'What learners say' })).not.toBeInTheDocument();
  });

  it("shows the seller's testimonials with names, roles and initials", async () => {
    setSite({
      ...DEFAULT_SITE,
      testimonials: [
        { quote: 'Short lectures, in order: I finished my first course.', name: 'Kavya Reddy', role: 'Engineering student, Hyderabad' },
        { quote: 'One price for everything.', name: 'Arjun Malhotra', role: '' },
      ],
    });
    stubApi({ [NEWEST]: newest([course(1)]), [PLAN]: plan });
    renderPage(<HomePage />);
    const says = (await screen.findByRole('heading', { name: 'What learners say' })).closest('section')!;
    expect(within(says).getAllByRole('listitem')).toHaveLength(2);
    expect(within(says).getByText('Short lectures, in order: I finished my first course.')).toBeInTheDocument();
    expect(within(says).getByText('Kavya Reddy')).toBeInTheDocument();
    expect(within(says).getByText('Engineering student, Hyderabad')).toBeInTheDocument();
    expect(within(says).getByText('KR')).toBeInTheDocument();
    expect(within(says).getByText('AM')).toBeInTheDocument();
  });

  it("shows the seller's headline and intro text in place of the product's", async () => {
    setSite({
      ...DEFAULT_SITE,
      name: 'Tabla Gurukul',
      hero: { headline: 'Learn tabla from the masters', text: 'Live-recorded lessons.\nFrom the first bol.' },
    });
    stubApi({ [NEWEST]: newest([]), [PLAN]: plan });
    renderPage(<HomePage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Learn tabla from the masters' })).toBeInTheDocument();
    expect(screen.getByText(/Live-recorded lessons\.\s+From the first bol\./)).toBeInTheDocument();
    expect(screen.queryByText(/We have a large library of courses/)).not.toBeInTheDocument();
    expect(document.title).toBe(`${messages.homeTitle} · Tabla Gurukul`);
    // The buttons stay the spec's.
    expect(screen.getByRole('link', { name: messages.exploreCourses })).toHaveAttribute('href', '/courses');
    await screen.findByText(messages.noCoursesYet);
  });

  it("shows the seller's questions in place of the product's, and none when the seller removed them all", async () => {
    setSite({ ...DEFAULT_SITE, faq: [{ question: 'Do you teach beginners?', answer: 'Yes, from the very first lesson.' }] });
    stubApi({ [NEWEST]: newest([course(1)]), [PLAN]: plan });
    const first = renderPage(<HomePage />);
    const question = await screen.findByText('Do you teach beginners?');
    expect(question.closest('details')).toHaveTextContent('Yes, from the very first lesson.');
    expect(screen.queryByText('Can I cancel any time?')).not.toBeInTheDocument();
    // The seller's questions may not answer refunds: the bundle's text points to the refund policy instead.
    expect(screen.getByRole('link', { name: 'refund policy' })).toHaveAttribute('href', '/refund-policy');
    expect(screen.queryByRole('link', { name: 'questions below' })).not.toBeInTheDocument();
    first.unmount();

    setSite({ ...DEFAULT_SITE, faq: [] });
    renderPage(<HomePage />);
    await screen.findByRole('heading', { name: 'How it works' });
    expect(screen.queryByRole('heading', { name: 'Questions, answered' })).not.toBeInTheDocument();
  });
});
