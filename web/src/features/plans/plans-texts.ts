import { MAX_DISCOUNTED_CHARGES, MAX_PRICE, MAX_TRIAL_DAYS, type CouponKind, type PlanInterval } from '@lms/contract/plans';
import { rupees } from '../../lib/format';

/**
 * The words of the admin's plans and coupons pages. Not in the message catalogue
 * (contract/src/messages.ts), which ships in every page's first chunk: these load with the pages.
 * The server's answers (created, updated, refusals) are the catalogue's, shown by the API client.
 */

const count = new Intl.NumberFormat('en-IN');
const plural = (n: number, one: string, many: string) => `${count.format(n)} ${n === 1 ? one : many}`;

export const intervalWords: Record<PlanInterval, string> = { monthly: 'Monthly', yearly: 'Yearly' };
const per: Record<PlanInterval, string> = { monthly: 'month', yearly: 'year' };

export const adminTexts = {
  cancel: 'Cancel',
  close: 'Close',
  edit: 'Edit',
  archive: 'Archive',
  bringBack: 'Bring back',
  editNamed: (name: string) => `Edit ${name}`,
  archiveNamed: (name: string) => `Archive ${name}`,
  bringBackNamed: (name: string) => `Bring back ${name}`,
  actions: 'Actions',
  status: 'Status',
  saveChanges: 'Save changes',
  optional: 'optional',
};

export const plansTexts = {
  title: 'Plans',
  intro: 'What learners can buy. A new price is for new buyers only: every subscriber keeps the price they bought at.',
  toCoupons: 'Coupons',
  newPlan: 'New plan',
  loading: 'Loading plans…',
  failed: 'The plans could not be loaded.',
  listLabel: 'Plans',
  plan: 'Plan',
  price: 'Price',
  trial: 'Free trial',
  subscribers: 'Subscribers',
  interval: (interval: PlanInterval) => intervalWords[interval],
  perPeriod: (price: number, interval: PlanInterval) => `${rupees.format(price)} / ${per[interval]}`,
  beforeGst: (listPrice: number) => `${rupees.format(listPrice)} before GST`,
  trialDays: (days: number) => (days === 0 ? 'None' : plural(days, 'day', 'days')),
  trialLine: (days: number) => (days === 0 ? 'No free trial' : `${plural(days, 'day', 'days')} free`),
  subscriberCount: (n: number) => plural(n, 'subscriber', 'subscribers'),
  onSale: 'On sale',
  archived: 'Archived',
  defaultPlan: 'Default · the bundle',
  history: (versions: number) => `Price history (${versions})`,
  historyLabel: (name: string) => `Price history of ${name}`,
  priceSince: (date: string) => `Since ${date}`,
  current: 'Current',
  // The form
  createTitle: 'New plan',
  editTitle: (name: string) => `Edit ${name}`,
  name: 'Name',
  nameHint: 'At most 40 characters, e.g. “Yearly, 2 months free”.',
  defaultNameHint: 'The default plan is the bundle the storefront sells under this name, so the name stays.',
  period: 'Billing period',
  periodHint: 'Fixed once the plan is made: make another plan for another period.',
  priceLabel: 'Price in rupees',
  priceHint: (taxAdded: boolean) =>
    taxAdded
      ? `Before GST, which buyers pay on top; with it, a charge may be ₹1 to ₹${count.format(MAX_PRICE)}.`
      : `As buyers pay it: ₹1 to ₹${count.format(MAX_PRICE)} a charge.`,
  trialLabel: 'Free trial days',
  trialHint: `0 for none, up to ${MAX_TRIAL_DAYS}. Each account gets one free trial.`,
  create: 'Create plan',
  keepPrice: (subscribers: number) =>
    subscribers === 0
      ? 'A new price is what new buyers pay. Nobody is subscribed to this plan now.'
      : `A new price is only for new buyers: the ${plural(subscribers, 'subscriber', 'subscribers')} on this plan keep paying the price they bought at.`,
};

export const couponsTexts = {
  title: 'Coupons',
  intro: 'Discounts on the first payment or the first few. A coupon’s code and discount never change once made.',
  toPlans: 'Plans',
  newCoupon: 'New coupon',
  loading: 'Loading coupons…',
  failed: 'The coupons could not be loaded.',
  empty: 'No coupons yet. Make one to give new buyers a discount on their first payments.',
  listLabel: 'Coupons',
  code: 'Code',
  discount: 'Discount',
  validity: 'Valid',
  redemptions: 'Used',
  plans: 'Plans',
  discountWords: ({ kind, amount, charges }: { kind: CouponKind; amount: number; charges: number }) =>
    `${kind === 'percent' ? `${amount} %` : rupees.format(amount)} off the first ${charges === 1 ? 'payment' : `${charges} payments`}`,
  always: 'Any time',
  from: (date: string) => `From ${date}`,
  until: (date: string) => `Until ${date}`,
  between: (from: string, until: string) => `${from} to ${until}`,
  used: (redemptions: number, max: number | null) =>
    max === null ? `${count.format(redemptions)} · no limit` : `${count.format(redemptions)} of ${count.format(max)}`,
  allPlans: 'All plans',
  unknownPlan: 'A plan not listed',
  saveOffer: 'Save offer',
  status: { active: 'Active', scheduled: 'Scheduled', expired: 'Expired', usedUp: 'Used up', archived: 'Archived' },
  // The form
  createTitle: 'New coupon',
  editTitle: (code: string) => `Edit ${code}`,
  fixed: 'The code and the discount stay what buyers were given; make another coupon for another discount.',
  codeLabel: 'Code',
  codeHint: '3 to 20 letters, digits, - or _. Buyers type it at checkout.',
  kind: 'Discount',
  percent: 'A percentage',
  amount: 'An amount in rupees',
  percentLabel: 'Percent off',
  percentHint: 'A whole number from 1 to 99.',
  amountLabel: 'Rupees off',
  amountHint: 'Taken off each discounted payment; no payment goes below ₹1.',
  charges: 'Payments discounted',
  chargesHint: `The first 1 to ${MAX_DISCOUNTED_CHARGES} payments get the discount; 1 is the first payment only.`,
  validFrom: 'Valid from',
  validUntil: 'Valid until',
  datesHint: 'Optional. Days in India’s time; the coupon works through its last day.',
  max: 'Maximum uses',
  maxHint: 'Optional: leave empty for no limit. Each account uses a coupon once.',
  maxBelowUsed: (used: number) => `This coupon has been used ${plural(used, 'time', 'times')}: the maximum cannot be lower than that.`,
  plansLegend: 'For plans',
  plansHint: 'Tick none for every plan.',
  plansLoading: 'Loading plans…',
  archivedPlan: 'archived',
  saveOfferLabel: 'The save offer',
  saveOfferHint: 'Offered in the cancellation dialog instead of cancelling; it cannot be used at checkout.',
  replacesSaveOffer: (code: string) => `It takes over from ${code}, the save offer now.`,
  create: 'Create coupon',
};
