import { sql, type SQL } from 'drizzle-orm';
import { answers } from '@lms/contract/answers';
import { learnerStateOf, type LearnerRow, type LearnerSort, type LearnerState } from '@lms/contract/learners';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { DEFAULT_AVATAR_URL } from '@lms/contract/media';

/**
 * The administrator's learners: accounts with the USER role (administrators are not learners), found
 * by any part of a name or email, narrowed to a state, newest sign-ups or most recently active
 * first, a page at a time after an opaque cursor. At a million accounts every page is an index
 * read: the order is one of two indexes read backwards (users_signed_up, users_last_active), the
 * search is the trigram indexes of migration 0020, and the cursor is a keyset, never an offset.
 */

export const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The list's search and state, as the list and the CSV share them. */
export interface LearnerFilter {
  q?: string | undefined;
  state?: LearnerState | undefined;
}

/** Trigrams need three characters: shorter words match the start of a name or an email instead. */
const TRIGRAM_MIN = 3;

/** A LIKE pattern that finds `term` as written: its own % _ and \ are matched literally. */
const likeLiteral = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Search and state as SQL conditions on `u` (users), with `now` the moment the states are read at. */
export function filterSql({ q, state }: LearnerFilter, now: Date): SQL {
  const conditions: SQL[] = [sql`u.role = 'USER'`];
  const term = q?.trim().toLowerCase();
  if (term) {
    // Emails are stored lower-cased; names are matched through the lower(full_name) trigram index.
    const pattern = term.length >= TRIGRAM_MIN ? `%${likeLiteral(term)}%` : `${likeLiteral(term)}%`;
    // An email has no spaces: words with one are looked for in names only, which spares reading
    // the email index (trigrams ignore the space, so it would find every "priya.verma" for "riya ver").
    conditions.push(/\s/.test(term) ? sql`lower(u.full_name) like ${pattern}` : sql`(lower(u.full_name) like ${pattern} or u.email like ${pattern})`);
  }
  if (state) conditions.push(stateSql(state, now));
  return sql.join(conditions, sql` and `);
}

/**
 * learnerStateOf (the contract's one rule) as a condition on `u`: each state is its own branch
 * of the rule, the earlier branches negated. A test builds an account in every state and holds
 * the two together.
 */
export function stateSql(state: LearnerState, now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  const paid = sql`u.subscription_ends_at > ${at}`;
  const unpaid = sql`(u.subscription_ends_at is null or u.subscription_ends_at <= ${at})`;
  const noComplimentary = sql`(u.complimentary_until is null or u.complimentary_until <= ${at})`;
  switch (state) {
    case 'cancelled':
      return sql`(${paid} and u.subscription_cancelled_at is not null)`;
    case 'trial':
      return sql`(${paid} and u.subscription_cancelled_at is null and u.trial_ends_at > ${at})`;
    case 'subscribed':
      return sql`(${paid} and u.subscription_cancelled_at is null and (u.trial_ends_at is null or u.trial_ends_at <= ${at}))`;
    case 'complimentary':
      return sql`(${unpaid} and u.complimentary_until > ${at})`;
    case 'lapsed':
      return sql`(${unpaid} and ${noComplimentary} and u.first_paid_at is not null)`;
    case 'never_paid':
      return sql`(${unpaid} and ${noComplimentary} and u.first_paid_at is null)`;
  }
}

/** The cursor: the last row's sort key (to the microsecond, as stored; null for never active) and id. */
interface Cursor {
  k: string | null;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

export function decodeCursor(text: string, sort: LearnerSort): Cursor {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new AppError(400, answers.learnerCursorInvalid);
  }
  const { k, id } = (cursor ?? {}) as Partial<Cursor>;
  const keyValid = (typeof k === 'string' && KEY.test(k)) || (k === null && sort === 'last_active');
  if (!keyValid || typeof id !== 'string' || !UUID.test(id)) throw new AppError(400, answers.learnerCursorInvalid);
  return { k, id };
}

/** A timestamp to the microsecond, in UTC: what a cursor keeps (a JavaScript date would lose the microseconds). */
const exact = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A learner's row as the list and the CSV read it. */
export interface ListedRow {
  id: string;
  full_name: string;
  email: string;
  avatar_key: string | null;
  role: 'USER' | 'ADMIN';
  subscription_ends_at: Date | string | null;
  subscription_cancelled_at: Date | string | null;
  trial_ends_at: Date | string | null;
  complimentary_until: Date | string | null;
  first_paid_at: Date | string | null;
  suspended_at: Date | string | null;
  created_at: Date | string;
  last_active_at: Date | string | null;
  sort_key: string | null;
  plan: string | null;
  paid_paise: string | number;
}

