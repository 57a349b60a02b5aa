import { z } from 'zod';
import { ReplySchema } from './envelope.ts';

export const UserStatsResponseSchema = ReplySchema.extend({
  /** Accounts with role USER. */
  allUsersCount: z.number(),
  /** Of those, the ones with access now. */
  subscribedUsersCount: z.number(),
});
