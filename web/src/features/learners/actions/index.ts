/**
 * What the learner's page uses of the administrator's actions on a learner: the header's buttons
 * (access, email, suspension, sessions) and a payment's (refund, resend its documents).
 */
export { LearnerActions } from './LearnerActions';
export { PaymentActions } from './PaymentActions';
