import { endpoints } from '@lms/contract/endpoints';
import type { BodyOf, ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { ApiError, uploadWithProgress, urlFor } from '../../lib/api-client';
import { serverCall, serverState, type CacheDispatch } from '../../lib/server-state';
import { setSite } from '../../lib/site';

type SettingsAnswer = ResponseOf<typeof endpoints.settings.get>;

/**
 * The admin's site settings. Every write answers with the whole settings: they replace the cached
 * ones, and the site this tab shows (header, title, colours) changes at once through `setSite`.
 */
const settingsApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    getSettings: build.query<SettingsAnswer, void>({
      query: () => serverCall(endpoints.settings.get, {}, { fallback: messages.failedLoadData }),
    }),
    updateSettings: build.mutation<ResponseOf<typeof endpoints.settings.update>, BodyOf<typeof endpoints.settings.update>>({
      query: (body) => serverCall(endpoints.settings.update, { body }, { fallback: messages.operationFailed, toastSuccess: true }),
      onQueryStarted: (_body, { dispatch, queryFulfilled }) => applyAnswer(dispatch, queryFulfilled),
    }),
    removeLogo: build.mutation<ResponseOf<typeof endpoints.settings.removeLogo>, void>({
      query: () => serverCall(endpoints.settings.removeLogo, {}, { fallback: messages.operationFailed, toastSuccess: true }),
      onQueryStarted: (_body, { dispatch, queryFulfilled }) => applyAnswer(dispatch, queryFulfilled),
    }),
    uploadLogo: build.mutation<ResponseOf<typeof endpoints.settings.setLogo>, { form: FormData; onProgress: (fraction: number) => void }>({
      async queryFn({ form, onProgress }, { signal }) {
        try {
          const answer = await uploadWithProgress<ResponseOf<typeof endpoints.settings.setLogo>>(urlFor(endpoints.settings.setLogo, { body: form }), form, {
            method: endpoints.settings.setLogo.method,
            fallback: messages.operationFailed,
            toastSuccess: true,
            onProgress,
            signal,
          });
          return { data: answer };
        } catch (error) {
          if (error instanceof ApiError) return { error: { status: error.status, message: error.message } };
          if ((error as Error).name === 'AbortError') return { error: { status: 0, message: (error as Error).message } };
          throw error;
        }
      },
      onQueryStarted: (_body, { dispatch, queryFulfilled }) => applyAnswer(dispatch, queryFulfilled),
    }),
  }),
});

/** The saved settings become the cached ones and the site this tab shows. */
async function applyAnswer(dispatch: CacheDispatch, queryFulfilled: Promise<{ data: SettingsAnswer }>) {
  const answer = await queryFulfilled.catch(() => undefined);
  if (!answer) return;
  void dispatch(settingsApi.util.upsertQueryData('getSettings', undefined, answer.data));
  setSite(answer.data.settings.site);
}

export const { useGetSettingsQuery, useUpdateSettingsMutation, useRemoveLogoMutation } = settingsApi;

/** Uploads the logo with its progress; `signal` cancels it (the promise then rejects with an AbortError). */
export const uploadLogo = (form: FormData, options: { onProgress: (fraction: number) => void; signal: AbortSignal }) => async (dispatch: CacheDispatch) => {
  const request = dispatch(settingsApi.endpoints.uploadLogo.initiate({ form, onProgress: options.onProgress }));
  options.signal.addEventListener('abort', () => request.abort());
  return request.unwrap();
};
