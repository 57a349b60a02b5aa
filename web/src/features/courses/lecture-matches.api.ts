import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { serverCall, serverState } from '../../lib/server-state';
import { lectureMatchesTexts } from './lecture-matches-texts';

type MatchesAnswer = ResponseOf<typeof endpoints.captions.search>;

/** Search inside what lectures say (their captions), beside the catalogue's own search. */
const lectureMatchesApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The best cue of each lecture that says `q`, and whether the viewer may watch it. Quiet: the
     * matches add to the catalogue's results, and a failure must not interrupt them with a toast.
     */
    getLectureMatches: build.query<MatchesAnswer, string>({
      query: (q) => serverCall(endpoints.captions.search, { query: { q } }, { fallback: lectureMatchesTexts.searchFailed, quiet: true }),
      // Who may watch each lecture depends on who is looking.
      providesTags: ['Viewer'],
    }),
  }),
});

export const { useGetLectureMatchesQuery } = lectureMatchesApi;
