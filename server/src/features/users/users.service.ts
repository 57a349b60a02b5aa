import { eq } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import { answers } from '@lms/contract/answers';
import { DEFAULT_AVATAR_URL } from '@lms/contract/media';
import type { Role, User } from '@lms/contract/users';
import type { Context } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { createSession, revokeAllSessions, type SignInClient, type UserRow } from '../auth/sessions.ts';
import { AVATAR_SIZE, reencodeImage } from '../media/images.ts';
import { saveAvatar } from '../media/storage.ts';

/**
 * Whether the user's subscription is active now: they paid for a period that has not ended.
 * Paid only: the statistics, revenue and the refusal of a second subscription read it (the first
 * two as the same condition in SQL). Complimentary access is not a subscription.
 */
export function hasActiveSubscription(user: Pick<UserRow, 'subscriptionEndsAt'>, now = new Date()): boolean {
  return user.subscriptionEndsAt !== null && user.subscriptionEndsAt > now;
}

/** Whether complimentary access an administrator granted (features/learners) is in force now. */
export function hasComplimentaryAccess(user: Pick<UserRow, 'complimentaryUntil'>, now = new Date()): boolean {
  return user.complimentaryUntil !== null && user.complimentaryUntil > now;
}

/**
 * Lectures, their videos, files, captions and quizzes are for administrators, and for learners with a
 * paid period or complimentary access in force (once they have chosen their password); never for a
 * suspended account. The one rule every route that gives them out asks.
 */
export function canWatchLectures(user: UserRow, now = new Date()): boolean {
  return !user.mustChangePassword && !user.suspendedAt && (user.role === 'ADMIN' || hasActiveSubscription(user, now) || hasComplimentaryAccess(user, now));
}

/** The user as the API shows it (the spec's user fields, and beside them what the profile needs); never the password hash. */
export function toUserJson(ctx: Context, user: UserRow): User {
  const now = new Date();
  return {
    _id: user.id,
    fullName: user.fullName,
    email: user.email,
    avatar: { secure_url: user.avatarKey ? ctx.media.publicUrl(user.avatarKey) : DEFAULT_AVATAR_URL },
    role: user.role,
    subscription: hasActiveSubscription(user, now)
      ? {
          status: 'active',
          currentPeriodEnd: user.subscriptionEndsAt!.toISOString(),
          cancelAtPeriodEnd: user.subscriptionCancelledAt !== null,
          // In a free trial: the first payment is taken when it ends.
          ...(user.trialEndsAt && user.trialEndsAt > now && { trialEndsAt: user.trialEndsAt.toISOString() }),
        }
      : hasComplimentaryAccess(user, now)
        ? // A paid period, when there is one, is what the learner manages; complimentary access shows alone.
          { status: 'active', currentPeriodEnd: user.complimentaryUntil!.toISOString(), cancelAtPeriodEnd: false, complimentary: true }
        : { status: 'inactive' },
    ...(user.mustChangePassword && { mustChangePassword: true }),
  };
}

/** The avatar as stored: re-encoded to a bounded WebP, which also disarms an SVG. */
const encodeAvatar = (bytes: Buffer) => reencodeImage(bytes, { accept: ['jpg', 'png', 'svg'], size: AVATAR_SIZE, rejectMessage: messages.avatarType });

/** Runs `write` with a freshly stored avatar; the file is removed again if the write fails. */
async function withNewAvatar<T>(ctx: Context, webp: Buffer, write: (avatarKey: string) => Promise<T>): Promise<T> {
  const avatarKey = await saveAvatar(ctx.media, webp);
  try {
    return await write(avatarKey);
  } catch (error) {
    await ctx.media.remove(avatarKey);
    throw error;
  }
}

/** Creates the account and logs it in: the new user and their session. */
export async function registerUser(
  ctx: Context,
  input: { fullName: string; email: string; password: string; avatar: Buffer },
  client: SignInClient,
): Promise<{ user: UserRow; session: { token: string; expiresAt: Date } }> {
  const [existing] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, input.email));
  if (existing) throw new AppError(409, answers.emailTaken);
  // The image is judged before the password is hashed: a bad upload costs no hash.
  const avatar = await encodeAvatar(input.avatar);
  const passwordHash = await ctx.passwords.hash(input.password);
  const user = await withNewAvatar(ctx, avatar, async (avatarKey) => {
    try {
      const [user] = await ctx.db.insert(users).values({ fullName: input.fullName, email: input.email, passwordHash, avatarKey }).returning();
      return user!;
    } catch (error) {
      // Two sign-ups with one email at once: the database decides.
      if (isUniqueViolation(error)) throw new AppError(409, answers.emailTaken);
      throw error;
    }
  });
  return { user, session: await createSession(ctx, user.id, client) };
}

export async function updateProfile(ctx: Context, user: UserRow, input: { fullName: string; avatar?: Buffer }): Promise<UserRow> {
  const update = async (avatarKey?: string) => {
    const [updated] = await ctx.db
      .update(users)
      .set({ fullName: input.fullName, ...(avatarKey && { avatarKey }), updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    return updated!;
  };
  if (!input.avatar) return update();
  const updated = await withNewAvatar(ctx, await encodeAvatar(input.avatar), update);
  if (user.avatarKey) await ctx.media.remove(user.avatarKey);
  return updated;
}

/** Creates an administrator, or promotes (and re-passwords) the account that has the email. */
export async function createOrPromoteAdmin(
  ctx: Pick<Context, 'db' | 'passwords'>,
  input: { email: string; password: string; fullName: string },
): Promise<{ user: UserRow; created: boolean }> {
  const passwordHash = await ctx.passwords.hash(input.password);
  const role: Role = 'ADMIN';
  const [promoted] = await ctx.db
    .update(users)
    .set({ role, passwordHash, fullName: input.fullName, updatedAt: new Date() })
    .where(eq(users.email, input.email))
    .returning();
  if (promoted) {
    await revokeAllSessions(ctx.db, promoted.id);
    return { user: promoted, created: false };
  }
  const [created] = await ctx.db.insert(users).values({ email: input.email, fullName: input.fullName, passwordHash, role }).returning();
  return { user: created!, created: true };
}
