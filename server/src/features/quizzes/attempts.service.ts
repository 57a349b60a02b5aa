import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { SUBMIT_GRACE_SECONDS, type Answer, type AttemptResult, type AttemptSummary, type LearnerQuiz, type OpenAttempt } from '@lms/contract/quizzes';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { courses, quizAttempts, quizQuestionStats, quizVersions, quizzes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { UserRow } from '../auth/sessions.ts';
import { queueCertificateCheck } from '../certificates/certificates.service.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { grade, learnerQuestions, makeQuestionOrder, resultQuestions, validateSubmission } from './grading.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type VersionRow = typeof quizVersions.$inferSelect;
type AttemptRow = typeof quizAttempts.$inferSelect;

/** An open attempt's time is over once its end plus the grace for a submission in flight has passed. */
const timeIsUp = sql`${quizAttempts.endsAt} + make_interval(secs => ${SUBMIT_GRACE_SECONDS}) < now()`;

/**
 * The quiz a learner asks for, with its current version: 403 for someone who may not watch the
 * course's lectures, 404 for a quiz that does not exist or whose course is not published (an
 * administrator sees drafts too).
 */
async function takeableQuiz(ctx: Context, user: UserRow, quizId: string) {
  if (!canWatchLectures(user)) throw new AppError(403, answers.subscribeToTakeQuizzes);
  const [row] = await ctx.db
    .select({ quiz: quizzes, version: quizVersions, status: courses.status })
    .from(quizzes)
    .innerJoin(courses, eq(courses.id, quizzes.courseId))
    .innerJoin(quizVersions, and(eq(quizVersions.quizId, quizzes.id), eq(quizVersions.number, quizzes.currentVersion)))
    .where(eq(quizzes.id, quizId));
  if (!row || (row.status !== 'published' && user.role !== 'ADMIN')) throw new AppError(404, answers.quizNotFound);
  return row;
}

/**
 * Ends the learner's open attempt at this quiz if its time is over: expired, scoring 0, submitted
 * when its time ran out; and counts it among the quiz's finished attempts, in the same statement.
 */
async function expireTimedOut(db: Tx | Db, userId: string, quizId: string, attemptId?: string): Promise<void> {
  const expired = db.$with('expired').as(
    db
      .update(quizAttempts)
      .set({ state: 'expired', score: 0, correctCount: 0, passed: false, submittedAt: sql`${quizAttempts.endsAt}` })
      .where(
        and(
          eq(quizAttempts.userId, userId),
          eq(quizAttempts.quizId, quizId),
          eq(quizAttempts.state, 'open'),
          timeIsUp,
          ...(attemptId ? [eq(quizAttempts.id, attemptId)] : []),
        ),
      )
      .returning({ number: quizAttempts.number }),
  );
  await db
    .with(expired)
    .update(quizzes)
    .set({
      finishedAttempts: sql`${quizzes.finishedAttempts} + (select count(*) from ${expired})`,
      learners: sql`${quizzes.learners} + (select count(*) from ${expired} where ${expired.number} = 1)`,
    })
    .where(and(eq(quizzes.id, quizId), sql`exists (select 1 from ${expired})`));
}

const versionById = async (db: Tx | Db, versionId: string): Promise<VersionRow> => {
  const [version] = await db.select().from(quizVersions).where(eq(quizVersions.id, versionId));
  return version!;
};

const toOpenAttempt = (attempt: AttemptRow, version: VersionRow): OpenAttempt => ({
  _id: attempt.id,
  number: attempt.number,
  startedAt: attempt.startedAt.toISOString(),
  endsAt: attempt.endsAt?.toISOString() ?? null,
  layout: version.layout,
  questions: learnerQuestions(version.questions, attempt.questionOrder),
});

const toAttemptSummary = (attempt: AttemptRow): AttemptSummary => ({
  _id: attempt.id,
  number: attempt.number,
  state: attempt.state,
  score: attempt.score ?? 0,
  passed: attempt.passed,
  startedAt: attempt.startedAt.toISOString(),
  submittedAt: attempt.submittedAt?.toISOString() ?? null,
});

const toAttemptResult = (attempt: AttemptRow, version: VersionRow): AttemptResult => ({
  ...toAttemptSummary(attempt),
  passMark: version.passMark,
  correctCount: attempt.correctCount ?? 0,
  questionCount: attempt.questionOrder.length,
  questions: resultQuestions(version.questions, attempt.questionOrder, attempt.answers, attempt.correct),
});

/** Attempts left under the current rules, after those made; null: unlimited. */
const attemptsLeftOf = (version: VersionRow, made: number) => (version.attemptsAllowed === null ? null : Math.max(0, version.attemptsAllowed - made));

const attemptCount = async (db: Tx | Db, userId: string, quizId: string) => {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.quizId, quizId)));
  return row?.n ?? 0;
};

