/**
 * Errors as Razorpay answers them. Not the app's AppError: the sandbox speaks Razorpay's
 * protocol, whose error body the app's Razorpay client reads.
 */

export interface RazorpayErrorBody {
  code: 'BAD_REQUEST_ERROR' | 'SERVER_ERROR';
  description: string;
  source: string;
  step: string;
  reason: string;
  metadata: Record<string, unknown>;
  field?: string;
}

export class SandboxError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: RazorpayErrorBody,
  ) {
    super(body.description);
    this.name = 'SandboxError';
  }
}

/** Bad input, as Razorpay describes it; `field` names the input at fault. */
export const inputError = (description: string, field?: string) =>
  new SandboxError(400, {
    code: 'BAD_REQUEST_ERROR',
    description,
    source: 'business',
    step: 'payment_initiation',
    reason: 'input_validation_failed',
    metadata: {},
    ...(field && { field }),
  });

/** A request the entity's state does not allow (cancel a cancelled subscription, refund a refunded payment). */
export const stateError = (description: string) =>
  new SandboxError(400, { code: 'BAD_REQUEST_ERROR', description, source: 'NA', step: 'NA', reason: 'NA', metadata: {} });

export const authenticationFailed = () =>
  new SandboxError(401, { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed', source: 'NA', step: 'NA', reason: 'NA', metadata: {} });

export const idNotFound = () => inputError('The id provided does not exist');

export const INVALID_CARD = 'Your card number is invalid';
export const DECLINED = 'Your payment has been declined by your bank. Try another card, or contact your bank.';

/** A card the bank declined; the failed payment it left is named in the metadata. */
export const declinedError = (paymentId: string) =>
  new SandboxError(400, {
    code: 'BAD_REQUEST_ERROR',
    description: DECLINED,
    source: 'bank',
    step: 'payment_authorization',
    reason: 'payment_declined',
    metadata: { payment_id: paymentId },
  });
