import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import type { PaymentRecord } from '@lms/contract/payments';

/** Spec §3: the payment state. Filled by the checkout and the dashboard. */
export interface RazorpayState {
  key: string;
  subscription_id: string;
  isPaymentVerified: boolean;
  allPayments: PaymentRecord[];
  finalMonths: Record<string, number>;
  monthlySalesRecord: number[];
  subscriptionCount: number;
  totalRevenue: number;
}

export interface PaymentRecords {
  allPayments: PaymentRecord[];
  finalMonths: Record<string, number>;
  monthlySalesRecord: number[];
  subscriptionCount: number;
  totalRevenue: number;
}

const razorpaySlice = createSlice({
  name: 'razorpay',
  initialState: {
    key: '',
    subscription_id: '',
    isPaymentVerified: false,
    allPayments: [],
    finalMonths: {},
    monthlySalesRecord: Array<number>(12).fill(0),
    subscriptionCount: 0,
    totalRevenue: 0,
  } as RazorpayState,
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
    paymentRecordsLoaded(state, action: PayloadAction<PaymentRecords>) {
      Object.assign(state, action.payload);
    },
  },
});

export const { keyLoaded, subscriptionCreated, paymentVerified, paymentRecordsLoaded } = razorpaySlice.actions;
export const razorpayReducer = razorpaySlice.reducer;
