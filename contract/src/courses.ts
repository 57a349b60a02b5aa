import { z } from 'zod';
import { messages } from './messages.ts';
import { answers } from './answers.ts';
import { isPlainLine } from './plain-text.ts';

export const TITLE_MAX = 120;
export const CATEGORY_MAX = 60;
export const INSTRUCTOR_MAX = 60;
export const DESCRIPTION_MAX = 5000;
export const COURSES_PAGE_MAX = 100;
/** Thumbnails accepted by the server, checked by content (the spec's thumbnail types: jpg, jpeg, png). */
export const THUMBNAIL_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';

const filled = (message: string) => z.string({ error: message }).trim().min(1, message);
const mandatory = () => filled(messages.allFieldsMandatory);

/** A title is one line wherever it shows (a page's title, a mail's subject). */
const title = z.string().max(TITLE_MAX, messages.titleTooLong).refine(isPlainLine, answers.titleNotPlain);
const description = z.string().max(DESCRIPTION_MAX, messages.descriptionTooLong);
const category = z.string().max(CATEGORY_MAX, messages.categoryTooLong);
const createdBy = z.string().max(INSTRUCTOR_MAX, messages.instructorTooLong);

/** Create course: every text field (and the thumbnail, checked beside them) or 'All fields are mandatory'. */
export const CreateCourseSchema = z
  .object({ title: mandatory(), description: mandatory(), category: mandatory(), createdBy: mandatory() })
  .pipe(z.object({ title, description, category, createdBy }));
export type CreateCourse = z.input<typeof CreateCourseSchema>;

/** Edit course: any subset of the fields; a field that is sent may not be blank. */
export const UpdateCourseSchema = z.object({
  title: mandatory().pipe(title).optional(),
  description: mandatory().pipe(description).optional(),
  category: mandatory().pipe(category).optional(),
  createdBy: mandatory().pipe(createdBy).optional(),
});
export type UpdateCourse = z.input<typeof UpdateCourseSchema>;

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

/** Change a lecture (admin): for now whether it is a free preview. */
export const UpdateLectureSchema = z.object({ preview: z.boolean({ error: answers.previewInvalid }) });
export type UpdateLecture = z.infer<typeof UpdateLectureSchema>;

export const LectureParamsSchema = z.object({
  courseId: z.uuid(answers.invalidId),
  lectureId: z.uuid(answers.invalidId),
});

export const CourseIdParamsSchema = z.object({ id: z.uuid(answers.invalidId) });

export const ListCoursesQuerySchema = z.object({
  /** One course by id (a page opened by its link fetches its course this way). */
  id: z.uuid(answers.invalidId).optional(),
  search: z.string().trim().max(100, answers.searchTooLong).optional(),
  category: z.string().trim().max(CATEGORY_MAX, messages.categoryTooLong).optional(),
  page: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(1_000_000, answers.invalidPage).default(1),
  limit: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(COURSES_PAGE_MAX, answers.invalidPage).default(50),
});
export type ListCoursesQuery = z.input<typeof ListCoursesQuerySchema>;
/** The query after defaults: page and limit always set. */
export type CoursesPage = z.output<typeof ListCoursesQuerySchema>;

export const DeleteLectureQuerySchema = z.object({
  courseId: z.uuid(answers.invalidId),
  lectureId: z.uuid(answers.invalidId),
});

/**
 * Where a lecture's video is in the processing pipeline (probe, poster, HLS ladder after an
 * upload): `waiting` for a worker (or for an ffmpeg, when processing is off), `processing` with a
 * percent, `ready` (HLS, poster and duration made), or `failed` with the reason. The MP4 plays in
 * every state.
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
});
export type Lecture = z.infer<typeof LectureSchema>;

export const CourseSchema = z.object({
  _id: z.uuid(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  createdBy: z.string(),
  thumbnail: z.object({ secure_url: z.string() }),
  numbersOfLectures: z.number().int(),
  /** Ours: seconds, the sum of the lecture durations measured so far; null while none is. */
  totalDuration: z.number().nullable(),
});
export type Course = z.infer<typeof CourseSchema>;

const Reply = z.object({ success: z.boolean(), message: z.string() });
export const CourseListResponseSchema = Reply.extend({
  courses: z.array(CourseSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export const CourseResponseSchema = Reply.extend({ course: CourseSchema });
export const CourseWithLecturesResponseSchema = Reply.extend({
  course: CourseSchema.extend({ lectures: z.array(LectureSchema) }),
});
export const LecturesResponseSchema = Reply.extend({ course: CourseSchema, lectures: z.array(LectureSchema) });

/**
 * A lecture as the public curriculum shows it (GET /courses/:id/curriculum): never a video URL,
 * except for a free preview, whose signed URL anyone may play for a few hours.
 */
export const CurriculumLectureSchema = z.object({
  _id: z.uuid(),
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
  /** In the order they were added, as the lecture page plays them. */
  lectures: z.array(CurriculumLectureSchema),
  lectureCount: z.number().int(),
  /** Seconds: the sum of the durations known so far; null while none is known. */
  totalDuration: z.number().nullable(),
});
export type Curriculum = z.infer<typeof CurriculumResponseSchema>;

export const LectureResponseSchema = Reply.extend({ lecture: LectureSchema });

/** Whether this server can process videos (admin): when it cannot, why, and what it uses when it can. */
export const VideoStatusResponseSchema = Reply.extend({
  available: z.boolean(),
  /** Why processing is off (no ffmpeg could run); null when it is on. */
  reason: z.string().nullable(),
  /** The ffmpeg in use, e.g. "ffmpeg 5.1.9 (Debian, /usr/bin/ffmpeg)"; null when off. */
  ffmpeg: z.string().nullable(),
  /** Why that ffmpeg should be replaced, and how (the npm package's old build); null when it need not be. */
  ffmpegWarning: z.string().nullable(),
});
export type VideoStatusResponse = z.infer<typeof VideoStatusResponseSchema>;
