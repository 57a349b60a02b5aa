import { adminCredentials, expect, logInAs, newPerson, registerByApi, test, type Page } from './fixtures.ts';
import { DEMO_COURSE, courseIdByTitle, exclusively, horizontalOverflow, releaseLocks, seriousViolations } from './journeys.ts';

test.afterEach(releaseLocks);

// axe is injected as an inline script, which the server's Content-Security-Policy would (rightly) refuse.
test.use({ bypassCSP: true });

type Visitor = 'visitor' | 'user' | 'admin';

/** Opens the page the way its visitor reaches it, and waits until it has settled. */
type Open = (page: Page, courseId: string) => Promise<void>;

const settled = async (page: Page, heading: RegExp | string) => {
  await expect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
  // Lazy chunks, data and fonts in place, nothing still moving in.
  await page.waitForLoadState('networkidle');
};

const visit =
  (url: (courseId: string) => string | Promise<string>, heading: RegExp | string): Open =>
  async (page, courseId) => {
    await page.goto(await url(courseId));
    await settled(page, heading);
  };

/** The quiz the first demo course ends with. */
const DEMO_QUIZ = 'Check your JavaScript basics';
const demoQuizId = async (page: Page, courseId: string): Promise<string> => {
  const { quizzes } = (await (await page.request.get(`/api/v1/courses/${courseId}`)).json()) as { quizzes: { _id: string; title: string }[] };
  return quizzes.find((quiz) => quiz.title === DEMO_QUIZ)!._id;
};

/** A learner of the admin's list: one signed up in a context of its own, so that the admin stays logged in. */
const aLearner = async (page: Page): Promise<{ _id: string; fullName: string }> => {
  const other = await page.context().browser()!.newContext();
  const person = newPerson('listed');
  await registerByApi(other.request, person);
  await other.close();
  const { learners } = (await (await page.request.get(`/api/v1/admin/learners?q=${encodeURIComponent(person.email)}`)).json()) as {
    learners: { _id: string; fullName: string }[];
  };
  return learners[0]!;
};

const pages: [string, Visitor, Open][] = [
  ['/courses', 'visitor', visit(() => '/courses', /explore the courses/i)],
  ['/course/description', 'visitor', visit((id) => `/course/description?id=${id}`, DEMO_COURSE.title)],
  [
    '/course/lecture',
    'admin',
    async (page, id) => {
      await visit((courseId) => `/course/lecture?id=${courseId}`, `Course: ${DEMO_COURSE.title}`)(page, id);
      await expect(page.getByLabel(`Lecture 1: ${DEMO_COURSE.lectures[0]}`)).toBeVisible();
    },
  ],
  ['/course/addlecture', 'admin', visit((id) => `/course/addlecture?id=${id}`, 'Add new lecture')],
  ['/course/create', 'admin', visit(() => '/course/create', 'Create new course')],
  [
    '/course/edit',
    'admin',
    async (page) => {
      // Reached from the dashboard, as the admin does; the editor is headed by the course's title.
      await visit(() => '/admin/dashboard', 'Admin Dashboard')(page, '');
      await page.getByRole('button', { name: `Edit ${DEMO_COURSE.title}` }).click();
      await expect(page).toHaveURL(/\/course\/edit\?id=/);
      await settled(page, DEMO_COURSE.title);
      await expect(page.getByRole('region', { name: 'Publishing' })).toBeVisible();
      await expect(page.getByLabel('Course title')).toHaveValue(DEMO_COURSE.title);
    },
  ],
  [
    '/course/quiz',
    'admin',
    async (page, id) => visit(async (courseId) => `/course/quiz?id=${courseId}&quiz=${await demoQuizId(page, courseId)}`, DEMO_QUIZ)(page, id),
  ],
  [
    '/course/quiz/edit',
    'admin',
    async (page, id) => {
      await visit(async (courseId) => `/course/quiz/edit?id=${courseId}&quiz=${await demoQuizId(page, courseId)}`, DEMO_QUIZ)(page, id);
      await expect(page.getByLabel('Title', { exact: true })).toHaveValue(DEMO_QUIZ);
    },
  ],
  ['/admin/quiz-results', 'admin', visit((id) => `/admin/quiz-results?id=${id}`, 'Quiz results')],
  [
    '/admin/learners',
    'admin',
    async (page) => {
      const learner = await aLearner(page);
      await visit(() => '/admin/learners', 'Learners')(page, '');
      // A table row on a desktop, a card on a phone: either way a link named by the learner.
      await expect(page.getByRole('link', { name: learner.fullName }).first()).toBeVisible();
    },
  ],
  [
    '/admin/learner',
    'admin',
    async (page) => {
      const learner = await aLearner(page);
      await visit(() => `/admin/learner?id=${learner._id}`, learner.fullName)(page, '');
      await expect(page.getByRole('region', { name: 'Payments' })).toBeVisible();
    },
  ],
  ['/admin/activity', 'admin', visit(() => '/admin/activity', 'Activity')],
  [
    '/admin/dashboard',
    'admin',
    async (page) => {
      await visit(() => '/admin/dashboard', 'Admin Dashboard')(page, '');
      await expect(page.getByRole('rowheader', { name: `${DEMO_COURSE.title} Published` })).toBeVisible();
    },
  ],
  [
    '/checkout',
    'user',
    async (page) => {
      // The bundle alone is on sale (e2e/plans.spec.ts sells others for a while, holding this lock).
      await exclusively('plans', async () => {
        await visit(() => '/checkout', 'Subscription Bundle')(page, '');
        await expect(page.getByRole('button', { name: 'Buy now' })).toBeEnabled();
      });
    },
  ],
  // /checkout/success shows only right after a verified payment (opened directly it gives way to /checkout):
  // e2e/checkout-return.spec.ts checks it with axe and at 360 px after a real one.
  ['/checkout/fail', 'user', visit(() => '/checkout/fail', 'Payment failed')],
];

for (const [url, visitor, open] of pages) {
  test(`${url} (${visitor}) has no serious accessibility problems and fits 360 px`, async ({ page, request, baseURL }) => {
    if (visitor === 'admin') {
      const { email, password } = adminCredentials();
      await logInAs(page, email, password);
    } else if (visitor === 'user') {
      const person = newPerson('a11y');
      await registerByApi(request, person);
      await logInAs(page, person.email, person.password);
    }
    const courseId = await courseIdByTitle(baseURL!, DEMO_COURSE.title);

    // In light theme on a desktop, then in dark theme on a 360 px phone.
    await open(page, courseId);
    expect(await seriousViolations(page), `axe on ${url} (light, desktop)`).toEqual([]);

    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 360, height: 740 });
    await open(page, courseId);
    expect(await horizontalOverflow(page), `horizontal scrolling on ${url} at 360 px`).toEqual([]);
    expect(await seriousViolations(page), `axe on ${url} (dark, 360 px)`).toEqual([]);
  });
}
