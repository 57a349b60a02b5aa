import { endpoints } from '@lms/contract/endpoints';
import type { BodyOf, ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { serverCall, serverState } from '../../../lib/server-state';

/** A write about one learner: their id (whose page reads again) and what is sent. */
interface LearnerWrite<Body> {
  learnerId: string;
  body: Body;
}

/** After a write, the learner's page and the lists (their state may have changed) read again. */
const learnerTags = (learnerId: string) => [{ type: 'Learner' as const, id: learnerId }, 'Learner' as const];

/**
 * What an administrator does on a learner's page: complimentary access, an email change, a
 * refund, a document mailed again. The dialogs' writes are quiet: a refusal is said inside the
 * dialog, beside what was typed; a success is the server's toast. Suspension and ending sessions
 * are the protection feature's (it tags them for this page too).
 */
const learnerActionsApi = serverState.enhanceEndpoints({ addTagTypes: ['Learner'] }).injectEndpoints({
  endpoints: (build) => ({
    grantAccess: build.mutation<ResponseOf<typeof endpoints.learners.grantAccess>, LearnerWrite<BodyOf<typeof endpoints.learners.grantAccess>>>({
      query: ({ learnerId, body }) =>
        serverCall(
          endpoints.learners.grantAccess,
          { params: { id: learnerId }, body },
          { fallback: messages.operationFailed, toastSuccess: true, quiet: true },
        ),
      invalidatesTags: (_answer, error, { learnerId }) => (error ? [] : learnerTags(learnerId)),
    }),
    revokeAccess: build.mutation<ResponseOf<typeof endpoints.learners.revokeAccess>, LearnerWrite<BodyOf<typeof endpoints.learners.revokeAccess>>>({
      query: ({ learnerId, body }) =>
        serverCall(
          endpoints.learners.revokeAccess,
          { params: { id: learnerId }, body },
          { fallback: messages.operationFailed, toastSuccess: true, quiet: true },
        ),
      invalidatesTags: (_answer, error, { learnerId }) => (error ? [] : learnerTags(learnerId)),
    }),
    changeEmail: build.mutation<ResponseOf<typeof endpoints.learners.changeEmail>, LearnerWrite<BodyOf<typeof endpoints.learners.changeEmail>>>({
      query: ({ learnerId, body }) =>
        serverCall(
          endpoints.learners.changeEmail,
          { params: { id: learnerId }, body },
          { fallback: messages.operationFailed, toastSuccess: true, quiet: true },
        ),
      invalidatesTags: (_answer, error, { learnerId }) => (error ? [] : learnerTags(learnerId)),
    }),
    // A refusal of the provider is said in the dialog; the page reads again either way, since a
    // refused or pending refund is listed under its payment too.
    refundPayment: build.mutation<ResponseOf<typeof endpoints.learners.refund>, LearnerWrite<BodyOf<typeof endpoints.learners.refund>> & { paymentId: string }>(
      {
        query: ({ paymentId, body }) =>
          serverCall(endpoints.learners.refund, { params: { id: paymentId }, body }, { fallback: messages.operationFailed, toastSuccess: true, quiet: true }),
        invalidatesTags: (_answer, _error, { learnerId }) => learnerTags(learnerId),
      },
    ),
    resendDocument: build.mutation<ResponseOf<typeof endpoints.learners.resendDocument>, { learnerId: string; documentId: string }>({
      query: ({ documentId }) =>
        serverCall(endpoints.learners.resendDocument, { params: { id: documentId }, body: {} }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error, { learnerId }) => (error ? [] : learnerTags(learnerId)),
    }),
  }),
});

export const { useGrantAccessMutation, useRevokeAccessMutation, useChangeEmailMutation, useRefundPaymentMutation, useResendDocumentMutation } =
  learnerActionsApi;
