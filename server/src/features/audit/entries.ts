import type { AuditArea, AuditEntry } from '@lms/contract/audit';
import type { auditLog } from '../../db/schema.ts';

/** An entry of the trail as the API answers it: the names it was written with, not today's. */
export function auditEntryJson(row: typeof auditLog.$inferSelect): AuditEntry {
  const acted = row.actorId !== null || row.actorName !== null;
  return {
    _id: String(row.id),
    at: row.at.toISOString(),
    actor: acted ? { _id: row.actorId, name: row.actorName ?? '', email: row.actorEmail ?? '' } : null,
    action: row.action,
    area: row.area as AuditArea,
    target: row.targetType === null ? null : { type: row.targetType, _id: row.targetId, label: row.targetLabel ?? '' },
    reason: row.reason,
    summary: row.summary,
  };
}
