import type { Course } from '@lms/contract/courses';
import { endpoints } from '@lms/contract/endpoints';
import type { Endpoint, RequestOf, ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import type { Middleware, ThunkDispatch, UnknownAction, WithSlice } from '@reduxjs/toolkit';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { coursesLoaded } from '../features/courses/course.slice';
import { paymentRecordsLoaded } from '../features/payments/razorpay.slice';
import { ApiError, call, type CallOptions } from './api-client';
import { injectLazySlice, type RootState } from '../app/store';

/**
 * What the server holds, as the web app caches it (RTK Query): one entry per endpoint and
 * arguments, so the catalogue's page, the dashboard's hundred courses and one course by id
 * live side by side; each with its loading state; refreshed when a write invalidates its tags.
 *
 * - Reads a page shows are queries here (the storefront's, shared by several features) or
 *   injected by the feature that alone uses them (`features/<area>/<area>.api.ts`).
 * - Writes that change what a query shows are mutations that invalidate its tags.
 * - The session (login, signup, `me`, logout, profile, passwords) and one-shot steps (checkout's
 *   subscribe and verify, the contact form) call the same client directly: they write the
 *   spec's `auth` and `razorpay` areas, or nothing, and the session is needed on every page.
 *
 * Every call goes through `apiCall` (app/api.ts): the spec's fallback texts as error toasts,
 * success toasts, 401 logs out, the "choose a new password first" handler. This module loads
 * with the first page that fetches, not with the first chunk (see `injectLazySlice`).
 */

/** A call as a query or mutation describes it: an endpoint of the contract's table, what to send, and how to report it. */
export interface ServerCall {
  endpoint: Endpoint;
  request: RequestOf<Endpoint>;
  options: Omit<CallOptions, 'signal'>;
}
/** A failed call: the HTTP status (0 without an answer) and the message the client showed (or would have). */
export interface ServerError {
  status: number;
  message: string;
}

/**
 * The store's dispatch as the cache's own thunks (`util.updateQueryData`, …) need it: they type
 * the cache as present, which the store, loading it lazily, only knows as optional.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CacheDispatch = ThunkDispatch<any, unknown, UnknownAction>;

/** What to say about a failed query or mutation: the client's message, else `fallback`. */
export const messageOf = (error: ServerError | { message?: string } | undefined, fallback: string) => error?.message || fallback;

/** Describes a call to `endpoint`, typed by the contract's table. */
export const serverCall = <E extends Endpoint>(endpoint: E, request: RequestOf<E>, options: Omit<CallOptions, 'signal'>): ServerCall => ({
  endpoint,
  request: request as RequestOf<Endpoint>,
  options,
});

const baseQuery: BaseQueryFn<ServerCall, unknown, ServerError> = async ({ endpoint, request, options }, { signal }) => {
  try {
    return { data: await call(endpoint, request, { ...options, signal }) };
  } catch (error) {
    if (error instanceof ApiError) return { error: { status: error.status, message: error.message } };
    if ((error as Error).name === 'AbortError') return { error: { status: 0, message: (error as Error).message } };
    throw error;
  }
};

/**
 * Spec §3's areas keep holding what they held, for anyone who reads the store: a query's
 * result is copied into its area when it arrives. Pages read the cache, never these copies.
 */
export const mirrorInto =
  <T>(toAction: (data: T) => UnknownAction) =>
  async (_arg: unknown, { dispatch, queryFulfilled }: { dispatch: (action: UnknownAction) => unknown; queryFulfilled: Promise<{ data: T }> }) => {
    try {
      dispatch(toAction((await queryFulfilled).data));
    } catch {
      // The failure is the query's own, already reported.
    }
  };

/** The catalogue's filters and page, as `GET /courses` takes them. */
export interface CoursesQuery {
  search?: string;
  category?: string;
  page?: number;
  limit?: number;
}

export const LIST = 'LIST';

export const serverState = createApi({
  reducerPath: 'api',
  baseQuery,
  /**
   * Course: `LIST` for every list, and each course by id. Curriculum and Lecture: by course id.
   * Viewer: what depends on who is signed in (video URLs, access, admin figures), invalidated
   * when the user, their role or their subscription changes.
   */
  tagTypes: ['Course', 'Curriculum', 'Lecture', 'Viewer'],
  endpoints: (build) => ({
    /** A page of the catalogue (spec §7 `GET /courses`), filtered by `search` and `category`. */
    getCourses: build.query<ResponseOf<typeof endpoints.courses.list>, CoursesQuery>({
      query: ({ search, category, page, limit }) =>
        serverCall(endpoints.courses.list, { query: { search, category, page, limit } }, { fallback: messages.failedGetCourses }),
      providesTags: (answer) => [{ type: 'Course', id: LIST }, ...(answer?.courses ?? []).map(({ _id }) => ({ type: 'Course' as const, id: _id }))],
      onQueryStarted: mirrorInto((answer: ResponseOf<typeof endpoints.courses.list>) => coursesLoaded(answer.courses)),
    }),
    /** The categories on offer: those of the catalogue's newest hundred courses. Quiet: the filter just offers fewer. */
    getCategories: build.query<string[], void>({
      query: () => serverCall(endpoints.courses.list, { query: { limit: 100 } }, { fallback: messages.failedGetCourses, quiet: true }),
      transformResponse: (answer: ResponseOf<typeof endpoints.courses.list>) => [...new Set(answer.courses.map((course) => course.category))].sort(),
      providesTags: [{ type: 'Course', id: LIST }],
    }),
    /** One course by id (`GET /courses?id=`), for a page opened by its link; null when there is no such course. */
    getCourse: build.query<Course | null, string>({
      query: (id) => serverCall(endpoints.courses.list, { query: { id } }, { fallback: messages.failedGetCourses }),
      transformResponse: (answer: ResponseOf<typeof endpoints.courses.list>) => answer.courses[0] ?? null,
      providesTags: (_course, _error, id) => [{ type: 'Course', id }],
    }),
    /**
     * Ours, public: a course's curriculum (the course, every lecture's title and duration, the
     * lecture count and total duration), with the video URL of each free preview. Quiet: the
     * course page says in place that the course is not there, or could not be loaded.
     */
    getCurriculum: build.query<ResponseOf<typeof endpoints.courses.curriculum>, string>({
      query: (id) => serverCall(endpoints.courses.curriculum, { params: { id } }, { fallback: messages.failedLoadData, quiet: true }),
      // The same for everyone (previews' URLs name no viewer): not tagged Viewer.
      providesTags: (_answer, _error, id) => [{ type: 'Curriculum', id }, { type: 'Course', id }],
    }),
    /** The bundle as the checkout sells it: the provider's key, the Checkout script, the price per month. */
    getCheckoutDetails: build.query<ResponseOf<typeof endpoints.payments.razorpayKey>, void>({
      query: () => serverCall(endpoints.payments.razorpayKey, {}, { fallback: messages.somethingWentWrong }),
    }),
    /** Ours, public: the bundle's price per month and refund window, for the storefront (home, course page). Quiet: a page shows it is missing. */
    getPlan: build.query<ResponseOf<typeof endpoints.payments.plan>, void>({
      query: () => serverCall(endpoints.payments.plan, {}, { fallback: messages.failedLoadData, quiet: true }),
    }),
    /** Spec §2: the dashboard deletes a course; every list, the course and its lectures go stale. */
    deleteCourse: build.mutation<ResponseOf<typeof endpoints.courses.delete>, string>({
      query: (id) => serverCall(endpoints.courses.delete, { params: { id } }, { fallback: messages.failedDeleteCourses, toastSuccess: true }),
      invalidatesTags: (_answer, error, id) =>
        error ? [] : [{ type: 'Course', id: LIST }, { type: 'Course', id }, { type: 'Curriculum', id }, { type: 'Lecture', id }],
    }),
    /** Spec §7 `GET /payments?count=`: the dashboard's payment figures (admin). */
    getPaymentRecords: build.query<ResponseOf<typeof endpoints.payments.records>, number>({
      query: (count) => serverCall(endpoints.payments.records, { query: { count } }, { fallback: messages.failedPaymentRecord }),
      providesTags: ['Viewer'],
      onQueryStarted: mirrorInto(({ allPayments, finalMonths, monthlySalesRecord, subscriptionCount, totalRevenue }: ResponseOf<typeof endpoints.payments.records>) =>
        paymentRecordsLoaded({ allPayments, finalMonths, monthlySalesRecord, subscriptionCount, totalRevenue }),
      ),
    }),
  }),
});

export const {
  useGetCoursesQuery,
  useGetCategoriesQuery,
  useGetCourseQuery,
  useGetCurriculumQuery,
  useGetCheckoutDetailsQuery,
  useGetPlanQuery,
  useDeleteCourseMutation,
  useGetPaymentRecordsQuery,
} = serverState;

/** Who is looking: what the server's answers about access and video URLs depend on. */
const viewerOf = ({ auth }: RootState) => (auth.data ? `${auth.data._id} ${auth.data.role} ${auth.data.subscription.status}` : '');

/** Logging in or out, a new role or a subscription that starts or ends: answers made for the previous viewer are dropped. */
const viewerChanges: Middleware<object, RootState> = (store) => (next) => (action) => {
  const before = viewerOf(store.getState());
  const result = next(action);
  if (viewerOf(store.getState()) !== before) store.dispatch(serverState.util.invalidateTags(['Viewer']));
  return result;
};

declare module '../app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof serverState> {}
}

injectLazySlice(serverState, serverState.middleware, viewerChanges as Middleware);
