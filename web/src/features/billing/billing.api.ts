import { endpoints } from '@lms/contract/endpoints';
import type { BillingDetails } from '@lms/contract/billing';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { serverCall, serverState } from '../../lib/server-state';

/** The signed-in buyer's billing: history with its documents, and the tax details for the next invoices. */
const billingApi = serverState.enhanceEndpoints({ addTagTypes: ['Billing'] }).injectEndpoints({
  endpoints: (build) => ({
    getBillingHistory: build.query<ResponseOf<typeof endpoints.billing.history>, void>({
      query: () => serverCall(endpoints.billing.history, {}, { fallback: messages.failedLoadData, quiet: true }),
      // A payment or a cancellation changes the viewer: the history is read again.
      providesTags: ['Billing', 'Viewer'],
    }),
    getBillingDetails: build.query<ResponseOf<typeof endpoints.billing.details>, void>({
      query: () => serverCall(endpoints.billing.details, {}, { fallback: messages.failedLoadData, quiet: true }),
      providesTags: ['Billing', 'Viewer'],
    }),
    saveBillingDetails: build.mutation<ResponseOf<typeof endpoints.billing.saveDetails>, BillingDetails>({
      // Quiet: the form says a refusal under the field it is about (BillingSection.tsx).
      query: (body) => serverCall(endpoints.billing.saveDetails, { body }, { fallback: messages.operationFailed, toastSuccess: true, quiet: true }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        // Only puts the saved details into the cache; no request is made, so there is nothing to wait for.
        if (data) void dispatch(billingApi.util.upsertQueryData('getBillingDetails', undefined, data));
      },
    }),
    /** The discount the cancel dialog may offer instead. Quiet: without it the dialog is as it was. */
    getSaveOffer: build.query<ResponseOf<typeof endpoints.payments.saveOffer>, void>({
      query: () => serverCall(endpoints.payments.saveOffer, {}, { fallback: messages.failedLoadData, quiet: true }),
      providesTags: ['Billing', 'Viewer'],
    }),
    /** What cancelling now would do for this subscriber, as the server's refund rule decides. Quiet: without it the dialog states the rule. */
    getCancellationTerms: build.query<ResponseOf<typeof endpoints.payments.cancellation>, void>({
      query: () => serverCall(endpoints.payments.cancellation, {}, { fallback: messages.failedLoadData, quiet: true }),
      providesTags: ['Billing', 'Viewer'],
    }),
    /** Takes the save offer: the next payments are discounted, which the history's renewal line then shows; a refusal reads the offer again. */
    acceptSaveOffer: build.mutation<ResponseOf<typeof endpoints.payments.acceptSaveOffer>, void>({
      query: () => serverCall(endpoints.payments.acceptSaveOffer, {}, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: ['Billing'],
    }),
  }),
});

export const {
  useGetBillingHistoryQuery,
  useGetBillingDetailsQuery,
  useSaveBillingDetailsMutation,
  useGetSaveOfferQuery,
  useGetCancellationTermsQuery,
  useAcceptSaveOfferMutation,
} = billingApi;