/**
 * The columns of a listed learner. The plan is that of their latest subscription taken up (an
 * abandoned checkout, `created`, is not one); the lifetime paid sums their payments less refunds.
 * Both are per-row index lookups (subscriptions by user and date, payments by user), made for
 * the page's rows only.
 */
export const listedColumns = (sortKey: SQL) => sql`
  u.id, u.full_name, u.email, u.avatar_key, u.role, u.subscription_ends_at, u.subscription_cancelled_at, u.trial_ends_at,
  u.complimentary_until, u.first_paid_at, u.suspended_at, u.created_at, u.last_active_at, ${exact(sortKey)} as sort_key,
  (select p.name from subscriptions as s left join plans as p on p.id = s.plan_id
    where s.user_id = u.id and s.status <> 'created' order by s.created_at desc limit 1) as plan,
  (select coalesce(sum(pay.amount_paise - pay.refunded_paise), 0) from payments as pay where pay.user_id = u.id) as paid_paise`;

const dateOf = (value: Date | string | null) => (value === null ? null : new Date(value));

export function stateOfRow(row: ListedRow, now: Date): LearnerState {
  return learnerStateOf(
    {
      subscriptionEndsAt: dateOf(row.subscription_ends_at),
      subscriptionCancelledAt: dateOf(row.subscription_cancelled_at),
      trialEndsAt: dateOf(row.trial_ends_at),
      complimentaryUntil: dateOf(row.complimentary_until),
      firstPaidAt: dateOf(row.first_paid_at),
    },
    now,
  );
}

export const avatarUrlOf = (ctx: Context, avatarKey: string | null) => (avatarKey ? ctx.media.publicUrl(avatarKey) : DEFAULT_AVATAR_URL);

function learnerJson(ctx: Context, row: ListedRow, now: Date): LearnerRow {
  return {
    _id: row.id,
    fullName: row.full_name,
    email: row.email,
    avatarUrl: avatarUrlOf(ctx, row.avatar_key),
    role: row.role,
    state: stateOfRow(row, now),
    plan: row.plan,
    suspended: row.suspended_at !== null,
    signedUpAt: new Date(row.created_at).toISOString(),
    lastActiveAt: row.last_active_at === null ? null : new Date(row.last_active_at).toISOString(),
    lifetimePaid: Number(row.paid_paise) / 100,
  };
}

export interface ListQuery extends LearnerFilter {
  sort: LearnerSort;
  cursor?: string | undefined;
  limit: number;
}

export async function listLearners(ctx: Context, query: ListQuery): Promise<{ learners: LearnerRow[]; nextCursor: string | null }> {
  const now = new Date();
  const after = query.cursor ? decodeCursor(query.cursor, query.sort) : null;
  const where = filterSql(query, now);
  const want = query.limit + 1;
  const select = (sortKey: SQL, condition: SQL, order: SQL, limit: number) =>
    ctx.db
      .execute(sql`select ${listedColumns(sortKey)} from users as u where ${where} and ${condition} order by ${order} limit ${limit}`)
      .then((result) => rowsOf<ListedRow>(result));

  let rows: ListedRow[];
  if (query.sort === 'signed_up') {
    const condition = after ? sql`(u.created_at, u.id) < (${after.k}::timestamptz, ${after.id}::uuid)` : sql`true`;
    rows = await select(sql`u.created_at`, condition, sql`u.created_at desc, u.id desc`, want);
  } else {
    // Most recently active first, the never active last. Two keyset reads of users_last_active,
    // each a range of the index: the active ones after the cursor, then (if the page is not full)
    // the never active, so that the null keys never turn the range into a filter.
    const order = sql`u.last_active_at desc nulls last, u.id desc`;
    const key = sql`u.last_active_at`;
    rows = [];
    if (!after || after.k !== null) {
      const condition = after ? sql`(u.last_active_at, u.id) < (${after.k}::timestamptz, ${after.id}::uuid)` : sql`u.last_active_at is not null`;
      rows = await select(key, condition, order, want);
    }
    if (rows.length < want) {
      const condition = after?.k === null ? sql`u.last_active_at is null and u.id < ${after.id}::uuid` : sql`u.last_active_at is null`;
      rows = rows.concat(await select(key, condition, order, want - rows.length));
    }
  }
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    learners: page.map((row) => learnerJson(ctx, row, now)),
    nextCursor: rows.length > query.limit && last ? encodeCursor({ k: last.sort_key, id: last.id }) : null,
  };
}
