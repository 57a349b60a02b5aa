import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import type { PaymentRecord } from '@lms/contract/payments';

/** Spec §3: the payment state. Filled by the checkout and the dashboard. */
export interface RazorpayState {
  key: string;
  subscription_id: string;
  isPaymentVerified: boolean;
  /** Ours: which Checkout script to load (Razorpay's or the sandbox's), from the key call. */
  checkoutScript: string;
  /** Ours: the bundle's price in rupees, from the key call; null until it is known. */
  price: number | null;
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
    checkoutScript: '',
    price: null,
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
    checkoutDetailsLoaded(state, action: PayloadAction<{ checkoutScript: string; price: number | null }>) {
      state.checkoutScript = action.payload.checkoutScript;
      state.price = action.payload.price;
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

export const { keyLoaded, checkoutDetailsLoaded, subscriptionCreated, paymentVerified, paymentRecordsLoaded } = razorpaySlice.actions;
export const razorpayReducer = razorpaySlice.reducer;
