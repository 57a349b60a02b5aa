import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { ApiError, uploadWithProgress, urlFor } from '../../lib/api-client';
import { serverCall, serverState, type CacheDispatch } from '../../lib/server-state';
import { resourcesTexts } from './resources-texts';

type ResourcesAnswer = ResponseOf<typeof endpoints.resources.list>;
type Resource = ResourcesAnswer['resources'][number];
interface LectureIds {
  courseId: string;
  lectureId: string;
}

/** A lecture's files: read by whoever may watch it, attached and removed by an administrator. */
const resourcesApi = serverState.enhanceEndpoints({ addTagTypes: ['Resources'] }).injectEndpoints({
  endpoints: (build) => ({
    /**
     * The files with download links made for this viewer. Quiet: the files add to a page, and a
     * refusal (a learner without access) or a failure must not interrupt the lecture with a toast.
     */
    getResources: build.query<ResourcesAnswer, LectureIds>({
      query: (ids) => serverCall(endpoints.resources.list, { params: ids }, { fallback: resourcesTexts.loadFailed, quiet: true }),
      providesTags: (_answer, _error, { lectureId }) => [{ type: 'Resources', id: lectureId }, 'Viewer'],
    }),
    /** Admin: removes a file; the list drops it once the server has. */
    deleteResource: build.mutation<ResponseOf<typeof endpoints.resources.delete>, LectureIds & { resourceId: string }>({
      query: (ids) => serverCall(endpoints.resources.delete, { params: ids }, { fallback: resourcesTexts.removeFailed, toastSuccess: true }),
      async onQueryStarted({ courseId, lectureId, resourceId }, { dispatch, queryFulfilled }) {
        const done = await queryFulfilled.catch(() => undefined);
        if (!done) return;
        dispatch(
          resourcesApi.util.updateQueryData('getResources', { courseId, lectureId }, (draft) => {
            draft.resources = draft.resources.filter((item) => item._id !== resourceId);
          }),
        );
      },
    }),
    /**
     * Admin: `POST …/resources` (multipart: the file as `file`), sent with XMLHttpRequest, which
     * reports upload progress (fetch cannot); aborting the request cancels it.
     */
    attachResource: build.mutation<ResponseOf<typeof endpoints.resources.add>, LectureIds & { form: FormData; onProgress: (fraction: number) => void }>({
      async queryFn({ courseId, lectureId, form, onProgress }, { signal }) {
        try {
          const url = urlFor(endpoints.resources.add, { params: { courseId, lectureId }, body: form });
          const options = { fallback: resourcesTexts.attachFailed, toastSuccess: true, onProgress, signal };
          return { data: await uploadWithProgress<ResponseOf<typeof endpoints.resources.add>>(url, form, options) };
        } catch (error) {
          if (error instanceof ApiError) return { error: { status: error.status, message: error.message } };
          if ((error as Error).name === 'AbortError') return { error: { status: 0, message: (error as Error).message } };
          throw error;
        }
      },
      async onQueryStarted({ courseId, lectureId }, { dispatch, queryFulfilled }) {
        const done = await queryFulfilled.catch(() => undefined);
        if (done) dispatch(resourceAdded({ courseId, lectureId }, done.data.resource));
      },
    }),
  }),
});

export const { useGetResourcesQuery, useDeleteResourceMutation } = resourcesApi;

const resourceAdded = (ids: LectureIds, resource: Resource) =>
  resourcesApi.util.updateQueryData('getResources', ids, (draft) => {
    if (!draft.resources.some((item) => item._id === resource._id)) draft.resources.push(resource);
  });

/** Attaches `file` to the lecture; `signal` cancels the upload (the promise then rejects with an AbortError). */
export const attachResource =
  (ids: LectureIds, file: File, options: { onProgress: (fraction: number) => void; signal: AbortSignal }) => async (dispatch: CacheDispatch) => {
    const form = new FormData();
    form.set('file', file);
    const request = dispatch(resourcesApi.endpoints.attachResource.initiate({ ...ids, form, onProgress: options.onProgress }));
    options.signal.addEventListener('abort', () => request.abort());
    return request.unwrap();
  };
