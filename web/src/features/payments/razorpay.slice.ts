import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Spec §3: the payment state. Filled by the checkout and the dashboard (web app II). */
export interface RazorpayState {
  key: string;
  subscription_id: string;
  isPaymentVerified: boolean;
}

const razorpaySlice = createSlice({
  name: 'razorpay',
  initialState: { key: '', subscription_id: '', isPaymentVerified: false } as RazorpayState,
  reducers: {
    keyLoaded(state, action: PayloadAction<string>) {
      state.key = action.payload;
    },
    subscriptionCreated(state, action: PayloadAction<string>) {
      state.subscription_id = action.payload;
    },
    paymentVerified(state, action: PayloadAction<boolean>) {
      state.isPaymentVerified = action.payload;
    },
  },
});

export const { keyLoaded, subscriptionCreated, paymentVerified } = razorpaySlice.actions;
export const razorpayReducer = razorpaySlice.reducer;
