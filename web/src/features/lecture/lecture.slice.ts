import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Lecture } from '@lms/contract/lectures';

/** Spec §3: the lectures of the course being watched. Filled by the lecture page (web app II). */
export interface LectureState {
  lectures: Lecture[];
}

const lectureSlice = createSlice({
  name: 'lecture',
  initialState: { lectures: [] } as LectureState,
  reducers: {
    lecturesLoaded(state, action: PayloadAction<Lecture[]>) {
      state.lectures = action.payload;
    },
  },
});

export const { lecturesLoaded } = lectureSlice.actions;
export const lectureReducer = lectureSlice.reducer;
