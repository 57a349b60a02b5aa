import type { Context } from '../../context.ts';
import { siteOf } from '../settings/site-settings.ts';
import { SandboxError } from './errors.ts';
import { loadSubscription } from './store.ts';

/**
 * The page a subscription's short_url opens, standing in for Razorpay's hosted payment page:
 * the subscription in words and a button that opens the sandbox Checkout (browser/checkout.js).
 * The script is its own file: the app's CSP allows no inline scripts.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const CYCLE_UNITS: Record<string, string> = { daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year' };

/** The page a subscription's short_url opens: the sandbox Checkout on a page of its own; undefined for an unknown id. */
export async function hostedPaymentPage(ctx: Context, id: string): Promise<string | undefined> {
  const found = await loadSubscription(ctx.db, id).catch((error: unknown) => {
    if (error instanceof SandboxError) return undefined;
    throw error;
  });
  if (!found) return undefined;
  const { subscription, plan } = found;
  // The merchant, as Razorpay's page names the business a buyer pays.
  const merchant = (await siteOf(ctx)).name;
  const price = `${plan.currency} ${(plan.amount / 100).toFixed(2)}`;
  const unit = CYCLE_UNITS[plan.period] ?? plan.period;
  const every = plan.interval === 1 ? unit : `${plan.interval} ${unit}s`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(merchant)} · Sandbox payment</title>
</head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#0f172a">
<main>
<h1>${escapeHtml(merchant)}</h1>
<p><strong>Sandbox payment</strong></p>
<p>This page stands in for Razorpay's hosted payment page in offline development.</p>
<p>Subscription <code>${escapeHtml(subscription.id)}</code> to <strong>${escapeHtml(plan.itemName)}</strong>,
${escapeHtml(price)} every ${escapeHtml(every)}.
Status: <strong>${escapeHtml(subscription.status)}</strong>.</p>
<button type="button" id="sandbox-pay">Pay with a test card</button>
<p id="sandbox-status" role="status"></p>
</main>
<script src="/sandbox/checkout.js" data-subscription-id="${escapeHtml(subscription.id)}" data-key="${escapeHtml(ctx.config.payments.keyId)}" data-name="${escapeHtml(merchant)}"></script>
</body>
</html>
`;
}
