import { adminCredentials, expect, logInAs, newPerson, signUp, test } from './fixtures.ts';
import { CARDS, createCourseWithLectures, exclusively, lectureInList, payWithCard, publishCourse, releaseLocks } from './journeys.ts';

test.afterEach(releaseLocks);

const LECTURE = 'Opening the ledger';
const QUIZ = 'Ledger check';

test('quizzes: the admin writes a quiz; a subscriber fails it, then passes it and, with the lecture completed, earns the certificate; the admin sees both attempts', async ({
  browser,
  page,
}) => {
  test.setTimeout(240_000);
  const { email, password } = adminCredentials();
  await logInAs(page, email, password);
  const title = `Ledgers ${newPerson('q').fullName}`;
  const { courseId } = await createCourseWithLectures(
    page.request,
    { title, category: 'Finance', createdBy: 'Anita Desai', description: 'A short course with a quiz at its end.' },
    [{ title: LECTURE, description: 'Debits and credits.' }],
  );
  await publishCourse(page.request, courseId);

  // The admin writes the quiz in the editor: a single choice and a short answer, every question to pass.
  await page.goto(`/course/quiz/edit?id=${courseId}`);
  await page.getByLabel('Title', { exact: true }).fill(QUIZ);
  await page.getByLabel('Pass mark', { exact: true }).fill('100');
  // A new quiz starts with one single-choice question.
  const first = page.getByRole('listitem', { name: 'Question 1' });
  await first.getByLabel('Question', { exact: true }).fill('Which account grows when cash comes in?');
  await first.getByLabel('Option 1', { exact: true }).fill('Cash');
  await first.getByLabel('Option 1 is right').check();
  await first.getByLabel('Option 2', { exact: true }).fill('Sales returns');
  await page.getByRole('button', { name: 'Short answer', exact: true }).click();
  const second = page.getByRole('listitem', { name: 'Question 2' });
  await second.getByLabel('Question', { exact: true }).fill('How many sides does a ledger account have?');
  await second.getByRole('textbox', { name: 'Accepted answer 1' }).fill('2');
  await second.getByLabel('Explanation (optional)').fill('A debit side and a credit side.');
  await page.getByRole('button', { name: 'Add quiz', exact: true }).click();
  await expect(page).toHaveURL(/[?&]quiz=[0-9a-f-]{36}/);
  await expect(page.getByText('Version 1')).toBeVisible();

  // A subscriber finds the quiz after the lecture, and fails it once.
  const person = newPerson('quizzed');
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await signUp(learner, person);
  await learner.goto('/checkout');
  await exclusively('payments', async () => {
    await payWithCard(learner, CARDS.pays);
    await expect(learner).toHaveURL(/\/checkout\/success$/);
  });
  await learner.goto(`/course/lecture?id=${courseId}`);
  await lectureInList(learner, LECTURE).click();
  await learner.getByRole('button', { name: 'Mark as completed' }).click();
  await learner.getByRole('link', { name: new RegExp(`Quiz: ${QUIZ}`) }).click();
  await expect(learner.getByRole('heading', { name: QUIZ })).toBeVisible();
  await expect(learner.getByText('Unlimited attempts')).toBeVisible();

  await learner.getByRole('button', { name: 'Start quiz' }).click();
  await expect(learner.getByText('Question 1 of 2')).toBeVisible();
  await learner.getByRole('radio', { name: 'Sales returns' }).check();
  await learner.getByRole('button', { name: 'Next' }).click();
  await learner.getByLabel('How many sides does a ledger account have?').fill(' 2 ');
  await learner.getByRole('button', { name: 'Submit answers' }).click();
  await expect(learner.getByText('Not passed this time: the pass mark is 100 %')).toBeVisible();
  await expect(learner.getByText('50 % · 1 of 2 right')).toBeVisible();
  await expect(learner.getByText('A debit side and a credit side.')).toBeVisible();
  // The right option is never shown: the retry is the learner's own.
  await expect(learner.getByText('Cash', { exact: true })).toHaveCount(0);

  // The retry passes, and the course is complete: the certificate is earned.
  await learner.getByRole('button', { name: 'Retry' }).click();
  await learner.getByRole('radio', { name: 'Cash' }).check();
  await learner.keyboard.press('ArrowRight');
  await learner.getByLabel('How many sides does a ledger account have?').fill('2');
  await learner.getByRole('button', { name: 'Submit answers' }).click();
  await expect(learner.getByText('Passed: the pass mark is 100 %')).toBeVisible();
  await expect(learner.getByText('100 % · 2 of 2 right')).toBeVisible();
  await learner.goto(`/course/lecture?id=${courseId}`);
  await expect(learner.getByText('You earned a certificate')).toBeVisible({ timeout: 30_000 });

  // The admin sees the two attempts: one failed, one passed.
  await page.goto(`/admin/quiz-results?id=${courseId}`);
  await expect(page.getByRole('heading', { name: QUIZ })).toBeVisible();
  const attempts = page.getByRole('table', { name: 'Quiz attempts, newest first' });
  await expect(attempts.getByRole('row').filter({ hasText: person.fullName })).toHaveCount(2);
  await expect(attempts.getByText('Passed')).toHaveCount(1);
  await expect(attempts.getByText('Failed')).toHaveCount(1);

  await learnerContext.close();
  await page.request.delete(`/api/v1/courses/${courseId}`);
});
