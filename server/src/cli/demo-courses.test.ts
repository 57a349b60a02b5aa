import fs from 'node:fs/promises';
import { asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Context } from '../context.ts';
import { courses, lectures } from '../db/schema.ts';
import { listCourses } from '../features/courses/courses.service.ts';
import { getCurriculum } from '../features/lectures/lectures.service.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { mediaFiles, rowCount } from '../test/db.ts';
import { signUp } from '../test/http.ts';
import { DEMO_COURSES, DEMO_TESTIMONIALS, DEMO_VIDEO, seedDemoCourses, type DemoCourse } from './demo-courses.ts';

let t: TestApp;
let logged: string[];
const log = (line: string) => logged.push(line);

const readObject = async (ctx: Context, key: string) => Buffer.concat(await ctx.media.read(key).toArray());
/** What the catalogue shows of a course, besides its thumbnail. */
const card = (
  { title, description, category, createdBy }: Pick<DemoCourse, 'title' | 'description' | 'category' | 'createdBy'>,
  numbersOfLectures: number,
) => ({ title, description, category, createdBy, numbersOfLectures });
const demoLectureCount = DEMO_COURSES.reduce((sum, course) => sum + course.lectures.length, 0);

const testimonials = async () => (await t.app.inject({ url: '/api/v1/site' })).json().site.testimonials;

async function catalogue() {
  return (await listCourses(t.app.ctx, { page: 1, limit: 100 })).courses;
}

async function storedFiles() {
  return { thumbnails: await mediaFiles(t.dataDir, 'thumbnails'), videos: await mediaFiles(t.dataDir, 'videos') };
}

describe('the shipped demo video', () => {
  it('is a small MP4, 8 s long, that starts playing before it has loaded', async () => {
    const bytes = await fs.readFile(DEMO_VIDEO.file);
    expect(bytes.length).toBeLessThan(1024 * 1024);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    // +faststart: the index (moov) comes before the media data, so a browser can play while downloading.
    expect(bytes.indexOf('moov')).toBeGreaterThan(0);
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));

    const mvhd = bytes.indexOf('mvhd');
    const version = bytes[mvhd + 4];
    const timescale = version === 1 ? bytes.readUInt32BE(mvhd + 24) : bytes.readUInt32BE(mvhd + 16);
    const duration = version === 1 ? Number(bytes.readBigUInt64BE(mvhd + 28)) : bytes.readUInt32BE(mvhd + 20);
    expect(duration / timescale).toBeCloseTo(8, 1);
  });
});

