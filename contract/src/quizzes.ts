import { z } from 'zod';
import { answers } from './answers.ts';
import { ReplySchema as Reply } from './envelope.ts';

// Quizzes (docs/decisions/0034): written by an administrator as versions, placed in a course's
// curriculum, taken by learners in attempts the server grades alone. What a learner's browser gets
// before submitting carries nothing a correct answer could be read from.

export const QUESTION_TYPES = ['single', 'multiple', 'text'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
/** One question a screen, or every question on one page. */
export const QUIZ_LAYOUTS = ['one', 'all'] as const;
export type QuizLayout = (typeof QUIZ_LAYOUTS)[number];

export const QUIZ_LIMITS = {
  titleMax: 120,
  questions: 100,
  promptMax: 2000,
  options: 10,
  optionMax: 500,
  explanationMax: 2000,
  /** A short answer's accepted forms, and each one's length; a learner's answer has the same cap. */
  acceptedAnswers: 10,
  answerMax: 200,
  attemptsMax: 100,
  timeLimitMinutesMax: 600,
} as const;

/** A submission may arrive this long after the time limit (the network's delay) and still be graded. */
export const SUBMIT_GRACE_SECONDS = 15;

/**
 * A short answer as it is compared: case and spaces ignored (NFKC, lower case, no white space at
 * all), and a number compared as a number ("3.50" is "3.5"). Linear: one pass each.
 */
export function normaliseAnswer(text: string): string {
  const squeezed = text.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');
  return /^[+-]?\d+(\.\d+)?$/.test(squeezed) ? String(Number(squeezed)) : squeezed;
}

/** Whether a learner's short answer is one of the accepted ones. */
export const answerMatches = (given: string, accepted: readonly string[]) => {
  const wanted = normaliseAnswer(given);
  return wanted !== '' && accepted.some((answer) => normaliseAnswer(answer) === wanted);
};

// ---- Writing a quiz (administrators) ----------------------------------------------------------

const text = (max: number, message: string) => z.string({ error: message }).trim().min(1, message).max(max, message);
/** An id the editor gave a question or option; the server keeps it across versions (the results follow a question by it). */
const itemId = z.uuid(answers.invalidId).optional();

export const OptionInputSchema = z.object({
  id: itemId,
  text: text(QUIZ_LIMITS.optionMax, answers.quizOptionInvalid),
  correct: z.boolean({ error: answers.quizOptionInvalid }),
});
const choiceQuestion = <T extends 'single' | 'multiple'>(type: T) =>
  z.object({
    id: itemId,
    type: z.literal(type),
    prompt: text(QUIZ_LIMITS.promptMax, answers.quizPromptInvalid),
    options: z
      .array(OptionInputSchema, { error: answers.quizOptionsCount })
      .min(2, answers.quizOptionsCount)
      .max(QUIZ_LIMITS.options, answers.quizOptionsCount),
    explanation: z.string({ error: answers.quizExplanationInvalid }).trim().max(QUIZ_LIMITS.explanationMax, answers.quizExplanationInvalid).default(''),
  });
export const QuestionInputSchema = z
  .discriminatedUnion(
    'type',
    [
      choiceQuestion('single'),
      choiceQuestion('multiple'),
      z.object({
        id: itemId,
        type: z.literal('text'),
        prompt: text(QUIZ_LIMITS.promptMax, answers.quizPromptInvalid),
        /** The accepted answers, compared by normaliseAnswer. */
        answers: z
          .array(text(QUIZ_LIMITS.answerMax, answers.quizAcceptedInvalid), { error: answers.quizAcceptedInvalid })
          .min(1, answers.quizAcceptedInvalid)
          .max(QUIZ_LIMITS.acceptedAnswers, answers.quizAcceptedInvalid),
        explanation: z.string({ error: answers.quizExplanationInvalid }).trim().max(QUIZ_LIMITS.explanationMax, answers.quizExplanationInvalid).default(''),
      }),
    ],
    { error: answers.quizQuestionTypeInvalid },
  )
  .superRefine((question, ctx) => {
    if (question.type === 'text') return;
    const correct = question.options.filter((option) => option.correct).length;
    if (question.type === 'single' ? correct !== 1 : correct < 1)
      ctx.addIssue({ code: 'custom', message: question.type === 'single' ? answers.quizSingleNeedsOne : answers.quizMultipleNeedsOne });
  });
export type QuestionInput = z.input<typeof QuestionInputSchema>;

export const QuizSettingsSchema = z.object({
  title: text(QUIZ_LIMITS.titleMax, answers.quizTitleInvalid),
  /** Percent of the questions answered right to pass. */
  passMark: z
    .number({ error: answers.quizPassMarkInvalid })
    .int(answers.quizPassMarkInvalid)
    .min(0, answers.quizPassMarkInvalid)
    .max(100, answers.quizPassMarkInvalid)
    .default(70),
  /** Null: as many as the learner likes. */
  attemptsAllowed: z
    .number({ error: answers.quizAttemptsInvalid })
    .int(answers.quizAttemptsInvalid)
    .min(1, answers.quizAttemptsInvalid)
    .max(QUIZ_LIMITS.attemptsMax, answers.quizAttemptsInvalid)
    .nullable()
    .default(null),
  /** Null: no time limit. Enforced by the server from the attempt's start. */
  timeLimitMinutes: z
    .number({ error: answers.quizTimeLimitInvalid })
    .int(answers.quizTimeLimitInvalid)
    .min(1, answers.quizTimeLimitInvalid)
    .max(QUIZ_LIMITS.timeLimitMinutesMax, answers.quizTimeLimitInvalid)
    .nullable()
    .default(null),
  shuffleQuestions: z.boolean({ error: answers.quizShuffleInvalid }).default(false),
  shuffleOptions: z.boolean({ error: answers.quizShuffleInvalid }).default(false),
  layout: z.enum(QUIZ_LAYOUTS, { error: answers.quizLayoutInvalid }).default('one'),
});
export type QuizSettings = z.infer<typeof QuizSettingsSchema>;

/**
 * Where a quiz sits in the curriculum: right after the lecture `afterLectureId` (it follows that
 * lecture when the lecture moves), else at the end of the section `sectionId`, else at the course's
 * end. A lecture or section deleted later leaves the quiz at the next place down that list.
 */
export const QuizPlacementSchema = z.object({
  sectionId: z.uuid(answers.invalidId).nullable().default(null),
  afterLectureId: z.uuid(answers.invalidId).nullable().default(null),
});
export type QuizPlacement = z.infer<typeof QuizPlacementSchema>;

/** A quiz as saved: its settings and its questions, whole. A save that changes anything makes a new version. */
export const QuizInputSchema = QuizSettingsSchema.extend({
  questions: z
    .array(QuestionInputSchema, { error: answers.quizQuestionsCount })
    .min(1, answers.quizQuestionsCount)
    .max(QUIZ_LIMITS.questions, answers.quizQuestionsCount),
});
export type QuizInput = z.input<typeof QuizInputSchema>;
/** Adding a quiz: the quiz, and where it goes. */
export const NewQuizSchema = QuizInputSchema.extend(QuizPlacementSchema.shape);
export type NewQuiz = z.input<typeof NewQuizSchema>;

export const QuizParamsSchema = z.object({ courseId: z.uuid(answers.invalidId), quizId: z.uuid(answers.invalidId) });
export const CourseQuizzesParamsSchema = z.object({ courseId: z.uuid(answers.invalidId) });

export { curriculumItems, type CurriculumItem } from './curriculum.ts';

/** A question as its author sees it: with the answers. */
export const AuthoredQuestionSchema = z.discriminatedUnion('type', [
  z.object({
    id: z.uuid(),
    type: z.enum(['single', 'multiple']),
    prompt: z.string(),
    options: z.array(z.object({ id: z.uuid(), text: z.string(), correct: z.boolean() })),
    explanation: z.string(),
  }),
  z.object({ id: z.uuid(), type: z.literal('text'), prompt: z.string(), answers: z.array(z.string()), explanation: z.string() }),
]);
export type AuthoredQuestion = z.infer<typeof AuthoredQuestionSchema>;

/** A quiz as the curriculum lists it: anyone may read this much. */
export const QuizSummarySchema = z.object({
  _id: z.uuid(),
  title: z.string(),
  sectionId: z.uuid().nullable(),
  afterLectureId: z.uuid().nullable(),
  questionCount: z.number().int(),
  passMark: z.number().int(),
  timeLimitMinutes: z.number().int().nullable(),
});
export type QuizSummary = z.infer<typeof QuizSummarySchema>;

/** The quiz an administrator edits: the current version, whole. */
export const AuthoredQuizSchema = QuizSettingsSchema.extend({
  _id: z.uuid(),
  courseId: z.uuid(),
  sectionId: z.uuid().nullable(),
  afterLectureId: z.uuid().nullable(),
  /** 1 for the first save; each save that changes something adds one. */
  version: z.number().int(),
  /** Attempts submitted, over every version: editing keeps them graded against the version they answered. */
  attempts: z.number().int(),
  questions: z.array(AuthoredQuestionSchema),
  updatedAt: z.string(),
});
export type AuthoredQuiz = z.infer<typeof AuthoredQuizSchema>;
export const AuthoredQuizResponseSchema = Reply.extend({ quiz: AuthoredQuizSchema });

// ---- Taking a quiz (learners) -----------------------------------------------------------------

export const LearnerQuizParamsSchema = z.object({ quizId: z.uuid(answers.invalidId) });
export const AttemptParamsSchema = z.object({ quizId: z.uuid(answers.invalidId), attemptId: z.uuid(answers.invalidId) });

/**
 * A question as a learner gets it before submitting: its prompt and its options' texts in the
 * attempt's order. Nothing else: not which options are right, how many are, nor the accepted answers.
 */
export const LearnerQuestionSchema = z.object({
  id: z.uuid(),
  type: z.enum(QUESTION_TYPES),
  prompt: z.string(),
  /** Empty for a short answer. */
  options: z.array(z.object({ id: z.uuid(), text: z.string() })),
});
export type LearnerQuestion = z.infer<typeof LearnerQuestionSchema>;

/** An attempt under way: its questions, and when its time is up (null: no limit). */
export const OpenAttemptSchema = z.object({
  _id: z.uuid(),
  number: z.number().int(),
  startedAt: z.string(),
  /** When the server stops accepting it (the time limit from the start); null without a limit. */
  endsAt: z.string().nullable(),
  layout: z.enum(QUIZ_LAYOUTS),
  questions: z.array(LearnerQuestionSchema),
});
export type OpenAttempt = z.infer<typeof OpenAttemptSchema>;

/** A learner's answer to one question: the options they chose, or their short answer. */
export const AnswerSchema = z.object({
  questionId: z.uuid(answers.invalidId),
  optionIds: z.array(z.uuid(answers.invalidId), { error: answers.quizAnswerInvalid }).max(QUIZ_LIMITS.options, answers.quizAnswerInvalid).optional(),
  text: z.string({ error: answers.quizAnswerInvalid }).max(QUIZ_LIMITS.answerMax, answers.quizAnswerTooLong).optional(),
});
export type Answer = z.infer<typeof AnswerSchema>;
/** A submission: an answer for any of the attempt's questions (one each); those left out count as wrong. */
export const SubmissionSchema = z.object({
  answers: z.array(AnswerSchema, { error: answers.quizAnswersInvalid }).max(QUIZ_LIMITS.questions, answers.quizAnswersInvalid),
});
export type Submission = z.infer<typeof SubmissionSchema>;

export const ATTEMPT_STATES = ['open', 'graded', 'expired'] as const;

/** An attempt once graded (or expired: its time ran out unsubmitted, and it scored 0). */
export const AttemptSummarySchema = z.object({
  _id: z.uuid(),
  number: z.number().int(),
  state: z.enum(ATTEMPT_STATES),
  /** Percent, rounded down. */
  score: z.number().int(),
  passed: z.boolean(),
  startedAt: z.string(),
  submittedAt: z.string().nullable(),
});
export type AttemptSummary = z.infer<typeof AttemptSummarySchema>;

/** A graded attempt in full: for each question, whether it was right, what was answered, and the explanation. */
export const AttemptResultSchema = AttemptSummarySchema.extend({
  passMark: z.number().int(),
  correctCount: z.number().int(),
  questionCount: z.number().int(),
  questions: z.array(
    LearnerQuestionSchema.extend({
      correct: z.boolean(),
      /** What the learner answered: the options chosen, or their text. */
      chosenOptionIds: z.array(z.uuid()),
      text: z.string().nullable(),
      explanation: z.string(),
    }),
  ),
});
export type AttemptResult = z.infer<typeof AttemptResultSchema>;

/** A quiz as its learner sees it: the rules, their attempts, and whether they passed. */
export const LearnerQuizSchema = z.object({
  _id: z.uuid(),
  courseId: z.uuid(),
  title: z.string(),
  questionCount: z.number().int(),
  passMark: z.number().int(),
  attemptsAllowed: z.number().int().nullable(),
  /** Null: unlimited. */
  attemptsLeft: z.number().int().nullable(),
  timeLimitMinutes: z.number().int().nullable(),
  layout: z.enum(QUIZ_LAYOUTS),
  passed: z.boolean(),
  /** The best score of any attempt, null before the first. */
  bestScore: z.number().int().nullable(),
  /** Newest first, graded or expired. */
  attempts: z.array(AttemptSummarySchema),
  /** An attempt started and not yet submitted, to carry on with. */
  openAttempt: OpenAttemptSchema.nullable(),
});
export type LearnerQuiz = z.infer<typeof LearnerQuizSchema>;
export const LearnerQuizResponseSchema = Reply.extend({ quiz: LearnerQuizSchema });
export const OpenAttemptResponseSchema = Reply.extend({ attempt: OpenAttemptSchema });
export const AttemptResultResponseSchema = Reply.extend({
  attempt: AttemptResultSchema,
  /** After this attempt; null: unlimited. */
  attemptsLeft: z.number().int().nullable(),
});

/** A learner's standing in each quiz of a course, for the lecture list's marks and the progress figure. */
export const QuizStandingSchema = z.object({ quizId: z.uuid(), passed: z.boolean(), bestScore: z.number().int().nullable(), attempts: z.number().int() });
export type QuizStanding = z.infer<typeof QuizStandingSchema>;

// ---- Results (administrators) -----------------------------------------------------------------

export const QuizResultsSchema = z.object({
  quizId: z.uuid(),
  title: z.string(),
  questionCount: z.number().int(),
  /** Graded and expired attempts. */
  attempts: z.number().int(),
  learners: z.number().int(),
  /** Percent of attempts that passed, one decimal; null before any. */
  passRate: z.number().nullable(),
  averageScore: z.number().nullable(),
  /** The questions most often answered wrong (of the current version's), worst first, up to five. */
  hardestQuestions: z.array(z.object({ questionId: z.uuid(), prompt: z.string(), answered: z.number().int(), correctRate: z.number() })),
});
export type QuizResults = z.infer<typeof QuizResultsSchema>;
export const CourseQuizResultsResponseSchema = Reply.extend({ quizzes: z.array(QuizResultsSchema) });

export const QuizAttemptsQuerySchema = z.object({
  /** One learner's attempts alone. */
  userId: z.uuid(answers.invalidId).optional(),
  page: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(1_000_000, answers.invalidPage).default(1),
  limit: z.coerce.number({ error: answers.invalidPage }).int(answers.invalidPage).min(1, answers.invalidPage).max(100, answers.invalidPage).default(50),
});
export type QuizAttemptsQuery = z.input<typeof QuizAttemptsQuerySchema>;
export const AdminAttemptSchema = AttemptSummarySchema.extend({
  quizId: z.uuid(),
  quizTitle: z.string(),
  version: z.number().int(),
  learner: z.object({ _id: z.uuid(), fullName: z.string(), email: z.string() }),
});
export type AdminAttempt = z.infer<typeof AdminAttemptSchema>;
/** A course's attempts, newest first, a page at a time. */
export const QuizAttemptsResponseSchema = Reply.extend({ attempts: z.array(AdminAttemptSchema), total: z.number().int() });
