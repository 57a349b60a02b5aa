import { endpoints } from '@lms/contract/endpoints';
import type { BodyOf, ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { API_ROOT, urlFor } from '../../../lib/api-client';
import { serverCall, serverState } from '../../../lib/server-state';

/** The administrator's list shows this many certificates a page. */
export const CERTIFICATES_PAGE_SIZE = 50;

export interface AdminCertificatesArgs {
  /** One course's certificates; every course's when left out. */
  courseId?: string;
  page: number;
}

/**
 * The administrator's certificates: the list (one course's or all, a page at a time), issuing one by
 * hand, revoking and restoring. A write reads the lists again: a new certificate moves every later
 * one down a page, and the totals change.
 */
const certificatesAdminApi = serverState.enhanceEndpoints({ addTagTypes: ['AdminCertificate'] }).injectEndpoints({
  endpoints: (build) => ({
    getAdminCertificates: build.query<ResponseOf<typeof endpoints.certificates.list>, AdminCertificatesArgs>({
      query: ({ courseId, page }) =>
        serverCall(endpoints.certificates.list, { query: { courseId, page, limit: CERTIFICATES_PAGE_SIZE } }, { fallback: messages.failedLoadData }),
      providesTags: ['AdminCertificate', 'Viewer'],
    }),
    // Quiet: the form shows the server's refusal (no such account, already has one) beside the fields.
    issueCertificate: build.mutation<ResponseOf<typeof endpoints.certificates.issue>, BodyOf<typeof endpoints.certificates.issue>>({
      query: (body) => serverCall(endpoints.certificates.issue, { body }, { fallback: messages.operationFailed, toastSuccess: true, quiet: true }),
      invalidatesTags: (_answer, error) => (error ? [] : ['AdminCertificate']),
    }),
    setCertificateRevoked: build.mutation<ResponseOf<typeof endpoints.certificates.revoke>, { code: string; revoked: boolean }>({
      query: ({ code, revoked }) =>
        serverCall(endpoints.certificates.revoke, { params: { code }, body: { revoked } }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error) => (error ? [] : ['AdminCertificate']),
    }),
  }),
});

export const { useGetAdminCertificatesQuery, useIssueCertificateMutation, useSetCertificateRevokedMutation } = certificatesAdminApi;

/** The CSV of the certificates (one course's, or all): a plain link, so the browser saves what the server streams. */
export const certificatesExportUrl = (courseId?: string) => API_ROOT + urlFor(endpoints.certificates.export, { query: { courseId } });

/** A certificate's PDF, for an administrator as for its learner: a download. */
export const certificatePdfUrl = (code: string) => API_ROOT + urlFor(endpoints.certificates.pdf, { params: { code } });