describe('seedDemoCourses', () => {
  beforeEach(async () => {
    t = await createTestApp();
    logged = [];
  });
  afterEach(() => t?.close());

  it('fills an empty database with the demo catalogue: thumbnails, lectures that play the shipped video, the first of each a free preview', async () => {
    expect(await seedDemoCourses(t.app.ctx, log)).toBe(true);
    expect(logged).toEqual([`Added ${DEMO_COURSES.length} demo courses to the empty catalogue`]);

    const listed = await catalogue();
    // Newest first, yet in the order DEMO_COURSES lists them.
    expect(listed.map((course) => card(course, course.numbersOfLectures))).toEqual(DEMO_COURSES.map((course) => card(course, course.lectures.length)));

    const videoBytes = (await fs.stat(DEMO_VIDEO.file)).size;
    for (const [i, course] of listed.entries()) {
      expect(await t.app.ctx.media.stat(course.thumbnailKey)).toBeDefined();
      const thumbnail = await sharp(await readObject(t.app.ctx, course.thumbnailKey)).metadata();
      expect(thumbnail).toMatchObject({ format: 'webp', width: 640, height: 360 });

      const rows = await t.database.db.select().from(lectures).where(eq(lectures.courseId, course.id)).orderBy(asc(lectures.createdAt), asc(lectures.id));
      expect(rows.map(({ title, description }) => ({ title, description }))).toEqual(DEMO_COURSES[i]!.lectures);
      // The first lecture of each course is a free preview, the rest for subscribers.
      expect(rows.map((lecture) => lecture.isPreview)).toEqual(rows.map((_, index) => index === 0));
      for (const lecture of rows) {
        // Queued for the video pipeline, which measures the duration (video-processing.test.ts).
        expect(lecture).toMatchObject({ videoType: 'video/mp4', videoBytes, videoState: 'waiting', durationSeconds: null });
        expect(await t.app.ctx.media.stat(lecture.videoKey)).toEqual({ bytes: videoBytes });
      }
    }
    expect((await storedFiles()).videos).toHaveLength(demoLectureCount);
    // The first course closes with a quiz, so that a newcomer finds one.
    const quizzes = await Promise.all(listed.map(async (course) => (await getCurriculum(t.app.ctx, course.id, { includeDrafts: true })).quizzes));
    const lastLecture = await t.database.db
      .select()
      .from(lectures)
      .where(eq(lectures.courseId, listed[0]!.id))
      .orderBy(asc(lectures.createdAt), asc(lectures.id));
    expect(quizzes.map((list) => list.length)).toEqual(listed.map((_, index) => (index === 0 ? 1 : 0)));
    expect(quizzes[0]![0]).toMatchObject({ title: DEMO_COURSES[0]!.quiz!.title, questionCount: 4, passMark: 60, afterLectureId: lastLecture.at(-1)!.id });
    // The home page's testimonials come with the demo catalogue.
    expect(await testimonials()).toEqual(DEMO_TESTIMONIALS);
  });

  it('does nothing on the next start: no second catalogue, nothing logged', async () => {
    await seedDemoCourses(t.app.ctx, log);
    const before = { courses: await catalogue(), files: await storedFiles() };
    logged = [];

    expect(await seedDemoCourses(t.app.ctx, log)).toBe(false);

    expect(await catalogue()).toEqual(before.courses);
    expect(await rowCount(t.database, lectures)).toBe(demoLectureCount);
    expect(await storedFiles()).toEqual(before.files);
    expect(logged).toEqual([]);
  });

  it('does nothing once someone has an account, even with an empty catalogue', async () => {
    await signUp(t.app);

    expect(await seedDemoCourses(t.app.ctx, log)).toBe(false);

    expect(await rowCount(t.database, courses)).toBe(0);
    expect(await storedFiles()).toEqual({ thumbnails: [], videos: [] });
    expect(logged).toEqual([]);
    // A seller's own site (no demo courses) has no testimonials until the seller writes some.
    expect(await testimonials()).toEqual([]);
  });

  it('does nothing when the catalogue already has a course, even with no accounts', async () => {
    await t.database.db.insert(courses).values({
      title: 'Existing',
      description: 'Already here',
      category: 'Misc',
      createdBy: 'Someone',
      thumbnailKey: 'thumbnails/x.webp',
      status: 'published',
    });

    expect(await seedDemoCourses(t.app.ctx, log)).toBe(false);

    expect((await catalogue()).map((course) => course.title)).toEqual(['Existing']);
    expect(await storedFiles()).toEqual({ thumbnails: [], videos: [] });
  });

  it('leaves the database and storage empty when it fails half-way, so the next start tries again', async () => {
    const ctx = t.app.ctx;
    let thumbnails = 0;
    const failing: Context = {
      ...ctx,
      media: {
        ...ctx.media,
        put: async (key, body, type) => {
          if (key.startsWith('thumbnails/') && ++thumbnails === 3) throw new Error('disk full');
          return ctx.media.put(key, body, type);
        },
      },
    };

    await expect(seedDemoCourses(failing, log)).rejects.toThrow('disk full');

    expect(await rowCount(t.database, courses)).toBe(0);
    expect(await rowCount(t.database, lectures)).toBe(0);
    expect(await storedFiles()).toEqual({ thumbnails: [], videos: [] });
    expect(logged).toEqual([]);

    expect(await seedDemoCourses(ctx, log)).toBe(true);
    expect(await catalogue()).toHaveLength(DEMO_COURSES.length);
  });
});
