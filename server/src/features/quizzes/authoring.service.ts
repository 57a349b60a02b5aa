import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import type { AuthoredQuestion, AuthoredQuiz, QuestionInputSchema, QuizInputSchema, QuizPlacement } from '@lms/contract/quizzes';
import type { z } from 'zod';
import type { Context } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { courseSections, lectures, quizVersions, quizzes } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { lockCourse, type Tx } from '../lectures/curriculum-order.ts';

/** A quiz as the route has parsed it: trimmed, defaults filled in. */
export type QuizFields = z.output<typeof QuizInputSchema>;
type QuestionFields = z.output<typeof QuestionInputSchema>;
type QuizRow = typeof quizzes.$inferSelect;
type VersionRow = typeof quizVersions.$inferSelect;

/** The current version of each quiz: the row a quiz's `current_version` names. */
export const currentVersion = and(eq(quizVersions.quizId, quizzes.id), eq(quizVersions.number, quizzes.currentVersion));

/**
 * A quiz as the curriculum lists it, from its row and its current version's (joined on
 * currentVersion). Only what anyone may read: the questions' count, never the questions, so the
 * answers stay in the database.
 */
export const quizSummaryColumns = {
  _id: quizzes.id,
  title: quizVersions.title,
  sectionId: quizzes.sectionId,
  afterLectureId: quizzes.afterLectureId,
  questionCount: sql<number>`jsonb_array_length(${quizVersions.questions})::int`,
  passMark: quizVersions.passMark,
  timeLimitMinutes: quizVersions.timeLimitMinutes,
};

/** The quiz of the course, whole, as its author edits it. */
export async function authoredQuiz(ctx: Context, courseId: string, quizId: string): Promise<AuthoredQuiz> {
  return readAuthored(ctx.db, courseId, quizId);
}

async function readAuthored(db: Db | Tx, courseId: string, quizId: string): Promise<AuthoredQuiz> {
  const [found] = await db
    .select({ quiz: quizzes, version: quizVersions })
    .from(quizzes)
    .innerJoin(quizVersions, currentVersion)
    .where(and(eq(quizzes.id, quizId), eq(quizzes.courseId, courseId)));
  if (!found) throw new AppError(404, answers.quizNotFound);
  return toAuthored(found.quiz, found.version);
}

const toAuthored = (quiz: QuizRow, version: VersionRow): AuthoredQuiz => ({
  _id: quiz.id,
  courseId: quiz.courseId,
  sectionId: quiz.sectionId,
  afterLectureId: quiz.afterLectureId,
  version: version.number,
  // Submitted and expired ones, of every version: an open attempt is not one yet.
  attempts: quiz.finishedAttempts,
  title: version.title,
  passMark: version.passMark,
  attemptsAllowed: version.attemptsAllowed,
  timeLimitMinutes: version.timeLimitMinutes,
  shuffleQuestions: version.shuffleQuestions,
  shuffleOptions: version.shuffleOptions,
  layout: version.layout,
  questions: version.questions.map(canonical),
  updatedAt: quiz.updatedAt.toISOString(),
});

/**
 * A question with its fields in one order: what is compared to tell whether a save changed
 * anything (jsonb gives its keys back in an order of its own).
 */
function canonical(question: AuthoredQuestion): AuthoredQuestion {
  const { id, prompt, explanation } = question;
  if (question.type === 'text') return { id, type: 'text', prompt, answers: [...question.answers], explanation };
  return {
    id,
    type: question.type,
    prompt,
    options: question.options.map((option) => ({ id: option.id, text: option.text, correct: option.correct })),
    explanation,
  };
}

/** What a version stores of the settings, in one order. */
const settingsOf = (fields: QuizFields | VersionRow) => ({
  title: fields.title,
  passMark: fields.passMark,
  attemptsAllowed: fields.attemptsAllowed,
  timeLimitMinutes: fields.timeLimitMinutes,
  shuffleQuestions: fields.shuffleQuestions,
  shuffleOptions: fields.shuffleOptions,
  layout: fields.layout,
});

/** What a question says, its ids aside. */
const contentOf = (question: QuestionFields | AuthoredQuestion) =>
  JSON.stringify([
    question.type,
    question.prompt,
    question.explanation,
    question.type === 'text' ? question.answers : question.options.map((option) => [option.text, option.correct]),
  ]);

/**
 * The questions as a version stores them, every question and option with an id. An id the editor
 * sent is kept (the results follow a question by it), and two alike are refused. One sent without
 * gets the id the server gave it before when nothing tells them apart: a question the same as the
 * previous version's at its place, an option of the same text in that question. Any other gets a
 * new one.
 */
function withIds(questions: QuestionFields[], previous: readonly AuthoredQuestion[] = []): AuthoredQuestion[] {
  const sent = [
    ...questions.map((question) => question.id),
    ...questions.flatMap((question) => (question.type === 'text' ? [] : question.options.map((option) => option.id))),
  ];
  const given = sent.filter((id) => id !== undefined);
  if (new Set(given).size !== given.length) throw new AppError(400, answers.quizIdsRepeated);
  const taken = new Set(given);
  const reuse = (id: string | undefined) => (id !== undefined && !taken.has(id) ? (taken.add(id), id) : undefined);

  return questions.map((question, index) => {
    const before = previous[index];
    const id = question.id ?? (before && contentOf(question) === contentOf(before) ? reuse(before.id) : undefined) ?? randomUUID();
    const { prompt, explanation } = question;
    if (question.type === 'text') return { id, type: 'text', prompt, answers: question.answers, explanation };
    const earlier = previous.find((old) => old.id === id);
    const earlierOptions = earlier && earlier.type !== 'text' ? earlier.options : [];
    const options = question.options.map((option) => ({
      id: option.id ?? reuse(earlierOptions.find((old) => old.text === option.text)?.id) ?? randomUUID(),
      text: option.text,
      correct: option.correct,
    }));
    return { id, type: question.type, prompt, options, explanation };
  });
}

