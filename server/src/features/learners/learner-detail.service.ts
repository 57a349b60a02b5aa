import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import type { BillingDocument } from '@lms/contract/billing';
import { learnerStateOf, type LearnerDetail } from '@lms/contract/learners';
import { messages } from '@lms/contract/messages';
import type { Context } from '../../context.ts';
import {
  accessGrants,
  adminRefunds,
  auditLog,
  billingDocuments,
  cancellations,
  certificates,
  coupons,
  emailChanges,
  payments,
  plans,
  subscriptions,
  users,
} from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { auditEntryJson } from '../audit/entries.ts';
import { listSessions } from '../auth/signed-in-sessions.service.ts';
import { paymentStatusOf } from '../billing/billing.service.ts';
import { courseProgressJson } from '../progress/progress.service.ts';
import { avatarUrlOf, rowsOf } from './learners-list.service.ts';

/** Entries of the audit trail the page shows; the Activity page has the rest. */
const ACTIVITY_SHOWN = 20;

const iso = (date: Date | string) => new Date(date).toISOString();
const isoOrNull = (date: Date | string | null) => (date === null ? null : iso(date));
const documentJson = (row: { id: string; number: string; pdfKey: string | null }): BillingDocument => ({
  id: row.id,
  number: row.number,
  ready: row.pdfKey !== null,
});

interface ProgressRow {
  course_id: string;
  title: string;
  started_at: Date | string;
  last_watched_at: Date | string;
  completed_lectures: number;
  last_lecture_id: string | null;
  lecture_count: number;
  quiz_count: number;
  passed_quizzes: number;
}

interface QuizRow {
  quiz_id: string;
  quiz_title: string;
  course_id: string;
  course_title: string;
  attempts: number;
  best_score: number | null;
  passed: boolean;
}

/**
 * One learner on one page: their account, where they stand and why, and everything about their
 * money and learning. Each part is its own small query by the learner's id (each an index read),
 * run together.
 */
