import { z } from 'zod';
import { answers } from './answers.ts';
import { CourseSchema, DescriptionSchema as description, mandatory, TitleSchema as title } from './courses.ts';
import { ReplySchema as Reply } from './envelope.ts';
import { QuizSummarySchema } from './quizzes.ts';

// A course's lectures: adding, changing and deleting them, what a subscriber watches, and the public curriculum.

/** A form's yes/no field as sent by a checkbox or FormData: 'true' or 'false'. */
const formBoolean = z.enum(['true', 'false'], { error: answers.previewInvalid }).transform((value) => value === 'true');

/**
 * Add lecture: title, description (and the video file) or 'All fields are mandatory';
 * optionally `preview` ('true'/'false', default false): a free preview anyone may watch.
 */
export const AddLectureSchema = z
  .object({ title: mandatory(), description: mandatory(), preview: formBoolean.optional() })
  .pipe(z.object({ title, description, preview: z.boolean().default(false) }));
export type AddLecture = z.input<typeof AddLectureSchema>;

/**
 * Change a lecture in place (admin): any of its title, description and whether it is a free
 * preview; a text that is sent may not be blank, and something must be sent.
 */
export const UpdateLectureSchema = z
  .object({
    title: mandatory().pipe(title).optional(),
    description: mandatory().pipe(description).optional(),
    preview: z.boolean({ error: answers.previewInvalid }).optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), answers.lectureChangeEmpty);
export type UpdateLecture = z.input<typeof UpdateLectureSchema>;

export const LectureParamsSchema = z.object({
  courseId: z.uuid(answers.invalidId),
  lectureId: z.uuid(answers.invalidId),
});

export const DeleteLectureQuerySchema = z.object({
  courseId: z.uuid(answers.invalidId),
  lectureId: z.uuid(answers.invalidId),
});

/**
 * A course's chapter: its lectures are listed under its title. Sections are ordered, and each
 * lecture belongs to one section at most.
 */
export const SectionSchema = z.object({ _id: z.uuid(), title: z.string() });
export type Section = z.infer<typeof SectionSchema>;

/** Add or rename a section: its title, as a lecture's. */
export const SectionTitleSchema = z.object({ title: mandatory().pipe(title) });
export type SectionTitle = z.input<typeof SectionTitleSchema>;

export const SectionParamsSchema = z.object({
  courseId: z.uuid(answers.invalidId),
  sectionId: z.uuid(answers.invalidId),
});

export const SectionResponseSchema = Reply.extend({ section: SectionSchema });

/** An id of a place in a reorder: a uuid or null, never left out (null has a meaning: the first place, or no section). */
const placeId = z.uuid({ error: (issue) => (issue.input === undefined ? answers.placeMissing : answers.invalidId) }).nullable();

/** Move a section: after the section `afterId`, or first when null. */
export const MoveSectionSchema = z.object({ afterId: placeId });
export type MoveSection = z.infer<typeof MoveSectionSchema>;

/**
 * Move a lecture: into the section `sectionId` (null: among the lectures of no section), after
 * the lecture `afterId` of that section, or first in it when null.
 */
export const MoveLectureSchema = z.object({ sectionId: placeId, afterId: placeId });
export type MoveLecture = z.infer<typeof MoveLectureSchema>;

/**
 * Where a lecture's video is in the processing pipeline (decision 0014): `waiting` for a worker
 * (or for an ffmpeg, when processing is off), `processing` with a percent, `ready` (HLS, poster
 * and duration made), or `failed` with the reason. The MP4 plays in every state.
 */
export const VIDEO_STATES = ['waiting', 'processing', 'ready', 'failed'] as const;
export type VideoState = (typeof VIDEO_STATES)[number];
export const VideoProcessingSchema = z.object({
  state: z.enum(VIDEO_STATES),
  /** 0–100 while processing; null otherwise. */
  percent: z.number().int().min(0).max(100).nullable(),
  /** Why it failed, in words an admin can act on; null unless failed. */
  reason: z.string().nullable(),
});
export type VideoProcessing = z.infer<typeof VideoProcessingSchema>;

export const LectureSchema = z.object({
  _id: z.uuid(),
  /** The section it is listed under (SectionSchema); null outside any section. */
  sectionId: z.uuid().nullable(),
  title: z.string(),
  description: z.string(),
  /** A signed URL of the video, valid for a few hours and only for the viewer it was made for. */
  secure_url: z.string(),
  /** Seconds, where known. */
  duration: z.number().nullable(),
  /** A free preview: anyone may watch it from the course page, without a subscription. */
  preview: z.boolean(),
  processing: VideoProcessingSchema,
  /** A frame of the video (WebP), once processed. */
  poster_url: z.string().nullable(),
  /** The HLS master playlist, signed like secure_url, once the ladder is ready; the player prefers it. */
  hls_url: z.string().nullable(),
  /**
   * A new video on its way to take this one's place: where it is in the pipeline. Null when none
   * is. The fields above keep describing the video that plays now until the new one is ready.
   */
  replacement: VideoProcessingSchema.nullable(),
});
export type Lecture = z.infer<typeof LectureSchema>;

export const CourseWithLecturesResponseSchema = Reply.extend({
  course: CourseSchema.extend({ lectures: z.array(LectureSchema) }),
});
/** The course's lectures in the order the course shows them (lectures of no section first, then each section's in turn), and its sections in order. */
export const LecturesResponseSchema = Reply.extend({
  course: CourseSchema,
  sections: z.array(SectionSchema),
  lectures: z.array(LectureSchema),
  /** The course's quizzes, each with its place (curriculumItems in quizzes.ts merges them into the order). */
  quizzes: z.array(QuizSummarySchema),
});

/**
 * A lecture as the public curriculum shows it (GET /courses/:id/curriculum): never a video URL,
 * except for a free preview, whose signed URL anyone may play for a few hours.
 */
export const CurriculumLectureSchema = z.object({
  _id: z.uuid(),
  sectionId: z.uuid().nullable(),
  title: z.string(),
  description: z.string(),
  /** Seconds; null until the video has been measured. */
  duration: z.number().nullable(),
  preview: z.boolean(),
  /** Only on a preview. */
  secure_url: z.string().optional(),
  /** Only on a preview, once its HLS ladder is ready. */
  hls_url: z.string().optional(),
  /** Only on a preview, once processed. */
  poster_url: z.string().optional(),
});
export type CurriculumLecture = z.infer<typeof CurriculumLectureSchema>;

/** The public curriculum of a course: anyone may read it, logged in or not. */
export const CurriculumResponseSchema = Reply.extend({
  /** The course as the catalogue lists it. */
  course: CourseSchema,
  /** In order; empty for a course without sections, which lists its lectures alone. */
  sections: z.array(SectionSchema),
  /** In the order the lecture page plays them: lectures of no section first, then each section's in turn. */
  lectures: z.array(CurriculumLectureSchema),
  /** Its quizzes, each with its place (curriculumItems in quizzes.ts merges them into the order). */
  quizzes: z.array(QuizSummarySchema),
  lectureCount: z.number().int(),
  /** Seconds: the sum of the durations known so far; null while none is known. */
  totalDuration: z.number().nullable(),
});
export type Curriculum = z.infer<typeof CurriculumResponseSchema>;

export const LectureResponseSchema = Reply.extend({ lecture: LectureSchema });

/** Any text: a malformed id is a course that is not found, as an unknown one is. */
export const CurriculumParamsSchema = z.object({ id: z.string() });
