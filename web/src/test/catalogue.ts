import type { Course } from '@lms/contract/courses';
import type { Lecture } from '@lms/contract/lectures';

/** The published course the lecture page's tests open; anything else as asked. */
export const sampleCourse = (overrides: Partial<Course> = {}): Course => ({
  _id: '00000000-0000-4000-8000-000000000001',
  title: 'Rust',
  description: 'Fearless.',
  category: 'Systems',
  createdBy: 'Ravi Kumar',
  thumbnail: { secure_url: '/media/thumbnails/1.webp' },
  numbersOfLectures: 1,
  totalDuration: null,
  state: 'published',
  publishAt: null,
  ...overrides,
});

/** Lecture `n` (1–9) of sampleCourse: a ready MP4, not a preview, in no section; anything else as asked. */
export const sampleLecture = (n: number, overrides: Partial<Lecture> = {}): Lecture => ({
  _id: `20000000-0000-4000-8000-00000000000${n}`,
  sectionId: null,
  title: `Lesson ${n}`,
  description: `Part ${n}`,
  secure_url: `/media/private/videos/${n}.mp4?sig=x`,
  duration: null,
  preview: false,
  processing: { state: 'ready', percent: null, reason: null },
  poster_url: null,
  hls_url: null,
  replacement: null,
  ...overrides,
});