/** The quiz as its learner sees it: the rules of the current version, their attempts, and the one under way. */
export async function learnerQuiz(ctx: Context, user: UserRow, quizId: string): Promise<LearnerQuiz> {
  const { quiz, version } = await takeableQuiz(ctx, user, quizId);
  await expireTimedOut(ctx.db, user.id, quizId);
  const rows = await ctx.db
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, user.id), eq(quizAttempts.quizId, quizId)))
    .orderBy(desc(quizAttempts.number));
  const open = rows.find((row) => row.state === 'open');
  const finished = rows.filter((row) => row.state !== 'open');
  return {
    _id: quiz.id,
    courseId: quiz.courseId,
    title: version.title,
    questionCount: version.questions.length,
    passMark: version.passMark,
    attemptsAllowed: version.attemptsAllowed,
    attemptsLeft: attemptsLeftOf(version, rows.length),
    timeLimitMinutes: version.timeLimitMinutes,
    layout: version.layout,
    passed: finished.some((row) => row.passed),
    bestScore: finished.length === 0 ? null : Math.max(...finished.map((row) => row.score ?? 0)),
    attempts: finished.map(toAttemptSummary),
    openAttempt: open ? toOpenAttempt(open, open.versionId === version.id ? version : await versionById(ctx.db, open.versionId)) : null,
  };
}

/**
 * Starts an attempt on the current version, or answers the one under way (`resumed`). Two starts
 * at once: one inserts, the other meets the unique number or the one open attempt, and its retry
 * finds the winner's attempt to resume.
 */
export async function startAttempt(ctx: Context, user: UserRow, quizId: string): Promise<{ attempt: OpenAttempt; resumed: boolean }> {
  const { quiz, version } = await takeableQuiz(ctx, user, quizId);
  for (let tries = 1; ; tries++) {
    try {
      const started = await ctx.db.transaction(async (tx) => {
        await expireTimedOut(tx, user.id, quizId);
        const [open] = await tx
          .select()
          .from(quizAttempts)
          .where(and(eq(quizAttempts.userId, user.id), eq(quizAttempts.quizId, quizId), eq(quizAttempts.state, 'open')));
        if (open) return { attempt: toOpenAttempt(open, open.versionId === version.id ? version : await versionById(tx, open.versionId)), resumed: true };
        const made = await attemptCount(tx, user.id, quizId);
        // Answered after the commit: an attempt expired just now stays expired.
        if (version.attemptsAllowed !== null && made >= version.attemptsAllowed) return null;
        const [attempt] = await tx
          .insert(quizAttempts)
          .values({
            quizId,
            versionId: version.id,
            userId: user.id,
            courseId: quiz.courseId,
            number: made + 1,
            questionOrder: makeQuestionOrder(version.questions, version),
            endsAt: version.timeLimitMinutes === null ? null : sql`now() + make_interval(mins => ${version.timeLimitMinutes})`,
          })
          .returning();
        return { attempt: toOpenAttempt(attempt!, version), resumed: false };
      });
      if (!started) throw new AppError(409, answers.noAttemptsLeft);
      return started;
    } catch (error) {
      if (!isUniqueViolation(error) || tries >= 2) throw error;
    }
  }
}

/** The learner's own attempt at this quiz, or 404 (another's, another quiz's, or none). */
async function ownAttempt(db: Tx | Db, user: UserRow, quizId: string, attemptId: string): Promise<AttemptRow> {
  const [attempt] = await db
    .select()
    .from(quizAttempts)
    .where(and(eq(quizAttempts.id, attemptId), eq(quizAttempts.userId, user.id), eq(quizAttempts.quizId, quizId)));
  if (!attempt) throw new AppError(404, answers.attemptNotFound);
  return attempt;
}

type SubmitOutcome = { kind: 'graded'; attempt: AttemptRow; firstPass: boolean } | { kind: 'gone' } | { kind: 'timeUp' };

/**
 * Grades a submission, once. The one conditional update (still open, within its time plus the
 * grace) decides: of two submissions at once only one finds the attempt open. The questions'
 * counts for the results move in the same transaction.
 */
