import type { z } from 'zod';
import type { ContactMessagesResponseSchema } from '@lms/contract/contact';
import { messages } from '@lms/contract/messages';
import type { PaymentRecordsResponseSchema } from '@lms/contract/payments';
import type { UserStatsResponseSchema } from '@lms/contract/stats';
import { api } from '../../app/api';
import type { AppDispatch } from '../../app/store';
import { paymentRecordsLoaded } from '../payments/razorpay.slice';
import { statsLoaded } from './stat.slice';

type UserStats = z.infer<typeof UserStatsResponseSchema>;
type PaymentRecordsAnswer = z.infer<typeof PaymentRecordsResponseSchema>;
export type ContactInboxPage = z.infer<typeof ContactMessagesResponseSchema>;

/** Spec §9: the dashboard reads the latest 100 payment records. */
export const PAYMENT_RECORDS_COUNT = 100;

interface LoadOptions {
  signal?: AbortSignal;
}

/** Spec §7: registered and subscribed users, into the stat state. */
export const getStatsData =
  ({ signal }: LoadOptions = {}) =>
  async (dispatch: AppDispatch) => {
    const { allUsersCount, subscribedUsersCount } = await api.get<UserStats>('/admin/status/users', { fallback: messages.failedLoadStats, signal });
    dispatch(statsLoaded({ allUsersCount, subscribedUsersCount }));
  };

/** Spec §7: the latest payments and this year's sales by month, into the razorpay state. */
export const getPaymentRecords =
  ({ signal }: LoadOptions = {}) =>
  async (dispatch: AppDispatch) => {
    const { allPayments, finalMonths, monthlySalesRecord, subscriptionCount, totalRevenue } = await api.get<PaymentRecordsAnswer>(
      `/payments?count=${PAYMENT_RECORDS_COUNT}`,
      { fallback: messages.failedPaymentRecord, signal },
    );
    dispatch(paymentRecordsLoaded({ allPayments, finalMonths, monthlySalesRecord, subscriptionCount, totalRevenue }));
  };

/** Ours: the newest contact messages, for the dashboard's inbox (not kept in the store). */
export const getContactMessages = (limit: number, { signal }: LoadOptions = {}) =>
  api.get<ContactInboxPage>(`/contact?limit=${limit}`, { fallback: messages.failedLoadData, signal });
