import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The checkout's own state (the `razorpay` area): the key Checkout opens with, the unpaid
 * subscription it pays, and whether the payment was verified. Written by the checkout's steps
 * (payments.api.ts); the checkout script, the price and the dashboard's payment figures are read
 * from the server-state cache instead.
 */
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

/** The checkout's state, for its page. */
export const selectRazorpay = (state: { razorpay: RazorpayState }) => state.razorpay;
