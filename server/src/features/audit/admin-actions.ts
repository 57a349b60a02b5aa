import type { FastifyRequest } from 'fastify';
import type { ApiEndpoint } from '@lms/contract/api';
import { AUDIT_ACTIONS, type AuditAction } from '@lms/contract/audit';
import { currentUser } from '../auth/guards.ts';
import { recordAudit, type AuditRecord, type AuditTargetType } from './audit.ts';

type Target = NonNullable<AuditRecord['target']>;

/**
 * The administrator's writes whose services record their own entry, inside the transaction of
 * the change and with the reason given: every write on a learner, suspension (which records
 * `protection.suspend` or `protection.restore`) and ending an account's sessions. Every other
 * administrator's write is recorded by the route, after it succeeded, under its own name.
 */
export const AUDITED_BY_SERVICE: ReadonlySet<string> = new Set([
  'learners.grantAccess',
  'learners.revokeAccess',
  'learners.changeEmail',
  'learners.refund',
  'learners.resendDocument',
  'protection.suspend',
  'protection.endSessions',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ids a path or query may name, the most particular first: a quiz's path names its course too. */
const ID_PARAMETERS: [string, AuditTargetType][] = [
  ['quizId', 'quiz'],
  ['captionId', 'caption'],
  ['resourceId', 'resource'],
  ['sectionId', 'section'],
  ['lectureId', 'lecture'],
  ['id', 'course'],
  ['courseId', 'course'],
];

/** What a bare `id` names, by the endpoint's group. */
const ID_OF_GROUP: Record<string, AuditTargetType> = { courses: 'course', plans: 'plan', coupons: 'coupon' };

/** The entities answers carry, under these names: what was created or changed, with its name now. */
const ANSWER_ENTITIES: Record<string, AuditTargetType> = {
  quiz: 'quiz',
  caption: 'caption',
  resource: 'resource',
  section: 'section',
  lecture: 'lecture',
  course: 'course',
  plan: 'plan',
  coupon: 'coupon',
  certificate: 'certificate',
  settings: 'settings',
  page: 'page',
};

type Entity = Record<string, unknown>;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function labelOf(type: AuditTargetType, entity: Entity): string | undefined {
  if (type === 'settings') return 'Site settings';
  if (type === 'certificate') {
    const name = text(entity.name);
    const course = text(entity.courseTitle);
    return name && course ? `${name}, ${course}` : (name ?? text(entity.code));
  }
  return text(entity.title) ?? text(entity.name) ?? text(entity.code) ?? text(entity.label) ?? text(entity.page);
}

function idOf(entity: Entity): string | null {
  const id = text(entity._id) ?? text(entity.id);
  return id && UUID.test(id) ? id : null;
}

/**
 * What an administrator's write was done to. A thing the answer carries that the path does not
 * name was made by the write (a quiz, a section, a file): that thing. Otherwise the most
 * particular id the path or query names, called as the answer calls it when the answer carries
 * that thing (a course's title, a plan's name), else by its id (a thing deleted).
 */
export function targetOf(endpoint: ApiEndpoint, request: FastifyRequest, answer: unknown): Target | null {
  const named = { ...(request.query as Entity | undefined), ...(request.params as Entity | undefined) };
  const group = endpoint.name.split('.')[0]!;
  const ids = ID_PARAMETERS.flatMap(([parameter, type]) => {
    const id = text(named[parameter]);
    return id && UUID.test(id) ? [{ type: parameter === 'id' ? (ID_OF_GROUP[group] ?? type) : type, id }] : [];
  });
  const entry = Object.entries(answer && typeof answer === 'object' ? (answer as Entity) : {}).find(
    ([key, value]) => key in ANSWER_ENTITIES && value !== null && typeof value === 'object',
  );
  const entity = entry && { type: ANSWER_ENTITIES[entry[0]]!, value: entry[1] as Entity };
  if (entity && !ids.some((id) => id.type === entity.type)) {
    return { type: entity.type, id: idOf(entity.value), label: labelOf(entity.type, entity.value) ?? entity.type };
  }
  const [first] = ids;
  if (!first) return null;
  const label = entity?.type === first.type ? labelOf(first.type, entity.value) : undefined;
  return { ...first, label: label ?? first.id };
}

/** Whether the route records this endpoint's successful answers: an administrator's write its service does not record. */
export function isAuditedByRoute(endpoint: ApiEndpoint): boolean {
  return endpoint.access === 'admin' && endpoint.method !== 'GET' && !AUDITED_BY_SERVICE.has(endpoint.name);
}

/**
 * Appends the entry of an administrator's write that succeeded, named as the endpoint is
 * (`courses.update`), with what it was done to. It runs after the handler's transaction has
 * committed, not inside it: the change stands even if this fails, so a failure is logged as an
 * error rather than turning a change made into a 500. The writes that must be recorded with the
 * change itself (a learner's access, money, suspension) are recorded by their services instead.
 */
export async function recordAdminAction(request: FastifyRequest, endpoint: ApiEndpoint, answer: unknown): Promise<void> {
  if (!isAuditedByRoute(endpoint)) return;
  try {
    if (!(endpoint.name in AUDIT_ACTIONS)) throw new Error(`${endpoint.name} has no entry in AUDIT_ACTIONS`);
    const action = endpoint.name as AuditAction;
    const target = targetOf(endpoint, request, answer);
    const label = AUDIT_ACTIONS[action].label;
    await recordAudit(request.server.ctx.db, {
      actor: currentUser(request),
      action,
      target: target ?? undefined,
      reason: null,
      summary: target && target.type !== 'settings' ? `${label}: ${target.label}` : label,
    });
  } catch (error) {
    request.log.error({ err: error, action: endpoint.name }, 'the audit entry of an administrator’s action could not be written');
  }
}
