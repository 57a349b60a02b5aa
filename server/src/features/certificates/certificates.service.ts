import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { answers } from '@lms/contract/answers';
import {
  CERTIFICATE_CODE_LENGTH,
  readCertificateCode,
  type AdminCertificate,
  type Certificate,
  type IssueCertificate,
  type VerifiedCertificate,
} from '@lms/contract/certificates';
import { API_PREFIX } from '@lms/contract/http';
import { messages } from '@lms/contract/messages';
import { pagePaths } from '@lms/contract/pages';
import type { Context } from '../../context.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { certificates, courses, lectureProgress, lectures, quizAttempts, quizzes, users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { randomCode } from '../../random-code.ts';
import type { UserRow } from '../auth/sessions.ts';
import { siteOf } from '../settings/site-settings.ts';

export type CertificateRow = typeof certificates.$inferSelect;

export interface CertificateRequirements {
  lecturesCompleted: number;
  lectures: number;
  quizzesPassed: number;
  quizzes: number;
}

/**
 * What a learner has done towards a course's certificate. The one place the rule's inputs are
 * read: lectures completed of the course's lectures, and quizzes passed (any attempt passed, on
 * any version) of the course's quizzes.
 */
export async function certificateRequirements(ctx: Context, { userId, courseId }: { userId: string; courseId: string }): Promise<CertificateRequirements> {
  const [[row], [quizRow]] = await Promise.all([
    ctx.db
      .select({
        lectures: count(lectures.id),
        lecturesCompleted: count(lectureProgress.completedAt),
      })
      .from(lectures)
      .leftJoin(lectureProgress, and(eq(lectureProgress.lectureId, lectures.id), eq(lectureProgress.userId, userId)))
      .where(eq(lectures.courseId, courseId)),
    ctx.db
      .select({
        quizzes: count(quizzes.id),
        quizzesPassed: sql<number>`(select count(distinct ${quizAttempts.quizId}) from ${quizAttempts}
          where ${quizAttempts.userId} = ${userId} and ${quizAttempts.courseId} = ${courseId} and ${quizAttempts.passed})`.mapWith(Number),
      })
      .from(quizzes)
      .where(eq(quizzes.courseId, courseId)),
  ]);
  return {
    lecturesCompleted: Number(row?.lecturesCompleted ?? 0),
    lectures: Number(row?.lectures ?? 0),
    quizzesPassed: Number(quizRow?.quizzesPassed ?? 0),
    quizzes: Number(quizRow?.quizzes ?? 0),
  };
}

/** The issuing rule: every lecture completed (a course without lectures certifies nothing), every quiz passed. */
export const isEarned = (r: CertificateRequirements) => r.lectures > 0 && r.lecturesCompleted >= r.lectures && r.quizzesPassed >= r.quizzes;

export const newCertificateCode = () => randomCode(CERTIFICATE_CODE_LENGTH);

/** Tries at a fresh code: two codes of 80 random bits meeting is all but impossible, but the unique index would refuse it. */
const CODE_TRIES = 5;

/**
 * Writes a certificate for the learner and course, with what it certifies copied in as it is now;
 * null when they already have one (never two: unique (user_id, course_id)) or the account or
 * course is gone. Its PDF is queued.
 */
async function insertCertificate(
  ctx: Context,
  { userId, courseId, issuedBy }: { userId: string; courseId: string; issuedBy: string | null },
): Promise<CertificateRow | null> {
  const [user] = await ctx.db.select({ fullName: users.fullName, certificateName: users.certificateName }).from(users).where(eq(users.id, userId));
  const [course] = await ctx.db.select({ title: courses.title, createdBy: courses.createdBy }).from(courses).where(eq(courses.id, courseId));
  if (!user || !course) return null;
  // The name the storefront shows: the seller as learners know it, at the time of issue.
  const issuer = (await siteOf(ctx)).name;
  for (let attempt = 1; ; attempt++) {
    try {
      const [row] = await ctx.db
        .insert(certificates)
        .values({
          code: newCertificateCode(),
          userId,
          courseId,
          name: user.certificateName ?? user.fullName,
          courseTitle: course.title,
          instructor: course.createdBy,
          issuer,
          issuedBy,
        })
        .onConflictDoNothing({ target: [certificates.userId, certificates.courseId] })
        .returning();
      if (!row) return null;
      await queueCertificatePdf(ctx, row.id);
      return row;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= CODE_TRIES) throw error;
    }
  }
}

/**
 * The `certificate-earned` job: issues the learner's certificate of the course if they have earned
 * it, once. Queued each time a lecture is completed or a quiz first passed; most find the rule
 * unmet, or the certificate already there. A course unpublished since still certifies: the
 * learner did complete it.
 */
