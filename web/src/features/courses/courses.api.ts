import type { Course } from '@lms/contract/courses';
import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { urlFor } from '../../lib/api-client';
import { takePageAnswer } from '../../lib/page-answers';
import { latestAnswer, LIST, serverCall, serverState, type CacheDispatch, type CacheState } from '../../lib/server-state';

/** The catalogue's filters and page, as `GET /courses` takes them. */
export interface CoursesQuery {
  search?: string;
  category?: string;
  page?: number;
  limit?: number;
}

type CourseList = ResponseOf<typeof endpoints.courses.list>;

/** The catalogue's reads (shared with the home page, the lecture page and the dashboard) and the admin's course writes. */
const coursesApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    /** A page of the catalogue (`GET /courses`), filtered by `search` and `category`. */
    getCourses: build.query<CourseList, CoursesQuery>({
      query: ({ search, category, page, limit }) =>
        serverCall(endpoints.courses.list, { query: { search, category, page, limit } }, { fallback: messages.failedGetCourses }),
      // Administrators' answers hold drafts: who is looking matters (Viewer).
      providesTags: (answer) => [{ type: 'Course', id: LIST }, 'Viewer', ...(answer?.courses ?? []).map(({ _id }) => ({ type: 'Course' as const, id: _id }))],
    }),
    /** The categories on offer: those of the catalogue's newest hundred courses. Quiet: the filter just offers fewer. */
    getCategories: build.query<string[], void>({
      query: () => serverCall(endpoints.courses.list, { query: { limit: 100 } }, { fallback: messages.failedGetCourses, quiet: true }),
      transformResponse: (answer: CourseList) => [...new Set(answer.courses.map((course) => course.category))].sort(),
      providesTags: [{ type: 'Course', id: LIST }, 'Viewer'],
    }),
    /** One course by id (`GET /courses?id=`), for a page opened by its link; null when there is no such course. */
    getCourse: build.query<Course | null, string>({
      query: (id) => serverCall(endpoints.courses.list, { query: { id } }, { fallback: messages.failedGetCourses }),
      transformResponse: (answer: CourseList) => answer.courses[0] ?? null,
      providesTags: (_course, _error, id) => [{ type: 'Course', id }, 'Viewer'],
    }),
    /**
     * Public: a course's curriculum (the course, every lecture's title and duration, the lecture
     * count and total duration), with the video URL of each free preview. Quiet: the course page
     * says in place that the course is not there, or could not be loaded.
     */
    getCurriculum: build.query<ResponseOf<typeof endpoints.courses.curriculum>, string>({
      query: (id) => serverCall(endpoints.courses.curriculum, { params: { id } }, { fallback: messages.failedLoadData, quiet: true }),
      // The same for every visitor (previews' URLs name no viewer); an administrator also gets drafts'.
      providesTags: (_answer, _error, id) => [{ type: 'Curriculum', id }, { type: 'Course', id }, 'Viewer'],
    }),
    /** `POST /courses` (multipart with the thumbnail): every list gains it. */
    createCourse: build.mutation<ResponseOf<typeof endpoints.courses.create>, FormData>({
      query: (form) => serverCall(endpoints.courses.create, { body: form }, { fallback: messages.failedCreateCourse, toastSuccess: true }),
      invalidatesTags: (_answer, error) => (error ? [] : [{ type: 'Course', id: LIST }]),
    }),
    /** `PUT /courses/:id`, any of the fields and a new thumbnail. */
    updateCourse: build.mutation<ResponseOf<typeof endpoints.courses.update>, { id: string; form: FormData }>({
      query: ({ id, form }) =>
        serverCall(endpoints.courses.update, { params: { id }, body: form }, { fallback: messages.failedCreateCourse, toastSuccess: true }),
      invalidatesTags: (_answer, error, { id }) =>
        error
          ? []
          : [
              { type: 'Course', id: LIST },
              { type: 'Course', id },
              { type: 'Curriculum', id },
            ],
    }),
    /** The dashboard deletes a course; every list, the course and its lectures go stale. */
    deleteCourse: build.mutation<ResponseOf<typeof endpoints.courses.delete>, string>({
      query: (id) => serverCall(endpoints.courses.delete, { params: { id } }, { fallback: messages.failedDeleteCourses, toastSuccess: true }),
      invalidatesTags: (_answer, error, id) =>
        error
          ? []
          : [
              { type: 'Course', id: LIST },
              { type: 'Course', id },
              { type: 'Curriculum', id },
              { type: 'Lecture', id },
            ],
    }),
    /** Publishes a draft now, or at `publishAt`: it shows (or will) in every list and on its page. */
    publishCourse: build.mutation<ResponseOf<typeof endpoints.courses.publish>, { id: string; publishAt?: string }>({
      query: ({ id, publishAt }) =>
        serverCall(endpoints.courses.publish, { params: { id }, body: { publishAt } }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error, { id }) => (error ? [] : courseChanged(id)),
    }),
    /** Makes a course a draft again (and drops a schedule). */
    unpublishCourse: build.mutation<ResponseOf<typeof endpoints.courses.unpublish>, string>({
      query: (id) => serverCall(endpoints.courses.unpublish, { params: { id } }, { fallback: messages.operationFailed, toastSuccess: true }),
      invalidatesTags: (_answer, error, id) => (error ? [] : courseChanged(id)),
    }),
  }),
});

/** What a change to the course's state makes stale: every list, the course, its curriculum. */
const courseChanged = (id: string) => [
  { type: 'Course' as const, id: LIST },
  { type: 'Course' as const, id },
  { type: 'Curriculum' as const, id },
];

export const {
  useGetCoursesQuery,
  useGetCategoriesQuery,
  useGetCourseQuery,
  useGetCurriculumQuery,
  useCreateCourseMutation,
  useUpdateCourseMutation,
  useDeleteCourseMutation,
  usePublishCourseMutation,
  useUnpublishCourseMutation,
} = coursesApi;

/** The course list (the `course` state area): the courses of the catalogue page that arrived last. */
export const selectCourseList = (state: CacheState): Course[] => latestAnswer<CourseList>(state, 'getCourses')?.courses ?? [];

/** The course sent with the page, put in the cache before the page's first render (see `cacheSentLectures` in the lectures). */
export function cacheSentCourse(dispatch: CacheDispatch, id: string) {
  const sent = takePageAnswer(urlFor(endpoints.courses.list, { query: { id } })) as CourseList | undefined;
  if (sent) dispatch(coursesApi.util.upsertQueryEntries([{ endpointName: 'getCourse', arg: id, value: sent.courses[0] ?? null }]));
}
