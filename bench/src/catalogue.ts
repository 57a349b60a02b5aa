import { count } from 'drizzle-orm';
import { openDatabase, type DatabaseTarget } from '../../server/src/db/client.ts';
import { courses } from '../../server/src/db/schema.ts';

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