export async function issueEarnedCertificate(ctx: Context, { userId, courseId }: { userId: string; courseId: string }): Promise<CertificateRow | null> {
  const [existing] = await ctx.db
    .select({ id: certificates.id })
    .from(certificates)
    .where(and(eq(certificates.userId, userId), eq(certificates.courseId, courseId)));
  if (existing) return null;
  if (!isEarned(await certificateRequirements(ctx, { userId, courseId }))) return null;
  return insertCertificate(ctx, { userId, courseId, issuedBy: null });
}

/**
 * Queues the check for a certificate after a lecture was completed or a quiz passed; the job
 * decides. A queue that cannot take it now fails nothing the learner did: their progress is
 * saved, and completing any lecture of the course again queues the check again.
 */
export async function queueCertificateCheck(ctx: Context, job: { userId: string; courseId: string }): Promise<void> {
  await ctx.jobs.send('certificate-earned', job).catch(() => undefined);
}

/**
 * Queues a certificate's PDF, after the row was written. A lost send leaves a first PDF to the
 * minute's stalled sweep; one after a change of name leaves the PDF with the earlier name in place
 * (the certificate and its page carry the new one) until the PDF is queued again.
 */
export async function queueCertificatePdf(ctx: Context, certificateId: string): Promise<void> {
  await ctx.jobs.send('certificate-pdf', { certificateId }).catch(() => undefined);
}

// ---- What each reader sees ---------------------------------------------------------------------

/** The public page of a certificate, as an absolute URL: what a learner shares. */
export const verifyUrlOf = (ctx: Context, code: string) => `${ctx.config.publicUrl}${pagePaths.certificate.replace(':code', code)}`;

