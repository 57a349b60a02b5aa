import { endpoints } from '@lms/contract/endpoints';
import type { ResponseOf } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { LIST, serverCall, serverState } from '../../lib/server-state';

/** Course writes of the admin's form; the catalogue's reads are shared (app/server-state.ts). */
const courseApi = serverState.injectEndpoints({
  endpoints: (build) => ({
    /** Spec §7 `POST /courses` (multipart with the thumbnail): every list gains it. */
    createCourse: build.mutation<ResponseOf<typeof endpoints.courses.create>, FormData>({
      query: (form) => serverCall(endpoints.courses.create, { body: form }, { fallback: messages.failedCreateCourse, toastSuccess: true }),
      invalidatesTags: (_answer, error) => (error ? [] : [{ type: 'Course', id: LIST }]),
    }),
    /** Ours: `PUT /courses/:id`, any of the fields and a new thumbnail. */
    updateCourse: build.mutation<ResponseOf<typeof endpoints.courses.update>, { id: string; form: FormData }>({
      query: ({ id, form }) => serverCall(endpoints.courses.update, { params: { id }, body: form }, { fallback: messages.failedCreateCourse, toastSuccess: true }),
      invalidatesTags: (_answer, error, { id }) => (error ? [] : [{ type: 'Course', id: LIST }, { type: 'Course', id }, { type: 'Curriculum', id }]),
    }),
  }),
});

export const { useCreateCourseMutation, useUpdateCourseMutation } = courseApi;
