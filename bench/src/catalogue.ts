import { createHash, randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { openDatabase, type DatabaseTarget } from '../../server/src/db/client.ts';
import { courses, sessions, users } from '../../server/src/db/schema.ts';

const DAY_MS = 24 * 3600_000;

const CATEGORIES = ['Web Development', 'Data Science', 'Design', 'Mobile', 'Cloud', 'Security', 'Business', 'Music'];

/**
 * Fills the catalogue up to `total` courses, written straight into the database
 * (the server must not hold an embedded folder meanwhile). Every course shares one
 * real thumbnail, so pages that show them load real images.
 */
export async function fillCatalogue(target: DatabaseTarget, total: number, thumbnailKey: string): Promise<void> {
  const database = await openDatabase(target);
  try {
    const [existing] = await database.db.select({ n: count() }).from(courses);
    const missing = total - existing!.n;
    const now = Date.now();
    for (let start = 0; start < missing; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, missing - start) }, (_, offset) => {
        const n = start + offset + 1;
        const createdAt = new Date(now - n * 3600_000);
        return {
          title: `Course ${n}: a practical introduction`,
          description: `Lesson plan ${n}. `.repeat(12),
          category: CATEGORIES[n % CATEGORIES.length]!,
          createdBy: `Instructor ${n % 97}`,
          thumbnailKey,
          status: 'published' as const,
          publishedAt: createdAt,
          createdAt,
          updatedAt: createdAt,
        };
      });
      await database.db.insert(courses).values(batch);
    }
  } finally {
    await database.close();
  }
}

/**
 * A subscriber (thirty days paid) with a session, written straight into the database as the
 * catalogue is: answers the session's Cookie header. What a learner reads is measured with it.
 */
export async function addSubscriber(target: DatabaseTarget): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const database = await openDatabase(target);
  try {
    const [user] = await database.db
      .insert(users)
      .values({
        fullName: 'Bench subscriber',
        email: `subscriber-${token.slice(0, 12)}@bench.example`,
        passwordHash: 'no password',
        subscriptionEndsAt: new Date(Date.now() + 30 * DAY_MS),
      })
      .returning({ id: users.id });
    await database.db
      .insert(sessions)
      .values({ tokenHash: createHash('sha256').update(token).digest('hex'), userId: user!.id, expiresAt: new Date(Date.now() + DAY_MS) });
  } finally {
    await database.close();
  }
  return `lms_session=${token}`;
}
