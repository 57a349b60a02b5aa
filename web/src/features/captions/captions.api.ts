import type { Caption, CaptionUpdate, CueInput } from '@lms/contract/captions';
import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { ApiError, uploadWithProgress, urlFor } from '../../lib/api-client';
import { serverCall, serverState, type CacheDispatch } from '../../lib/server-state';
import { captionsTexts } from './captions-texts';

type CaptionsAnswer = ResponseOf<typeof endpoints.captions.list>;
type CaptionAnswer = ResponseOf<typeof endpoints.captions.add>;
interface LectureIds {
  courseId: string;
  lectureId: string;
}
type CaptionIds = LectureIds & { captionId: string };
interface Upload {
  form: FormData;
  onProgress: (fraction: number) => void;
}

/** A lecture's captions: read by whoever may watch it (the player, the transcript), managed by an administrator. */
export const captionsApi = serverState.enhanceEndpoints({ addTagTypes: ['Captions'] }).injectEndpoints({
  endpoints: (build) => ({
    /**
     * The languages with links to their WebVTT files made for this viewer. Quiet: captions add to the
     * player, and a refusal or a failure must not interrupt the lecture with a toast.
     */
    getCaptions: build.query<CaptionsAnswer, LectureIds>({
      query: (ids) => serverCall(endpoints.captions.list, { params: ids }, { fallback: captionsTexts.loadFailed, quiet: true }),
      providesTags: (_answer, _error, { lectureId }) => [{ type: 'Captions', id: lectureId }, 'Viewer'],
    }),
    /**
     * Admin: a new language (multipart, the file as `captions`), sent with XMLHttpRequest for its
     * progress. Quiet: a broken file's refusal names its line, and the form shows it under itself.
     */
    addCaption: build.mutation<CaptionAnswer, LectureIds & Upload>({
      queryFn: ({ courseId, lectureId, form, onProgress }, { signal }) =>
        upload(urlFor(endpoints.captions.add, { params: { courseId, lectureId }, body: form }), form, {
          fallback: captionsTexts.addFailed,
          quiet: true,
          toastSuccess: true,
          onProgress,
          signal,
        }),
      onQueryStarted: (ids, api) => keepAnswer(ids, api),
    }),
    /** Admin: a new file for a language (a new version), its label optionally with it. Refusals as a toast: the row has no room for a line's message. */
    replaceCaption: build.mutation<CaptionAnswer, CaptionIds & Upload>({
      queryFn: ({ courseId, lectureId, captionId, form, onProgress }, { signal }) =>
        upload(urlFor(endpoints.captions.replace, { params: { courseId, lectureId, captionId }, body: form }), form, {
          fallback: captionsTexts.replaceFailed,
          toastSuccess: true,
          method: 'PUT',
          onProgress,
          signal,
        }),
      onQueryStarted: (ids, api) => keepAnswer(ids, api),
    }),
    /** Admin: a new label, or made the default (the language that was the default is no longer). */
    updateCaption: build.mutation<CaptionAnswer, CaptionIds & { change: CaptionUpdate }>({
      query: ({ change, ...ids }) =>
        serverCall(endpoints.captions.update, { params: ids, body: change }, { fallback: captionsTexts.updateFailed, toastSuccess: true }),
      onQueryStarted: (ids, api) => keepAnswer(ids, api),
    }),
    /** Admin: the cue editor's cues, stored as a new version of the file. Quiet: the editor shows a refusal beside the cues. */
    saveCues: build.mutation<CaptionAnswer, CaptionIds & { cues: CueInput[] }>({
      query: ({ cues, ...ids }) =>
        serverCall(endpoints.captions.saveCues, { params: ids, body: { cues } }, { fallback: captionsTexts.saveFailed, quiet: true, toastSuccess: true }),
      onQueryStarted: (ids, api) => keepAnswer(ids, api),
    }),
    /** Admin: removes a language; the list is read again, since the server may have made another the default. */
    deleteCaption: build.mutation<ResponseOf<typeof endpoints.captions.delete>, CaptionIds>({
      query: (ids) => serverCall(endpoints.captions.delete, { params: ids }, { fallback: captionsTexts.removeFailed, toastSuccess: true }),
      async onQueryStarted({ courseId, lectureId, captionId }, { dispatch, queryFulfilled }) {
        const done = await queryFulfilled.catch(() => undefined);
        if (!done) return;
        dispatch(
          captionsApi.util.updateQueryData('getCaptions', { courseId, lectureId }, (draft) => {
            draft.captions = draft.captions.filter((item) => item._id !== captionId);
          }),
        );
        dispatch(captionsApi.util.invalidateTags([{ type: 'Captions', id: lectureId }]));
      },
    }),
  }),
});

