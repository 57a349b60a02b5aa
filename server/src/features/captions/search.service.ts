import { sql, type SQL } from 'drizzle-orm';
import type { CaptionMatch, MatchPart } from '@lms/contract/captions';
import type { Context } from '../../context.ts';
import type { UserRow } from '../auth/sessions.ts';
import { canWatchLectures } from '../users/users.service.ts';
import { SEARCH_CONFIG_NAMES } from './search-config.ts';

/**
 * What ts_headline puts around a matched word: control characters that a cue's text never keeps
 * (they are taken out of the text handed to ts_headline, below), so that splitting on them cannot
 * be fooled by what a caption file says.
 */
const START_HIT = '\u0002';
const STOP_HIT = '\u0003';
const HEADLINE_OPTIONS = `StartSel=${START_HIT}, StopSel=${STOP_HIT}, HighlightAll=true`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** Configurations whose reading of the search is the same tsquery: one index condition each, not one per configuration. */
interface QueryGroup {
  query: string;
  configs: string[];
}

/**
 * The search read in every configuration (no table is touched), grouped by the tsquery it makes.
 * A configuration that reads it as nothing (only its stop words, or no words at all) is left out.
 */
async function readSearch(ctx: Context, q: string): Promise<QueryGroup[]> {
  const configs = SEARCH_CONFIG_NAMES.filter((config) => /^[a-z]+$/.test(config));
  const values = sql.join(
    configs.map((config) => sql`(${config}::regconfig)`),
    sql`, `,
  );
  const rows = rowsOf<{ config: string; query: string; nodes: number }>(
    await ctx.db.execute(sql`
      select config::text as config, query::text as query, numnode(query) as nodes
      from (select config, websearch_to_tsquery(config, ${q}) as query from (values ${values}) as configs(config)) as read`),
  );
  const groups = new Map<string, string[]>();
  for (const row of rows) {
    if (Number(row.nodes) === 0) continue;
    groups.set(row.query, [...(groups.get(row.query) ?? []), row.config]);
  }
  return [...groups].map(([query, configs]) => ({ query, configs }));
}

/** A cue's words match one reading of the search, in a configuration that reading is for: each a condition the GIN index answers. */
function matchesAny(groups: QueryGroup[]): SQL {
  return sql.join(
    groups.map(
      ({ query, configs }) =>
        sql`(c.words @@ ${query}::tsquery and c.search_config in (${sql.join(
          configs.map((config) => sql`${config}::regconfig`),
          sql`, `,
        )}))`,
    ),
    sql` or `,
  );
}

/** The reading of the search for the cue's own configuration. */
function queryOfCue(groups: QueryGroup[]): SQL {
  const cases = groups.map(
    ({ query, configs }) =>
      sql`when c.search_config in (${sql.join(
        configs.map((config) => sql`${config}::regconfig`),
        sql`, `,
      )}) then ${query}::tsquery`,
  );
  return sql`case ${sql.join(cases, sql` `)} end`;
}

/** ts_headline's text, its marks turned into parts: plain text, the words searched for marked. */
function partsOf(headline: string): MatchPart[] {
  const parts: MatchPart[] = [];
  // The text between marks, then a marked word, and so on: the marks never nest, and the text has none of its own.
  for (const [index, text] of headline.replaceAll(STOP_HIT, START_HIT).split(START_HIT).entries()) {
    if (text !== '') parts.push({ text, hit: index % 2 === 1 });
  }
  return parts;
}

/**
 * Searches what is said in the lectures of published courses: the best cue of each matching
 * lecture (by rank, then the earliest), the best lectures first, `limit` at most. Whether the
 * viewer may watch each is the lectures' rule: administrators and active subscribers watch every
 * lecture, anyone a free preview. A search that reads as nothing in every configuration (only
 * stop words) finds nothing without reading a cue.
 */
export async function searchCaptions(ctx: Context, { q, limit, viewer }: { q: string; limit: number; viewer: UserRow | null }): Promise<CaptionMatch[]> {
  const groups = await readSearch(ctx, q);
  if (groups.length === 0) return [];
  const query = queryOfCue(groups);
  const rows = rowsOf<{
    course_id: string;
    course_title: string;
    lecture_id: string;
    lecture_title: string;
    is_preview: boolean;
    language: string;
    label: string;
    start_ms: number;
    headline: string;
  }>(
    await ctx.db.execute(sql`
      with hits as materialized (
        -- The matching cues first, through the GIN index: left to itself, the planner may walk every
        -- lecture's cues in order instead and test each, which reads them all for a rare word. Only
        -- what ranks them is kept: a common word matches thousands, all sorted below.
        select c.caption_id, c.position, c.start_ms, ts_rank(c.words, ${query}) as rank
        from caption_cues c
        where ${matchesAny(groups)}
      ), best as materialized (
        -- Each lecture's best cue, sorted on the fewest columns: the titles join the few kept.
        select distinct on (lc.lecture_id) lc.lecture_id, h.caption_id, h.position, h.start_ms, h.rank
        from hits h
        join lecture_captions lc on lc.id = h.caption_id
        order by lc.lecture_id, h.rank desc, h.start_ms
      ), shown as (
        select co.id as course_id, co.title as course_title, l.id as lecture_id, l.title as lecture_title, l.is_preview,
               lc.language, lc.label, b.caption_id, b.position, b.start_ms, b.rank
        from best b
        join lecture_captions lc on lc.id = b.caption_id
        join lectures l on l.id = b.lecture_id
        join courses co on co.id = l.course_id
        where co.status = 'published'
        order by b.rank desc, co.title, l.title
        limit ${limit}
      )
      -- The marks, for the few cues answered only.
      select s.*, ts_headline(c.search_config, translate(c.text, ${START_HIT + STOP_HIT}, ''), ${query}, ${HEADLINE_OPTIONS}) as headline
      from shown s
      join caption_cues c on c.caption_id = s.caption_id and c.position = s.position
      order by s.rank desc, s.course_title, s.lecture_title`),
  );
  const watchesAll = viewer !== null && canWatchLectures(viewer);
  return rows.map((row) => ({
    course: { _id: row.course_id, title: row.course_title },
    lecture: { _id: row.lecture_id, title: row.lecture_title },
    language: row.language,
    label: row.label,
    start: Math.floor(Number(row.start_ms) / 1000),
    parts: partsOf(row.headline),
    canWatch: watchesAll || row.is_preview,
  }));
}
