import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { serverCall, serverState } from '../../lib/server-state';

type CaptionsAnswer = ResponseOf<typeof endpoints.captions.list>;
interface LectureIds {
  courseId: string;
  lectureId: string;
}

/** A lecture's captions: read by whoever may watch it (the player, the transcript), managed by an administrator. */
export const captionsApi = serverState.enhanceEndpoints({ addTagTypes: ['Captions'] }).injectEndpoints({
  endpoints: (build) => ({
    /**
     * The languages with links to their WebVTT files made for this viewer. Quiet: captions add to the
     * player, and a refusal or a failure must not interrupt the lecture with a toast.
     */
    getCaptions: build.query<CaptionsAnswer, LectureIds>({
      query: (ids) => serverCall(endpoints.captions.list, { params: ids }, { fallback: 'Could not load the captions', quiet: true }),
      providesTags: (_answer, _error, { lectureId }) => [{ type: 'Captions', id: lectureId }, 'Viewer'],
    }),
  }),
});

export const { useGetCaptionsQuery } = captionsApi;