export async function submitAttempt(
  ctx: Context,
  user: UserRow,
  { quizId, attemptId, submitted }: { quizId: string; attemptId: string; submitted: Answer[] },
): Promise<{ attempt: AttemptResult; attemptsLeft: number | null }> {
  const { quiz, version: current } = await takeableQuiz(ctx, user, quizId);
  const attempt = await ownAttempt(ctx.db, user, quizId, attemptId);
  if (attempt.state !== 'open') throw new AppError(409, answers.attemptAlreadySubmitted);
  const version = attempt.versionId === current.id ? current : await versionById(ctx.db, attempt.versionId);
  validateSubmission(version.questions, attempt.questionOrder, submitted);
  const graded = grade(version.questions, attempt.questionOrder, submitted, version.passMark);

  const outcome = await ctx.db.transaction(async (tx): Promise<SubmitOutcome> => {
    const [row] = await tx
      .update(quizAttempts)
      .set({
        state: 'graded',
        submittedAt: sql`now()`,
        score: graded.score,
        correctCount: graded.correctCount,
        passed: graded.passed,
        answers: submitted,
        correct: graded.correct,
      })
      .where(
        and(
          eq(quizAttempts.id, attemptId),
          eq(quizAttempts.userId, user.id),
          eq(quizAttempts.state, 'open'),
          sql`(${quizAttempts.endsAt} is null or not ${timeIsUp})`,
        ),
      )
      .returning();
    if (!row) {
      const [still] = await tx.select({ state: quizAttempts.state }).from(quizAttempts).where(eq(quizAttempts.id, attemptId));
      return still?.state === 'open' ? { kind: 'timeUp' } : { kind: 'gone' };
    }
    // The quiz's row first, then its questions' in one order: concurrent gradings queue on the
    // first lock they share instead of taking the same rows in shuffled orders (a deadlock).
    await tx
      .update(quizzes)
      .set({
        finishedAttempts: sql`${quizzes.finishedAttempts} + 1`,
        passedAttempts: sql`${quizzes.passedAttempts} + ${row.passed ? 1 : 0}`,
        scoreTotal: sql`${quizzes.scoreTotal} + ${row.score ?? 0}`,
        learners: sql`${quizzes.learners} + ${row.number === 1 ? 1 : 0}`,
      })
      .where(eq(quizzes.id, quizId));
    const questionIds = Object.keys(graded.correct).sort();
    if (questionIds.length > 0)
      await tx
        .insert(quizQuestionStats)
        .values(questionIds.map((questionId) => ({ quizId, questionId, answered: 1, correct: graded.correct[questionId] ? 1 : 0 })))
        .onConflictDoUpdate({
          target: [quizQuestionStats.quizId, quizQuestionStats.questionId],
          set: {
            answered: sql`${quizQuestionStats.answered} + 1`,
            correct: sql`${quizQuestionStats.correct} + excluded.correct`,
          },
        });
    let firstPass = false;
    if (row.passed) {
      const [earlier] = await tx
        .select({ id: quizAttempts.id })
        .from(quizAttempts)
        .where(and(eq(quizAttempts.userId, user.id), eq(quizAttempts.quizId, quizId), eq(quizAttempts.passed, true), ne(quizAttempts.id, row.id)))
        .limit(1);
      firstPass = !earlier;
    }
    return { kind: 'graded', attempt: row, firstPass };
  });

  if (outcome.kind === 'gone') throw new AppError(409, answers.attemptAlreadySubmitted);
  if (outcome.kind === 'timeUp') {
    await expireTimedOut(ctx.db, user.id, quizId, attemptId);
    throw new AppError(409, answers.attemptTimeUp);
  }
  if (outcome.firstPass) {
    // The course's percent counts passed quizzes: the next progress save reads them again.
    ctx.heldSaves.learners.forgetLearner(user.id);
    // A first pass may be the last thing the certificate waited for: the job decides, after this answer.
    await queueCertificateCheck(ctx, { userId: user.id, courseId: quiz.courseId });
  }
  const made = await attemptCount(ctx.db, user.id, quizId);
  return { attempt: toAttemptResult(outcome.attempt, version), attemptsLeft: attemptsLeftOf(current, made) };
}

/** A finished attempt of the learner's, question by question; 409 while it is under way. */
export async function attemptResult(
  ctx: Context,
  user: UserRow,
  { quizId, attemptId }: { quizId: string; attemptId: string },
): Promise<{ attempt: AttemptResult; attemptsLeft: number | null }> {
  const { version: current } = await takeableQuiz(ctx, user, quizId);
  await expireTimedOut(ctx.db, user.id, quizId, attemptId);
  const attempt = await ownAttempt(ctx.db, user, quizId, attemptId);
  if (attempt.state === 'open') throw new AppError(409, answers.attemptStillOpen);
  const version = attempt.versionId === current.id ? current : await versionById(ctx.db, attempt.versionId);
  return { attempt: toAttemptResult(attempt, version), attemptsLeft: attemptsLeftOf(current, await attemptCount(ctx.db, user.id, quizId)) };
}
