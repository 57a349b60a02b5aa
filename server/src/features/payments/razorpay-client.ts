/**
 * The one Razorpay client: a few calls of Razorpay's REST API over fetch, with a
 * configurable base URL. In sandbox mode the same client talks to the imitation
 * mounted in this server (through an in-process fetch), so every mode runs the
 * same code. Razorpay's official SDK has no base-URL option, hence this.
 */

export interface RazorpayErrorBody {
  code: string;
  description: string;
  source?: string;
  step?: string;
  reason?: string;
  metadata?: Record<string, unknown>;
  field?: string;
}

export class RazorpayError extends Error {
  constructor(
    readonly status: number,
    readonly error: RazorpayErrorBody | undefined,
  ) {
    super(`Razorpay answered ${status}: ${error?.description ?? 'no description'}`);
    this.name = 'RazorpayError';
  }
}

export interface RazorpayPlan {
  id: string;
  entity: 'plan';
  period: string;
  interval: number;
  item: { name: string; amount: number; currency: string };
}

export interface RazorpaySubscription {
  id: string;
  entity: 'subscription';
  plan_id: string;
  status: string;
  /** Unix seconds; the end of the paid period. */
  current_start: number | null;
  current_end: number | null;
  /** Unix seconds: when the first charge is (or was) due. */
  start_at: number;
  paid_count: number;
  total_count: number;
  notes: Record<string, string> | unknown[];
  created_at: number;
}

export interface RazorpayPayment {
  id: string;
  entity: 'payment';
  amount: number;
  currency: string;
  status: string;
  amount_refunded: number;
  refund_status: string | null;
  /** Razorpay sends true or "1". */
  captured: boolean | string;
  /** The saved card (the subscription's mandate) the payment was made with, if any. */
  token_id?: string | null;
  created_at: number;
}

/** The card network's reference for a card (Razorpay's card fingerprint, an on-demand feature): the same for every token of the card. */
export interface RazorpayCardReference {
  network: string;
  /** Visa and Mastercard: the 29-character Payment Account Reference. */
  payment_account_reference: string | null;
  /** RuPay. */
  network_reference_id?: string | null;
}

export interface RazorpayRefund {
  id: string;
  entity: 'refund';
  amount: number;
  payment_id: string;
  status: string;
  /** Razorpay sends empty notes as `[]`. */
  notes?: Record<string, string> | unknown[];
  receipt?: string | null;
  created_at?: number;
}

/** Razorpay's list answers. */
export interface RazorpayCollection<T> {
  entity: 'collection';
  count: number;
  items: T[];
}

/** The part of fetch the client uses, so the sandbox can answer in-process. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<{ status: number; json(): Promise<unknown> }>;

export type RazorpayClient = ReturnType<typeof createRazorpayClient>;

export function createRazorpayClient(options: { baseUrl: string; keyId: string; keySecret: string; fetch?: FetchLike }) {
  const fetchLike: FetchLike = options.fetch ?? fetch;
  const authorization = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`;

  async function call<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: object): Promise<T> {
    const response = await fetchLike(`${options.baseUrl}${path}`, {
      method,
      headers: { authorization, ...(body && { 'content-type': 'application/json' }) },
      body: body && JSON.stringify(body),
      // Razorpay answers in well under a second; a hung call must not hold a user's request.
      signal: AbortSignal.timeout(15_000),
    });
    const data = (await response.json().catch(() => undefined)) as { error?: RazorpayErrorBody } | undefined;
    if (response.status >= 400) throw new RazorpayError(response.status, data?.error);
    return data as T;
  }
  const id = (value: string) => encodeURIComponent(value);

  return {
    createPlan: (input: { period: 'monthly' | 'yearly'; interval: number; item: { name: string; amount: number; currency: 'INR' } }) =>
      call<RazorpayPlan>('POST', '/plans', input),
    /** With `start_at` (unix seconds), Checkout only authorises the card and the first charge comes then. */
    createSubscription: (input: { plan_id: string; total_count: number; customer_notify?: 0 | 1; start_at?: number; notes?: Record<string, string> }) =>
      call<RazorpaySubscription>('POST', '/subscriptions', input),
    fetchSubscription: (subscriptionId: string) => call<RazorpaySubscription>('GET', `/subscriptions/${id(subscriptionId)}`),
    /**
     * Moves a subscription to another plan from its next cycle (`cycle_end`: card mandates cannot be
     * changed at once). How a coupon's discount starts and ends after the first charge.
     */
    updateSubscription: (subscriptionId: string, input: { plan_id: string; schedule_change_at: 'cycle_end'; customer_notify?: 0 | 1 }) =>
      call<RazorpaySubscription>('PATCH', `/subscriptions/${id(subscriptionId)}`, input),
    /** The card network's reference for the card behind a saved card's token (one free trial per card). */
    cardReference: (tokenId: string) => call<RazorpayCardReference>('POST', '/cards/fingerprints', { token: tokenId }),
    /** Cancels now, or (`atCycleEnd`) when the paid cycle ends: no more charges either way. */
    cancelSubscription: (subscriptionId: string, { atCycleEnd = false }: { atCycleEnd?: boolean } = {}) =>
      call<RazorpaySubscription>('POST', `/subscriptions/${id(subscriptionId)}/cancel`, { cancel_at_cycle_end: atCycleEnd ? 1 : 0 }),
    fetchPayment: (paymentId: string) => call<RazorpayPayment>('GET', `/payments/${id(paymentId)}`),
    /**
     * Refunds the whole payment, or `amount` paise of it (a partial refund; Razorpay allows several
     * until the payment is refunded in full). `notes` stay with the refund, so it can be found again.
     */
    refundPayment: (paymentId: string, input: { amount?: number; notes?: Record<string, string>; receipt?: string } = {}) =>
      call<RazorpayRefund>('POST', `/payments/${id(paymentId)}/refund`, { speed: 'normal', ...input }),
    /** Every refund of a payment, for finding one whose answer was lost. */
    fetchRefunds: (paymentId: string) => call<RazorpayCollection<RazorpayRefund>>('GET', `/payments/${id(paymentId)}/refunds?count=100`),
  };
}

/** A fetch answered by this same server (`app.inject`), for the sandbox: no port, no network, same HTTP handling. */
export function inProcessFetch(
  inject: (request: {
    method: 'GET' | 'POST' | 'PATCH';
    url: string;
    headers: Record<string, string>;
    payload?: string;
  }) => Promise<{ statusCode: number; json(): unknown }>,
): FetchLike {
  return async (url, init) => {
    const response = await inject({ method: init.method as 'GET' | 'POST' | 'PATCH', url, headers: init.headers, payload: init.body });
    return { status: response.statusCode, json: async () => response.json() };
  };
}
