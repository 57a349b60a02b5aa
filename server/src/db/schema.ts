import { bigint, index, pgEnum, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('role', ['USER', 'ADMIN']);

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: uuid().primaryKey().defaultRandom(),
  fullName: text().notNull(),
  /** Stored lower-cased, so the unique constraint is case-insensitive. */
  email: text().notNull().unique(),
  passwordHash: text().notNull(),
  role: roleEnum().notNull().default('USER'),
  /** Storage key of the re-encoded avatar; null for accounts made without one (CLI admins). */
  avatarKey: text(),
  createdAt: createdAt(),
  updatedAt: createdAt(),
});

/** Login sessions: the cookie holds a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.userId)],
);

/** Forgot-password tokens: random, stored hashed, single use, short-lived. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.userId)],
);

export const courses = pgTable(
  'courses',
  {
    id: uuid().primaryKey().defaultRandom(),
    title: text().notNull(),
    description: text().notNull(),
    category: text().notNull(),
    /** The instructor's name, as the spec calls it. */
    createdBy: text().notNull(),
    thumbnailKey: text().notNull(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  // The catalogue lists newest first, a page at a time.
  (table) => [index().on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()), index().on(table.category)],
);

export const lectures = pgTable(
  'lectures',
  {
    id: uuid().primaryKey().defaultRandom(),
    courseId: uuid()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    description: text().notNull(),
    /** Storage key of the video; private, reached only through signed URLs. */
    videoKey: text().notNull(),
    videoType: text().notNull(),
    videoBytes: bigint({ mode: 'number' }).notNull(),
    durationSeconds: real(),
    createdAt: createdAt(),
  },
  (table) => [index().on(table.courseId, table.createdAt)],
);
