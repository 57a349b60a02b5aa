// Placeholder: replaced by the actions feature (the learner's and a payment's buttons and dialogs).
import type { LearnerDetail, LearnerPayment } from '@lms/contract/learners';

export function LearnerActions(_props: { learner: LearnerDetail }): null {
  return null;
}

export function PaymentActions(_props: { learner: LearnerDetail; payment: LearnerPayment }): null {
  return null;
}
