import { adminCredentials, expect, logInAs, newPerson, signUp, test, type Page } from './fixtures.ts';
import { CARDS, exclusively, payWithCard, releaseLocks, seriousViolations, subscriptionOnProfile } from './journeys.ts';

test.afterEach(releaseLocks);
test.use({ bypassCSP: true });

/** Dates as the app shows them (India's calendar), with the no-break spaces the app holds them together with. */
const shown = (date: Date) =>
  new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' }).format(date).replace(/ /g, '\u00a0');
const later = (days: number, years = 0) => {
  const date = new Date(Date.now() + days * 24 * 3600 * 1000);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return date;
};
/** Either side of a midnight passed while the test ran. */
const around = (make: () => Date, then: Date) => new RegExp(`(${shown(then)}|${shown(make())})`);

/** The admin's row for `name` in a list that is a table on a wide screen. */
const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });

/**
 * The plans' journeys in one: the admin makes a yearly plan and a coupon for it; a visitor picks the yearly plan with
 * the coupon, pays the discounted amount and finds it, and a renewal a year on, on the profile; the admin sees the
 * redemption. Then a plan with a free trial: a learner starts it and is charged nothing. The plans are taken off sale
 * again at the end: other journeys expect the bundle alone at checkout (they take the same lock).
 */
test('the admin sells a yearly plan with a coupon and a plan with a free trial; learners buy them', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const suffix = Math.random().toString(36).slice(2, 6).toUpperCase();
  const yearlyName = `Yearly ${suffix}`;
  const trialName = `Trial ${suffix}`;
  const code = `YEAR${suffix}`;

  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const { email, password } = adminCredentials();
  await logInAs(admin, email, password);

  await exclusively('plans', async () => {
    try {
      // The admin reaches the plans from the dashboard, and makes a yearly plan.
      await admin.goto('/admin/dashboard');
      await admin.getByRole('region', { name: 'Revenue' }).getByRole('link', { name: 'Plans', exact: true }).click();
      await expect(admin).toHaveURL(/\/admin\/plans$/);
      await admin.getByRole('button', { name: 'New plan' }).click();
      const planForm = admin.getByRole('dialog', { name: 'New plan' });
      await planForm.getByLabel('Name').fill(yearlyName);
      await planForm.getByRole('radio', { name: 'Yearly' }).check();
      await planForm.getByLabel('Price in rupees').fill('999');
      await planForm.getByRole('button', { name: 'Create plan' }).click();
      await expect(admin.getByText('Plan created')).toBeVisible();
      await expect(rowOf(admin, yearlyName)).toContainText('₹999 / year');
      expect.soft(await seriousViolations(admin), 'axe on the plans page').toEqual([]);

      // And a coupon for it: 20 % off the first payment.
      await admin.getByRole('link', { name: 'Coupons', exact: true }).click();
      await expect(admin).toHaveURL(/\/admin\/coupons$/);
      await admin.getByRole('button', { name: 'New coupon' }).click();
      const couponForm = admin.getByRole('dialog', { name: 'New coupon' });
      await couponForm.getByLabel('Code').fill(code.toLowerCase());
      await couponForm.getByLabel('Percent off').fill('20');
      await couponForm.getByRole('checkbox', { name: yearlyName }).check();
      await couponForm.getByRole('button', { name: 'Create coupon' }).click();
      await expect(admin.getByText('Coupon created')).toBeVisible();
      await expect(rowOf(admin, code)).toContainText('20 % off the first payment');
      await expect(rowOf(admin, code)).toContainText('0 · no limit');
      expect.soft(await seriousViolations(admin), 'axe on the coupons page').toEqual([]);

      // A visitor picks the yearly plan with the coupon.
      const buyer = newPerson('yearly');
      await signUp(page, buyer);
      await page.goto('/checkout');
      await expect(page.getByRole('heading', { level: 1, name: 'Choose your plan' })).toBeVisible();
      await page.getByRole('radio', { name: yearlyName }).check();
      await expect(page).toHaveURL(/\/checkout\?plan=/);
      await page.getByRole('button', { name: 'Have a coupon?' }).click();
      await page.getByLabel('Coupon code').fill(code);
      await page.getByRole('button', { name: 'Apply' }).click();
      const summary = page.getByRole('region', { name: 'Summary' });
      await expect(summary).toContainText('₹799.20 for the first year, then ₹999/year.');
      await expect(summary).toContainText('Due today');
      expect.soft(await seriousViolations(page), 'axe on the checkout with a coupon').toEqual([]);
      const aYearOn = later(0, 1);
      await exclusively('payments', async () => {
        await payWithCard(page, CARDS.pays);
        await expect(page).toHaveURL(/\/checkout\/success$/);
      });

      // The profile: a renewal a year on, the discounted payment, and what the next one takes.
      await subscriptionOnProfile(page);
      await expect(page.getByText(around(() => later(0, 1), aYearOn)).first()).toBeVisible();
      const billing = page.getByRole('region', { name: 'Billing history' });
      await expect(billing.getByText('₹799.20', { exact: true })).toBeVisible();
      await expect(billing).toContainText(new RegExp(`${yearlyName} plan · next payment ₹999 on ${around(() => later(0, 1), aYearOn).source}`));

      // The admin sees the redemption, and the plan's subscriber.
      await admin.reload();
      await expect(rowOf(admin, code)).toContainText('1 · no limit');
      await admin.goto('/admin/plans');
      await expect(rowOf(admin, yearlyName).getByRole('cell', { name: '1', exact: true })).toBeVisible();

      // A plan with a free trial: the learner starts it with a card check, and nothing is charged.
      const trial = await admin.request.post('/api/v1/admin/plans', { data: { name: trialName, interval: 'monthly', price: 149, trialDays: 7 } });
      expect(trial.ok(), await trial.text()).toBe(true);
      const trialPlan = (await trial.json()).plan.id as string;
      const trialContext = await browser.newContext();
      const learner = await trialContext.newPage();
      await signUp(learner, newPerson('trial'));
      await learner.goto(`/checkout?plan=${trialPlan}`);
      await expect(learner.getByRole('radio', { name: trialName })).toBeChecked();
      await expect(learner.getByRole('region', { name: 'Summary' })).toContainText('A card check, refunded at once');
      const trialEnd = later(7);
      // The second card that pays: one free trial per card, and the other journeys pay with the first.
      await exclusively('payments', async () => {
        await payWithCard(learner, CARDS.alsoPays, 'Start free trial');
        await expect(learner).toHaveURL(/\/checkout\/success$/);
      });
      await expect(learner.getByRole('heading', { name: 'Your free trial has started' })).toBeVisible();
      await subscriptionOnProfile(learner);
      await expect(learner.getByText(new RegExp(`Trial, first payment on ${around(() => later(7), trialEnd).source}`))).toBeVisible();
      await expect(learner.getByRole('region', { name: 'Billing history' }).getByText('No payments yet')).toBeVisible();
      await trialContext.close();
    } finally {
      // Off sale again, whatever happened: the other journeys see the bundle alone.
      const { plans } = (await (await admin.request.get('/api/v1/admin/plans')).json()) as { plans: { id: string; default: boolean; archived: boolean }[] };
      for (const plan of plans.filter((entry) => !entry.default && !entry.archived)) {
        await admin.request.patch(`/api/v1/admin/plans/${plan.id}`, { data: { archived: true } });
      }
    }
  });
  await adminContext.close();
});