export async function getLearner(ctx: Context, id: string): Promise<LearnerDetail> {
  const { db } = ctx;
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user) throw new AppError(404, answers.notFound);
  const now = new Date();

  const [pending, grants, subscriptionRows, paymentRows, documents, refunds, progressRows, sessions, quizRows, certificateRows, cancellationRows, activity] =
    await Promise.all([
      db
        .select({ newEmail: emailChanges.newEmail })
        .from(emailChanges)
        .where(and(eq(emailChanges.userId, id), isNull(emailChanges.usedAt), gt(emailChanges.expiresAt, now)))
        .orderBy(desc(emailChanges.createdAt))
        .limit(1),
      db.select().from(accessGrants).where(eq(accessGrants.userId, id)).orderBy(desc(accessGrants.createdAt)),
      db
        .select({ subscription: subscriptions, plan: plans.name, coupon: coupons.code })
        .from(subscriptions)
        .leftJoin(plans, eq(plans.id, subscriptions.planId))
        .leftJoin(coupons, eq(coupons.id, subscriptions.couponId))
        .where(eq(subscriptions.userId, id))
        .orderBy(desc(subscriptions.createdAt)),
      db.select().from(payments).where(eq(payments.userId, id)).orderBy(desc(payments.paidAt), desc(payments.createdAt)),
      db
        .select({
          id: billingDocuments.id,
          number: billingDocuments.number,
          pdfKey: billingDocuments.pdfKey,
          kind: billingDocuments.kind,
          paymentId: billingDocuments.paymentId,
          description: billingDocuments.description,
          issuedAt: billingDocuments.issuedAt,
        })
        .from(billingDocuments)
        .where(eq(billingDocuments.userId, id)),
      db.select().from(adminRefunds).where(eq(adminRefunds.userId, id)).orderBy(desc(adminRefunds.createdAt)),
      db
        .execute(
          sql`
          select cp.course_id, c.title, cp.started_at, cp.last_watched_at, cp.completed_lectures, cp.last_lecture_id,
                 (select count(*) from lectures as l where l.course_id = cp.course_id)::int as lecture_count,
                 (select count(*) from quizzes as q where q.course_id = cp.course_id)::int as quiz_count,
                 (select count(distinct a.quiz_id) from quiz_attempts as a
                   where a.user_id = cp.user_id and a.course_id = cp.course_id and a.passed)::int as passed_quizzes
          from course_progress as cp join courses as c on c.id = cp.course_id
          where cp.user_id = ${id}::uuid
          order by cp.last_watched_at desc`,
        )
        .then((result) => rowsOf<ProgressRow>(result)),
      // No session of theirs is the one reading the page.
      listSessions(ctx, user, ''),
      db
        .execute(
          sql`
          select a.quiz_id, v.title as quiz_title, q.course_id, c.title as course_title, a.attempts, a.best_score, a.passed
          from (select quiz_id, count(*)::int as attempts, max(score) filter (where state <> 'open') as best_score, bool_or(passed) as passed,
                       max(started_at) as last_started
                from quiz_attempts where user_id = ${id}::uuid group by quiz_id) as a
          join quizzes as q on q.id = a.quiz_id
          join quiz_versions as v on v.quiz_id = q.id and v.number = q.current_version
          join courses as c on c.id = q.course_id
          order by a.last_started desc`,
        )
        .then((result) => rowsOf<QuizRow>(result)),
      db.select().from(certificates).where(eq(certificates.userId, id)).orderBy(desc(certificates.issuedAt)),
      db.select().from(cancellations).where(eq(cancellations.userId, id)).orderBy(desc(cancellations.createdAt)),
      db.select().from(auditLog).where(eq(auditLog.targetId, id)).orderBy(desc(auditLog.id)).limit(ACTIVITY_SHOWN),
    ]);

  const state = learnerStateOf(user, now);
  const paidAccess = user.subscriptionEndsAt !== null && user.subscriptionEndsAt > now;
  const complimentary = user.complimentaryUntil !== null && user.complimentaryUntil > now;
  // Both may run at once: the later end is what the learner has.
  const access =
    paidAccess && !(complimentary && user.complimentaryUntil! > user.subscriptionEndsAt!)
      ? { until: user.subscriptionEndsAt!.toISOString(), source: 'subscription' as const }
      : complimentary
        ? { until: user.complimentaryUntil!.toISOString(), source: 'complimentary' as const }
        : null;

  return {
    profile: {
      _id: user.id,
      fullName: user.fullName,
      email: user.email,
      avatarUrl: avatarUrlOf(ctx, user.avatarKey),
      role: user.role,
      signedUpAt: user.createdAt.toISOString(),
      lastActiveAt: isoOrNull(user.lastActiveAt),
      pendingEmail: pending[0]?.newEmail ?? null,
      suspendedAt: isoOrNull(user.suspendedAt),
      suspensionReason: user.suspensionReason,
      certificateName: user.certificateName,
    },
    state,
    access,
    grants: grants.map((grant) => ({
      _id: grant.id,
      startsAt: grant.startsAt.toISOString(),
      endsAt: grant.endsAt.toISOString(),
      note: grant.note,
      grantedBy: grant.grantedByName,
      revokedAt: isoOrNull(grant.revokedAt),
      revokedBy: grant.revokedByName,
      state: grant.revokedAt !== null ? 'revoked' : grant.endedAt === null && grant.endsAt > now ? 'active' : 'expired',
    })),
    subscriptions: subscriptionRows.map(({ subscription, plan, coupon }) => ({
      _id: subscription.id,
      plan,
      status: subscription.status,
      createdAt: subscription.createdAt.toISOString(),
      currentEnd: isoOrNull(subscription.currentEnd),
      cancelledAt: isoOrNull(subscription.cancelledAt),
      trialDays: subscription.trialDays,
      paidCount: subscription.paidCount,
      coupon,
    })),
    payments: paymentRows.map((payment) => {
      const own = documents.filter((document) => document.paymentId === payment.id);
      const invoice = own.find((document) => document.kind === 'invoice');
      return {
        _id: payment.id,
        paidAt: payment.paidAt.toISOString(),
        description: invoice?.description ?? messages.bundleTitle,
        amount: payment.amountPaise / 100,
        refunded: payment.refundedPaise / 100,
        status: paymentStatusOf(payment),
        invoice: invoice ? documentJson(invoice) : null,
        creditNotes: own
          .filter((document) => document.kind === 'credit_note')
          .sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime())
          .map(documentJson),
        refunds: refunds
          .filter((refund) => refund.paymentId === payment.id)
          .map((refund) => ({
            _id: refund.id,
            amount: refund.amountPaise / 100,
            state: refund.state,
            failure: refund.failure,
            note: refund.note,
            access: refund.access,
            by: refund.actorName,
            createdAt: refund.createdAt.toISOString(),
          })),
      };
    }),
    progress: progressRows.map((row) => {
      const progress = courseProgressJson({
        courseId: row.course_id,
        completed: Number(row.completed_lectures),
        lectureCount: Number(row.lecture_count),
        quizCount: Number(row.quiz_count),
        passedQuizzes: Number(row.passed_quizzes),
        lastLectureId: row.last_lecture_id,
        lastWatchedAt: new Date(row.last_watched_at),
      });
      return {
        courseId: row.course_id,
        title: row.title,
        startedAt: iso(row.started_at),
        lastWatchedAt: progress.lastWatchedAt,
        completedLectures: progress.completedLectures,
        lectureCount: progress.lectureCount,
        percent: progress.percent,
        completed: progress.percent === 100,
      };
    }),
    sessions,
    quizzes: quizRows.map((row) => ({
      quizId: row.quiz_id,
      quizTitle: row.quiz_title,
      courseId: row.course_id,
      courseTitle: row.course_title,
      attempts: Number(row.attempts),
      bestScore: row.best_score === null ? null : Number(row.best_score),
      passed: row.passed,
    })),
    certificates: certificateRows.map((certificate) => ({
      code: certificate.code,
      courseTitle: certificate.courseTitle,
      issuedAt: certificate.issuedAt.toISOString(),
      revokedAt: isoOrNull(certificate.revokedAt),
    })),
    cancellations: cancellationRows.map((cancellation) => ({
      at: cancellation.createdAt.toISOString(),
      reason: cancellation.reason,
      note: cancellation.note,
      refunded: cancellation.refunded,
      accessUntil: cancellation.accessUntil.toISOString(),
    })),
    activity: activity.map(auditEntryJson),
  };
}
