import type { AuditArea, AuditEntry } from '@lms/contract/audit';
import type { auditLog } from '../../db/schema.ts';

/** An entry of the audit trail as the API shows it. */
export function auditEntryJson(row: typeof auditLog.$inferSelect): AuditEntry {
  return {
    _id: row.id.toString(),
    at: row.at.toISOString(),
    actor: row.actorName === null ? null : { _id: row.actorId, name: row.actorName, email: row.actorEmail ?? '' },
    action: row.action,
    area: row.area as AuditArea,
    target: row.targetType === null ? null : { type: row.targetType, _id: row.targetId, label: row.targetLabel ?? '' },
    reason: row.reason,
    summary: row.summary,
  };
}
