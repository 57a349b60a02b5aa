import { z } from 'zod';
import { CourseSchema } from './courses.ts';
import { ReplySchema } from './envelope.ts';
import { answers } from './answers.ts';
import { MAX_WATCHED_PER_SAVE } from './progress-rules.ts';
import { QuizStandingSchema } from './quizzes.ts';

/**
 * Learner progress: where each learner stopped in each lecture, which lectures they
 * completed, and what an admin learns from it. Decision 0015 defines every figure.
 */

/** No lecture is longer than a day: anything beyond is a broken or hostile client. */
export const MAX_VIDEO_SECONDS = 24 * 3600;
export { COMPLETION_SHARE, MAX_WATCHED_PER_SAVE } from './progress-rules.ts';
/** How long a subscriber may go without watching before the dashboard lists them as at risk; a new subscriber has as long to start. */
export const CHURN_RISK_DAYS = 14;
/** "This week" on the dashboard: the last seven days. */
export const ACTIVE_DAYS = 7;

const seconds = (message: string) => z.number({ error: message }).refine(Number.isFinite, message);

/** POST /progress/lectures/:lectureId: the player's position, sent every ~10 s, on pause, seek and leave. */
export const SaveProgressSchema = z.object({
  /** Seconds from the start; checked against the lecture's length on the server. */
  position: seconds(answers.progressPositionInvalid).min(0, answers.progressPositionInvalid).max(MAX_VIDEO_SECONDS, answers.progressPositionInvalid),
  /** The player's idea of the length: used only while the server has not measured the video. */
  duration: seconds(answers.progressDurationInvalid)
    .positive(answers.progressDurationInvalid)
    .max(MAX_VIDEO_SECONDS, answers.progressDurationInvalid)
    .optional(),
  /** Seconds played since the previous save. */
  watched: seconds(answers.progressWatchedInvalid).min(0, answers.progressWatchedInvalid).max(MAX_WATCHED_PER_SAVE, answers.progressWatchedInvalid).default(0),
  /** When the position was read (ms since 1970, the browser's clock): an older save never replaces a newer one. */
  at: z.number({ error: answers.progressTimeInvalid }).int(answers.progressTimeInvalid).positive(answers.progressTimeInvalid),
  /** The video played to its end. */
  ended: z.boolean({ error: answers.progressCompletedInvalid }).optional(),
});
export type SaveProgress = z.input<typeof SaveProgressSchema>;

export const CompletionSchema = z.object({ completed: z.boolean({ error: answers.progressCompletedInvalid }) });
export const ProgressSettingsSchema = z.object({ autoplayNext: z.boolean({ error: answers.progressAutoplayInvalid }) });
export type ProgressSettings = z.infer<typeof ProgressSettingsSchema>;

export const LectureProgressParamsSchema = z.object({ lectureId: z.uuid(answers.invalidId) });

/** One learner's progress in one lecture. */
export const LectureProgressSchema = z.object({
  lectureId: z.uuid(),
  /** Seconds: where they stopped. */
  position: z.number(),
  /** Seconds played in all (capped at the lecture's length). */
  watched: z.number(),
  completed: z.boolean(),
  completedAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type LectureProgress = z.infer<typeof LectureProgressSchema>;

/** One learner's progress in one course: lectures completed and quizzes passed, of those the course has now. */
export const CourseProgressSchema = z.object({
  courseId: z.uuid(),
  completedLectures: z.number().int(),
  lectureCount: z.number().int(),
  passedQuizzes: z.number().int(),
  quizCount: z.number().int(),
  /** 0–100, rounded: lectures completed and quizzes passed, each an item, of the course's items. */
  percent: z.number().int(),
  /** The lecture they watched last; null once it was deleted. */
  lastLectureId: z.uuid().nullable(),
  lastWatchedAt: z.string(),
});
export type CourseProgress = z.infer<typeof CourseProgressSchema>;

export const SaveProgressResponseSchema = ReplySchema.extend({
  /** Absent when the save was held back (a flood of saves): the latest one is written a moment later. */
  lecture: LectureProgressSchema.optional(),
  course: CourseProgressSchema.optional(),
});

/** GET /progress/courses/:id: the learner's progress in each lecture of the course (none when not started). */
export const CourseProgressResponseSchema = ReplySchema.extend({
  course: CourseProgressSchema.nullable(),
  lectures: z.array(LectureProgressSchema),
  /** The learner's standing in each quiz of the course they attempted. */
  quizzes: z.array(QuizStandingSchema),
  settings: ProgressSettingsSchema,
});

/** A course the learner has started, for the home page, the profile and the course cards. */
export const LearnerCourseSchema = CourseProgressSchema.extend({
  course: CourseSchema,
  /** Where to pick up: the lecture watched last and its position, or the next one once that one is completed. */
  resume: z.object({ lectureId: z.uuid(), title: z.string(), position: z.number(), duration: z.number().nullable() }).nullable(),
});
export type LearnerCourse = z.infer<typeof LearnerCourseSchema>;

/** GET /progress: every course the learner has started, most recent first. */
export const MyProgressResponseSchema = ReplySchema.extend({
  courses: z.array(LearnerCourseSchema),
  settings: ProgressSettingsSchema,
});

export const ProgressSettingsResponseSchema = ReplySchema.extend({ settings: ProgressSettingsSchema });

export const ChurnRiskLearnerSchema = z.object({
  _id: z.uuid(),
  fullName: z.string(),
  email: z.string(),
  /** The end of the paid period: the next charge. */
  renewsAt: z.string(),
  /** Null: never watched anything. */
  lastWatchedAt: z.string().nullable(),
});

export const CourseEngagementSchema = z.object({
  courseId: z.uuid(),
  title: z.string(),
  lectureCount: z.number().int(),
  /** Learners who saved progress in at least one lecture. */
  started: z.number().int(),
  /** Learners who completed every lecture the course has now. */
  completed: z.number().int(),
  /** The mean over starters of their share of lectures completed, 0–100, one decimal. */
  averageCompletion: z.number(),
});
export type CourseEngagement = z.infer<typeof CourseEngagementSchema>;

/** GET /admin/engagement. */
export const EngagementResponseSchema = ReplySchema.extend({
  /** Learners (any role but admins) who watched something in the last ACTIVE_DAYS days. */
  activeLearnersThisWeek: z.number().int(),
  churnRisk: z.object({ total: z.number().int(), learners: z.array(ChurnRiskLearnerSchema) }),
  courses: z.array(CourseEngagementSchema),
});
export type EngagementResponse = z.infer<typeof EngagementResponseSchema>;
