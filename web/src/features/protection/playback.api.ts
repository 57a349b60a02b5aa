import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import type { StreamLimit } from '@lms/contract/protection';
import { API_ROOT, urlFor } from '../../lib/api-client';
import { serverCall, serverState, type CacheDispatch, type ServerError } from '../../lib/server-state';

/**
 * Playback leases: a lecture plays on this device while its lease is renewed; the server refuses a
 * start past the account's limit (409, naming the devices playing). Every call is quiet: the player
 * says what went wrong in place, never in a toast.
 */
const playbackApi = serverState.enhanceEndpoints({ addTagTypes: ['Streams'] }).injectEndpoints({
  endpoints: (build) => ({
    startPlayback: build.mutation<ResponseOf<typeof endpoints.playback.start>, string>({
      query: (lectureId) =>
        serverCall(endpoints.playback.start, { body: { lectureId } }, { fallback: messages.operationFailed, quiet: true, keepsPageAnswers: true }),
      invalidatesTags: ['Streams'],
    }),
    renewPlayback: build.mutation<ResponseOf<typeof endpoints.playback.heartbeat>, string>({
      query: (id) => serverCall(endpoints.playback.heartbeat, { params: { id } }, { fallback: messages.operationFailed, quiet: true }),
    }),
    /** This device's lease, or another's ("Stop playback there"): the slot is free at once. */
    stopPlayback: build.mutation<ResponseOf<typeof endpoints.playback.stop>, string>({
      query: (id) => serverCall(endpoints.playback.stop, { params: { id } }, { fallback: messages.operationFailed, quiet: true }),
      invalidatesTags: ['Streams'],
    }),
    getStreams: build.query<ResponseOf<typeof endpoints.playback.streams>, void>({
      query: () => serverCall(endpoints.playback.streams, {}, { fallback: messages.operationFailed, quiet: true }),
      providesTags: ['Streams', 'Viewer'],
    }),
  }),
});

export const { useGetStreamsQuery } = playbackApi;
const { startPlayback, renewPlayback, stopPlayback } = playbackApi.endpoints;

/** Calls the hook makes from timers and handlers: untracked (a heartbeat every half minute would pile up in the store). */
export const playbackCalls = (dispatch: CacheDispatch) => ({
  start: (lectureId: string) => dispatch(startPlayback.initiate(lectureId, { track: false })).unwrap(),
  renew: (id: string) => dispatch(renewPlayback.initiate(id, { track: false })).unwrap(),
  stop: (id: string) => dispatch(stopPlayback.initiate(id, { track: false })).unwrap(),
});

/** The 409's body, when a start was refused for the account's limit. */
export function streamLimitOf(error: unknown): StreamLimit | undefined {
  const failure = error as Partial<ServerError> | undefined;
  if (failure?.status !== 409) return undefined;
  const body = failure.body as Partial<StreamLimit> | undefined;
  return typeof body?.limit === 'number' && Array.isArray(body.streams) ? (body as StreamLimit) : undefined;
}

/**
 * Stops this device's lease as the page goes (closed, reloaded, left for another site): a keepalive
 * fetch outlives the page, and sendBeacon cannot send a DELETE. Quiet: nobody is left to tell.
 */
export function stopOnLeave(id: string) {
  const url = API_ROOT + urlFor(endpoints.playback.stop, { params: { id } });
  void fetch(url, { method: 'DELETE', keepalive: true, credentials: 'include' }).catch(() => undefined);
}
