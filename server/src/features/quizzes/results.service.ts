import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { messages } from '@lms/contract/messages';
import type { AdminAttempt, QuizResults } from '@lms/contract/quizzes';
import type { Context } from '../../context.ts';
import { courses, quizAttempts, quizzes, quizVersions, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** How many of a quiz's questions the results name as the hardest. */
export const HARDEST_QUESTIONS = 5;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** A percent with one decimal, as the results show it. */
const oneDecimal = (value: number) => Math.round(value * 10) / 10;

async function requireCourse(ctx: Context, courseId: string): Promise<void> {
  const [course] = await ctx.db.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId));
  if (!course) throw new AppError(404, messages.courseNotFound);
}

/**
 * Each quiz of a course, in the order they were added: its figures over finished attempts (graded
 * or expired) and its hardest questions. Three queries, sent together, whatever the number of
 * attempts: the figures are the quiz's own counters (moved as each attempt finishes), and the
 * hardest questions come from the per-question counters, never from the attempts themselves.
 */
export async function courseQuizResults(ctx: Context, courseId: string): Promise<{ quizzes: QuizResults[] }> {
  // The three at once, each on its own connection: an unknown course simply has no quizzes to read.
  const [, figureRows, hardestRows] = await Promise.all([
    requireCourse(ctx, courseId),
    ctx.db.execute(sql`
      select q.id as quiz_id, v.title, jsonb_array_length(v.questions)::int as question_count,
             q.finished_attempts as attempts, q.learners, q.passed_attempts as passed,
             q.score_total::float8 / nullif(q.finished_attempts, 0) as average
      from ${quizzes} q
      join ${quizVersions} v on v.quiz_id = q.id and v.number = q.current_version
      where q.course_id = ${courseId}
      order by q.created_at, q.id`),
    ctx.db.execute(sql`
      select quiz_id, question_id, prompt, answered, correct from (
        select s.quiz_id, s.question_id, question->>'prompt' as prompt, s.answered, s.correct,
               row_number() over (
                 partition by s.quiz_id
                 order by s.correct::float8 / s.answered, s.answered desc, s.question_id
               ) as rank
        from quiz_question_stats s
        join ${quizzes} q on q.id = s.quiz_id
        join ${quizVersions} v on v.quiz_id = q.id and v.number = q.current_version
        cross join lateral jsonb_array_elements(v.questions) question
        where q.course_id = ${courseId} and s.answered > 0 and question->>'id' = s.question_id::text
      ) ranked
      where rank <= ${HARDEST_QUESTIONS}
      order by quiz_id, rank`),
  ]);
  const figures = rowsOf<{
    quiz_id: string;
    title: string;
    question_count: number;
    attempts: number;
    learners: number;
    passed: number;
    average: number | null;
  }>(figureRows);
  const hardest = rowsOf<{ quiz_id: string; question_id: string; prompt: string; answered: number; correct: number }>(hardestRows);
  const hardestByQuiz = new Map<string, QuizResults['hardestQuestions']>();
  for (const row of hardest) {
    const list = hardestByQuiz.get(row.quiz_id) ?? [];
    list.push({ questionId: row.question_id, prompt: row.prompt, answered: row.answered, correctRate: oneDecimal((100 * row.correct) / row.answered) });
    hardestByQuiz.set(row.quiz_id, list);
  }
  return {
    quizzes: figures.map((row) => ({
      quizId: row.quiz_id,
      title: row.title,
      questionCount: row.question_count,
      attempts: row.attempts,
      learners: row.learners,
      passRate: row.attempts > 0 ? oneDecimal((100 * row.passed) / row.attempts) : null,
      averageScore: row.attempts > 0 && row.average !== null ? oneDecimal(Number(row.average)) : null,
      hardestQuestions: hardestByQuiz.get(row.quiz_id) ?? [],
    })),
  };
}

/**
 * A course's finished attempts, or one learner's, newest first, a page at a time: each with its
 * learner and the title and number of the version it answered. The total counts through the
 * partial index on finished attempts (by the course's quizzes), not the rows themselves.
 */
export async function courseQuizAttempts(
  ctx: Context,
  courseId: string,
  query: { userId?: string | undefined; page: number; limit: number },
): Promise<{ attempts: AdminAttempt[]; total: number }> {
  const finished = ne(quizAttempts.state, 'open');
  const learner = query.userId ? eq(quizAttempts.userId, query.userId) : undefined;
  const courseQuizzes = ctx.db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.courseId, courseId));
  // The course, the page and the total at once, each on its own connection: the total counts every finished attempt.
  const [, rows, [total]] = await Promise.all([
    requireCourse(ctx, courseId),
    ctx.db
      .select({
        id: quizAttempts.id,
        number: quizAttempts.number,
        state: quizAttempts.state,
        score: quizAttempts.score,
        passed: quizAttempts.passed,
        startedAt: quizAttempts.startedAt,
        submittedAt: quizAttempts.submittedAt,
        quizId: quizAttempts.quizId,
        quizTitle: quizVersions.title,
        version: quizVersions.number,
        userId: users.id,
        fullName: users.fullName,
        email: users.email,
      })
      .from(quizAttempts)
      .innerJoin(quizVersions, eq(quizVersions.id, quizAttempts.versionId))
      .innerJoin(users, eq(users.id, quizAttempts.userId))
      .where(and(eq(quizAttempts.courseId, courseId), finished, learner))
      // "nulls last" as the index (course_id, started_at desc) has it: else the planner cannot read the newest first from it, and sorts every attempt.
      .orderBy(sql`${quizAttempts.startedAt} desc nulls last`, desc(quizAttempts.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    ctx.db
      .select({ n: count() })
      .from(quizAttempts)
      .where(and(inArray(quizAttempts.quizId, courseQuizzes), finished, learner)),
  ]);
  return {
    attempts: rows.map((row) => ({
      _id: row.id,
      number: row.number,
      state: row.state,
      score: row.score ?? 0,
      passed: row.passed,
      startedAt: row.startedAt.toISOString(),
      submittedAt: row.submittedAt?.toISOString() ?? null,
      quizId: row.quizId,
      quizTitle: row.quizTitle,
      version: row.version,
      learner: { _id: row.userId, fullName: row.fullName, email: row.email },
    })),
    total: Number(total?.n ?? 0),
  };
}
