import { AUDIT_ACTIONS, type AuditAction } from '@lms/contract/audit';
import type { Db } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

/** Who acted: an administrator as the request knows them, or null for the queue's own work. */
export type AuditActor = { id: string; fullName: string; email: string } | null;

/** What an entry can be about. */
export type AuditTargetType =
  | 'user'
  | 'payment'
  | 'document'
  | 'course'
  | 'lecture'
  | 'section'
  | 'resource'
  | 'caption'
  | 'quiz'
  | 'plan'
  | 'coupon'
  | 'certificate'
  | 'settings'
  | 'page';

export interface AuditRecord {
  actor: AuditActor;
  action: AuditAction;
  /** What it was done to, with how it is called now (the entry keeps the name after a rename or a deletion). */
  target?: {
    type: AuditTargetType;
    id: string | null;
    label: string;
  };
  /** The reason or note the administrator gave. */
  reason?: string | null;
  /** What changed, in a few words, as the Activity page shows it. */
  summary: string;
  details?: Record<string, unknown>;
}

/**
 * Appends an entry to the audit trail. Called with the transaction of the change it records, so
 * that the change and its entry are written together or not at all.
 */
export async function recordAudit(db: Db, record: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({
    actorId: record.actor?.id ?? null,
    actorName: record.actor?.fullName ?? null,
    actorEmail: record.actor?.email ?? null,
    action: record.action,
    area: AUDIT_ACTIONS[record.action].area,
    targetType: record.target?.type ?? null,
    targetId: record.target?.id ?? null,
    targetLabel: record.target?.label ?? null,
    reason: record.reason ?? null,
    summary: record.summary,
    details: record.details ?? {},
  });
}
