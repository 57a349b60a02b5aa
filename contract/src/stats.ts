import { z } from 'zod';

export const UserStatsResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  /** Accounts with role USER. */
  allUsersCount: z.number(),
  /** Of those, the ones with access now. */
  subscribedUsersCount: z.number(),
});
