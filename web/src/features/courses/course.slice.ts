import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Course } from '@lms/contract/courses';

/** Spec §3: the course list. Filled by the catalogue (web app II). */
export interface CourseState {
  courseData: Course[];
}

const courseSlice = createSlice({
  name: 'course',
  initialState: { courseData: [] } as CourseState,
  reducers: {
    coursesLoaded(state, action: PayloadAction<Course[]>) {
      state.courseData = action.payload;
    },
  },
});

export const { coursesLoaded } = courseSlice.actions;
export const courseReducer = courseSlice.reducer;