export const { useGetCaptionsQuery, useUpdateCaptionMutation, useSaveCuesMutation, useDeleteCaptionMutation } = captionsApi;

async function upload(url: string, form: FormData, options: Parameters<typeof uploadWithProgress>[2]) {
  try {
    return { data: await uploadWithProgress<CaptionAnswer>(url, form, options) };
  } catch (error) {
    if (error instanceof ApiError) return { error: { status: error.status, message: error.message } };
    if ((error as Error).name === 'AbortError') return { error: { status: 0, message: (error as Error).message } };
    throw error;
  }
}

/** The list's order, as the server gives it: the default first, then by label. */
const listOrder = (a: Caption, b: Caption) => Number(b.isDefault) - Number(a.isDefault) || a.label.localeCompare(b.label);

/**
 * The answer's caption into the lecture's list (added, or in place of its old self), so the player,
 * the transcript and the manager show it at once; a new default takes the mark from the old one.
 */
async function keepAnswer(
  { courseId, lectureId }: LectureIds,
  { dispatch, queryFulfilled }: { dispatch: CacheDispatch; queryFulfilled: Promise<{ data: CaptionAnswer }> },
) {
  const done = await queryFulfilled.catch(() => undefined);
  if (!done) return;
  const caption = done.data.caption;
  dispatch(
    captionsApi.util.updateQueryData('getCaptions', { courseId, lectureId }, (draft) => {
      const others = draft.captions.filter((item) => item._id !== caption._id);
      draft.captions = [...others.map((item) => (caption.isDefault ? { ...item, isDefault: false } : item)), caption].sort(listOrder);
    }),
  );
}

/** What an upload of a caption file takes: the file, its progress, and a signal that cancels it (the promise then rejects with an AbortError). */
interface UploadOptions {
  onProgress: (fraction: number) => void;
  signal: AbortSignal;
}

/** Adds captions in a new language to the lecture. */
export const addCaption =
  (ids: LectureIds, fields: { file: File; language: string; label: string; isDefault: boolean }, options: UploadOptions) => async (dispatch: CacheDispatch) => {
    const form = new FormData();
    form.set('language', fields.language);
    form.set('label', fields.label);
    form.set('default', String(fields.isDefault));
    // The file last: the server reads the fields before the file's stream.
    form.set('captions', fields.file);
    const request = dispatch(captionsApi.endpoints.addCaption.initiate({ ...ids, form, onProgress: options.onProgress }));
    options.signal.addEventListener('abort', () => request.abort());
    return request.unwrap();
  };

/** Replaces the file of one language's captions: a new version. */
export const replaceCaption = (ids: CaptionIds, fields: { file: File; label?: string }, options: UploadOptions) => async (dispatch: CacheDispatch) => {
  const form = new FormData();
  if (fields.label !== undefined) form.set('label', fields.label);
  form.set('captions', fields.file);
  const request = dispatch(captionsApi.endpoints.replaceCaption.initiate({ ...ids, form, onProgress: options.onProgress }));
  options.signal.addEventListener('abort', () => request.abort());
  return request.unwrap();
};
