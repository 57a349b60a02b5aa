import type { CertificateName } from '@lms/contract/certificates';
import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { API_ROOT, urlFor } from '../../lib/api-client';
import { serverCall, serverState } from '../../lib/server-state';
import { certificatesTexts } from './certificates-texts';

type MineAnswer = ResponseOf<typeof endpoints.certificates.mine>;

/** The learner's certificates (the profile, the course's block) and anyone's check of one by its code. */
const certificatesApi = serverState.enhanceEndpoints({ addTagTypes: ['Certificates'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Every certificate of the learner, and the name printed on them. Quiet: the card says a failure in its place. */
    getMyCertificates: build.query<MineAnswer, void>({
      query: () => serverCall(endpoints.certificates.mine, {}, { fallback: certificatesTexts.loadMineFailed, quiet: true }),
      providesTags: ['Certificates', 'Viewer'],
    }),
    /** The name printed on certificates, chosen once. Quiet: the form says a refusal under the field; the list takes the answer. */
    chooseCertificateName: build.mutation<MineAnswer, CertificateName>({
      query: (body) => serverCall(endpoints.certificates.chooseName, { body }, { fallback: certificatesTexts.nameFailed, quiet: true, toastSuccess: true }),
      async onQueryStarted(_body, { dispatch, queryFulfilled }) {
        const answer = await queryFulfilled.catch(() => undefined);
        // Only puts the answer into the cache; no request is made, so there is nothing to wait for.
        if (answer) void dispatch(certificatesApi.util.upsertQueryData('getMyCertificates', undefined, answer.data));
        // The course blocks show the certificates too, being made again with the new name.
        dispatch(certificatesApi.util.invalidateTags([{ type: 'Certificates', id: 'COURSE' }]));
      },
    }),
    /** The learner's certificate of a course, or how far they are from it. Quiet: the block adds to the lecture page. */
    getCourseCertificate: build.query<ResponseOf<typeof endpoints.certificates.forCourse>, string>({
      query: (id) => serverCall(endpoints.certificates.forCourse, { params: { id } }, { fallback: certificatesTexts.loadMineFailed, quiet: true }),
      providesTags: [{ type: 'Certificates', id: 'COURSE' }, 'Viewer'],
    }),
    /** Anyone: a certificate by its code. Quiet: a 404 is an answer (the page says "not found"), not an error. */
    verifyCertificate: build.query<ResponseOf<typeof endpoints.certificates.verify>, string>({
      query: (code) => serverCall(endpoints.certificates.verify, { params: { code } }, { fallback: certificatesTexts.loadFailed, quiet: true }),
    }),
  }),
});

export const { useGetMyCertificatesQuery, useChooseCertificateNameMutation, useGetCourseCertificateQuery, useVerifyCertificateQuery } = certificatesApi;

/** Where a certificate's PDF is, for a link the browser can follow itself (a new tab, "save link as"). */
export const certificatePdfHref = (code: string) => API_ROOT + urlFor(endpoints.certificates.pdf, { params: { code } });

/**
 * Downloads a certificate's PDF as a file. Fetched rather than followed, so that a 409 (the PDF is
 * still being made, as after choosing the name) becomes a note beside the button, not a page of JSON.
 */
export async function downloadCertificate(code: string): Promise<'saved' | 'being-made' | 'failed'> {
  let response: Response;
  try {
    response = await fetch(certificatePdfHref(code), { credentials: 'include' });
  } catch {
    return 'failed';
  }
  if (response.status === 409) return 'being-made';
  if (!response.ok) return 'failed';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `certificate-${code}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file to the browser; the object URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return 'saved';
}