/**
 * Where the quiz goes, checked against the course: after one of its lectures (in that lecture's
 * section, where it falls back to should the lecture be deleted), at the end of one of its
 * sections, or at its end.
 */
async function placementIn(tx: Tx, courseId: string, placement: QuizPlacement): Promise<QuizPlacement> {
  if (placement.afterLectureId !== null) {
    const [lecture] = await tx
      .select({ sectionId: lectures.sectionId })
      .from(lectures)
      .where(and(eq(lectures.id, placement.afterLectureId), eq(lectures.courseId, courseId)));
    if (!lecture) throw new AppError(400, answers.quizPlaceInvalid);
    return { afterLectureId: placement.afterLectureId, sectionId: lecture.sectionId };
  }
  if (placement.sectionId !== null) {
    const [section] = await tx
      .select({ id: courseSections.id })
      .from(courseSections)
      .where(and(eq(courseSections.id, placement.sectionId), eq(courseSections.courseId, courseId)));
    if (!section) throw new AppError(400, answers.quizPlaceInvalid);
  }
  return { afterLectureId: null, sectionId: placement.sectionId };
}

/** Adds a quiz to the course at its place, as its version 1. */
export async function createQuiz(ctx: Context, courseId: string, input: QuizFields & QuizPlacement): Promise<AuthoredQuiz> {
  const questions = withIds(input.questions);
  return ctx.db.transaction(async (tx) => {
    // As every curriculum write: the course first, touched so that every instance's copies of its curriculum are dropped.
    await lockCourse(tx, courseId, messages.courseNotFound);
    const place = await placementIn(tx, courseId, input);
    const [quiz] = await tx
      .insert(quizzes)
      .values({ courseId, ...place })
      .returning();
    const [version] = await tx
      .insert(quizVersions)
      .values({ quizId: quiz!.id, number: 1, ...settingsOf(input), questions })
      .returning();
    return toAuthored(quiz!, version!);
  });
}

/** Thrown inside a save's transaction that changes nothing: it rolls back the course's touch. */
class Unchanged extends Error {}

/**
 * Saves the quiz whole. A save that changes anything adds a version (the versions before stay
 * as they were: attempts are graded against the one they answered); one that changes nothing
 * adds none and answers `changed: false`.
 */
export async function updateQuiz(ctx: Context, courseId: string, quizId: string, input: QuizFields): Promise<{ quiz: AuthoredQuiz; changed: boolean }> {
  try {
    await ctx.db.transaction(async (tx) => {
      await lockCourse(tx, courseId, answers.quizNotFound);
      const [found] = await tx
        .select({ quiz: quizzes, version: quizVersions })
        .from(quizzes)
        .innerJoin(quizVersions, currentVersion)
        .where(and(eq(quizzes.id, quizId), eq(quizzes.courseId, courseId)));
      if (!found) throw new AppError(404, answers.quizNotFound);
      const questions = withIds(input.questions, found.version.questions);
      const unchanged =
        JSON.stringify(settingsOf(input)) === JSON.stringify(settingsOf(found.version)) &&
        JSON.stringify(questions.map(canonical)) === JSON.stringify(found.version.questions.map(canonical));
      if (unchanged) throw new Unchanged();
      const number = found.quiz.currentVersion + 1;
      await tx.insert(quizVersions).values({ quizId, number, ...settingsOf(input), questions });
      await tx.update(quizzes).set({ currentVersion: number, updatedAt: new Date() }).where(eq(quizzes.id, quizId));
    });
  } catch (error) {
    if (!(error instanceof Unchanged)) throw error;
    return { quiz: await readAuthored(ctx.db, courseId, quizId), changed: false };
  }
  return { quiz: await readAuthored(ctx.db, courseId, quizId), changed: true };
}

/** Moves the quiz to another place in the course's curriculum. */
export async function placeQuiz(ctx: Context, courseId: string, quizId: string, placement: QuizPlacement): Promise<AuthoredQuiz> {
  return ctx.db.transaction(async (tx) => {
    await lockCourse(tx, courseId, answers.quizNotFound);
    const place = await placementIn(tx, courseId, placement);
    const [moved] = await tx
      .update(quizzes)
      .set({ ...place, updatedAt: new Date() })
      .where(and(eq(quizzes.id, quizId), eq(quizzes.courseId, courseId)))
      .returning({ id: quizzes.id });
    if (!moved) throw new AppError(404, answers.quizNotFound);
    return readAuthored(tx, courseId, quizId);
  });
}

/**
 * Deletes the quiz; its versions, attempts and figures go with it (foreign keys). Progress is
 * read from the attempts, so no count is left to correct.
 */
export async function deleteQuiz(ctx: Context, courseId: string, quizId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await lockCourse(tx, courseId, answers.quizNotFound);
    const [deleted] = await tx
      .delete(quizzes)
      .where(and(eq(quizzes.id, quizId), eq(quizzes.courseId, courseId)))
      .returning({ id: quizzes.id });
    if (!deleted) throw new AppError(404, answers.quizNotFound);
  });
}
