import { z } from 'zod';
import { ReplySchema as Reply } from './envelope.ts';
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

/**
 * A course is a draft until an administrator publishes it: only administrators see a draft.
 * A draft with a publishing date is "scheduled" (CourseState), published by the queue at that time.
 */
export const COURSE_STATUSES = ['draft', 'published'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];
/** What the admin sees of a course's status: a draft with a publishing date is scheduled. */
export const COURSE_STATES = ['draft', 'scheduled', 'published'] as const;
export type CourseState = (typeof COURSE_STATES)[number];

const filled = (message: string) => z.string({ error: message }).trim().min(1, message);
/** A text field of a form that may not be left blank: 'All fields are mandatory'. */
export const mandatory = () => filled(messages.allFieldsMandatory);

/** A title (a course's or a lecture's) is one line wherever it shows (a page's title, a mail's subject). */
export const TitleSchema = z.string().max(TITLE_MAX, messages.titleTooLong).refine(isPlainLine, answers.titleNotPlain);
export const DescriptionSchema = z.string().max(DESCRIPTION_MAX, messages.descriptionTooLong);
const title = TitleSchema;
const description = DescriptionSchema;
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

export const CourseIdParamsSchema = z.object({ id: z.uuid(answers.invalidId) });

export const ListCoursesQuerySchema = z.object({
  /** One course by id (a page opened by its link fetches its course this way). */
  id: z.uuid(answers.invalidId).optional(),
  search: z.string().trim().max(100, answers.searchTooLong).optional(),
  category: z.string().trim().max(CATEGORY_MAX, messages.categoryTooLong).optional(),
  page: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(1_000_000, answers.invalidPage).default(1),
  limit: z.coerce
    .number({ error: answers.invalidPage })
    .int(answers.invalidPage)
    .min(1, answers.invalidPage)
    .max(COURSES_PAGE_MAX, answers.invalidPage)
    .default(50),
});
export type ListCoursesQuery = z.input<typeof ListCoursesQuerySchema>;
/** The query after defaults: page and limit always set. */
export type CoursesPage = z.output<typeof ListCoursesQuerySchema>;

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
  /** Ours: always `published` for visitors and learners, who never see the others. */
  state: z.enum(COURSE_STATES),
  /** Ours: when a scheduled course is to be published (ISO 8601); null otherwise. */
  publishAt: z.iso.datetime().nullable(),
  /** Ours, in administrators' lists only: learners who started the course and may watch it now. */
  subscribersWatching: z.number().int().optional(),
});
export type Course = z.infer<typeof CourseSchema>;

/** How far ahead a course may be scheduled. */
export const PUBLISH_AHEAD_MAX_DAYS = 5 * 365;
/** Publish a course now, or at `publishAt` (ISO 8601 with a zone) when that is in the future. */
export const PublishCourseSchema = z.object({
  publishAt: z.iso.datetime({ offset: true, error: answers.publishAtInvalid }).optional(),
});
export type PublishCourse = z.infer<typeof PublishCourseSchema>;

export const CourseListResponseSchema = Reply.extend({
  courses: z.array(CourseSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
export const CourseResponseSchema = Reply.extend({ course: CourseSchema });