/** LinkedIn's documented "add to profile" link, every value encoded. */
export function linkedInUrlOf(row: Pick<CertificateRow, 'courseTitle' | 'issuer' | 'issuedAt' | 'code'>, verifyUrl: string): string {
  const fields: [string, string][] = [
    ['startTask', 'CERTIFICATION_NAME'],
    ['name', row.courseTitle],
    ['organizationName', row.issuer],
    ['issueYear', String(row.issuedAt.getUTCFullYear())],
    ['issueMonth', String(row.issuedAt.getUTCMonth() + 1)],
    ['certUrl', verifyUrl],
    ['certId', row.code],
  ];
  return `https://www.linkedin.com/profile/add?${fields.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}

export const toVerifiedCertificate = (row: CertificateRow): VerifiedCertificate => ({
  code: row.code,
  name: row.name,
  courseTitle: row.courseTitle,
  instructor: row.instructor,
  issuer: row.issuer,
  issuedAt: row.issuedAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

export function toCertificate(ctx: Context, row: CertificateRow): Certificate {
  const verifyUrl = verifyUrlOf(ctx, row.code);
  return {
    ...toVerifiedCertificate(row),
    _id: row.id,
    courseId: row.courseId,
    // A PDF made with an earlier name stays downloadable until the new one replaces it.
    state: row.pdfKey ? 'ready' : 'issuing',
    pdfUrl: `${API_PREFIX}/certificates/${row.code}/pdf`,
    verifyUrl,
    linkedInUrl: linkedInUrlOf(row, verifyUrl),
  };
}

// ---- The learner -------------------------------------------------------------------------------

export async function myCertificates(ctx: Context, user: UserRow) {
  const rows = await ctx.db.select().from(certificates).where(eq(certificates.userId, user.id)).orderBy(desc(certificates.issuedAt), desc(certificates.id));
  return { certificates: rows.map((row) => toCertificate(ctx, row)), name: { chosen: user.certificateName, default: user.fullName } };
}

/**
 * The learner chooses the name printed on their certificates, once (an administrator changes it
 * after that). Their certificates carry it at once; each PDF is made again, the old one kept
 * downloadable until the new one replaces it (certificate-pdf.ts).
 */
export async function chooseCertificateName(ctx: Context, user: UserRow, name: string) {
  const renamed = await ctx.db.transaction(async (tx) => {
    const [chosen] = await tx
      .update(users)
      .set({ certificateName: name })
      .where(and(eq(users.id, user.id), isNull(users.certificateName)))
      .returning({ id: users.id });
    if (!chosen) throw new AppError(409, answers.certificateNameAlreadyChosen);
    return tx.update(certificates).set({ name }).where(eq(certificates.userId, user.id)).returning({ id: certificates.id });
  });
  for (const { id } of renamed) await queueCertificatePdf(ctx, id);
  return myCertificates(ctx, { ...user, certificateName: name });
}

/** The learner's certificate of a course, or what is left to earn it; a draft is no course to a learner. */
export async function courseCertificate(ctx: Context, user: UserRow, courseId: string) {
  const [course] = await ctx.db.select({ status: courses.status }).from(courses).where(eq(courses.id, courseId));
  if (!course || (course.status === 'draft' && user.role !== 'ADMIN')) throw new AppError(404, messages.courseNotFound);
  const [row] = await ctx.db
    .select()
    .from(certificates)
    .where(and(eq(certificates.userId, user.id), eq(certificates.courseId, courseId)));
  return {
    certificate: row ? toCertificate(ctx, row) : null,
    requirements: await certificateRequirements(ctx, { userId: user.id, courseId }),
  };
}

/** A certificate by a code as typed or linked (any case, dashes); undefined when no certificate has it. */
export async function findCertificate(ctx: Context, text: string): Promise<CertificateRow | undefined> {
  const code = readCertificateCode(text);
  if (!code) return undefined;
  const [row] = await ctx.db.select().from(certificates).where(eq(certificates.code, code));
  return row;
}

export async function verifyCertificate(ctx: Context, text: string): Promise<VerifiedCertificate> {
  const row = await findCertificate(ctx, text);
  if (!row) throw new AppError(404, answers.certificateNotFound);
  return toVerifiedCertificate(row);
}

/** The PDF of a certificate, for its learner and administrators; 409 while it is first being made. */
export async function certificatePdf(ctx: Context, user: UserRow, text: string) {
  const row = await findCertificate(ctx, text);
  if (!row) throw new AppError(404, answers.certificateNotFound);
  if (row.userId !== user.id && user.role !== 'ADMIN') throw new AppError(403, answers.notAllowed);
  if (!row.pdfKey) throw new AppError(409, answers.certificateBeingMade);
  return { fileName: `certificate-${row.code}.pdf`, body: ctx.media.read(row.pdfKey) };
}

// ---- Administration ----------------------------------------------------------------------------

const issuers = alias(users, 'issuers');

const adminSelection = {
  certificate: certificates,
  learner: { id: users.id, fullName: users.fullName, email: users.email },
  issuedBy: issuers.fullName,
};

function adminCertificates(ctx: Context) {
  return ctx.db
    .select(adminSelection)
    .from(certificates)
    .innerJoin(users, eq(users.id, certificates.userId))
    .leftJoin(issuers, eq(issuers.id, certificates.issuedBy));
}

type AdminRow = { certificate: CertificateRow; learner: { id: string; fullName: string; email: string }; issuedBy: string | null };

const toAdminCertificate = (ctx: Context, row: AdminRow): AdminCertificate => ({
  ...toCertificate(ctx, row.certificate),
  learner: { _id: row.learner.id, fullName: row.learner.fullName, email: row.learner.email },
  issuedBy: row.issuedBy,
});

export async function listCertificates(ctx: Context, query: { courseId?: string | undefined; page: number; limit: number }) {
  const where = query.courseId ? eq(certificates.courseId, query.courseId) : undefined;
  const rows = await adminCertificates(ctx)
    .where(where)
    .orderBy(desc(certificates.issuedAt), desc(certificates.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [total] = await ctx.db.select({ n: count() }).from(certificates).where(where);
  return { certificates: rows.map((row) => toAdminCertificate(ctx, row)), total: Number(total?.n ?? 0) };
}

async function adminCertificateById(ctx: Context, id: string): Promise<AdminCertificate> {
  const [row] = await adminCertificates(ctx).where(eq(certificates.id, id));
  return toAdminCertificate(ctx, row!);
}

/** An administrator issues a certificate by hand, whatever the learner's progress. */
export async function issueCertificate(ctx: Context, admin: UserRow, input: IssueCertificate): Promise<AdminCertificate> {
  const [learner] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, input.email));
  if (!learner) throw new AppError(404, answers.certificateLearnerNotFound);
  const [course] = await ctx.db.select({ id: courses.id }).from(courses).where(eq(courses.id, input.courseId));
  if (!course) throw new AppError(404, messages.courseNotFound);
  const row = await insertCertificate(ctx, { userId: learner.id, courseId: course.id, issuedBy: admin.id });
  if (!row) throw new AppError(409, answers.certificateExists);
  return adminCertificateById(ctx, row.id);
}

/** Revokes a certificate (its page says so, with the date), or restores it; revoking twice keeps the first date. */
export async function setCertificateRevoked(ctx: Context, text: string, revoked: boolean): Promise<AdminCertificate> {
  const code = readCertificateCode(text);
  const [row] = code
    ? await ctx.db
        .update(certificates)
        .set({ revokedAt: revoked ? sql`coalesce(${certificates.revokedAt}, now())` : null })
        .where(eq(certificates.code, code))
        .returning({ id: certificates.id })
    : [];
  if (!row) throw new AppError(404, answers.certificateNotFound);
  return adminCertificateById(ctx, row.id);
}
