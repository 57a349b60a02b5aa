import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Spec §3: user statistics (subscribedCount as the dashboard state calls it). Filled by the dashboard (web app II). */
export interface StatState {
  allUsersCount: number;
  subscribedCount: number;
}

const statSlice = createSlice({
  name: 'stat',
  initialState: { allUsersCount: 0, subscribedCount: 0 } as StatState,
  reducers: {
    statsLoaded(state, action: PayloadAction<{ allUsersCount: number; subscribedUsersCount: number }>) {
      state.allUsersCount = action.payload.allUsersCount;
      state.subscribedCount = action.payload.subscribedUsersCount;
    },
  },
});

export const { statsLoaded } = statSlice.actions;
export const statReducer = statSlice.reducer;
