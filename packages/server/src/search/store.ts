import { type RawBuilder, sql } from "kysely";
import { callerGrant, grantAware, listsContent } from "../access.js";
import { toJson } from "../db/codecs.js";
import type { Db } from "../db/database.js";
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, type PageQuery } from "../http/paging.js";
import { bestSections, isSqlite } from "./engine.js";
import type { SearchSectionTable } from "./tables.js";

/** Most pages shown per space, and sections per page. */
export const PAGES_PER_SPACE = 20;
export const SECTIONS_PER_PAGE = 5;

/**
 * Most matching sections a query ranks: results come from the best ones the caller may read. A word
 * found in most sections (as "the" would be) otherwise costs the grouping and ranking of each.
 */
export const MAX_SECTIONS = 1_000;

/** A space of a page of results, its best section's score, and its matching sections. */
export interface SpaceHit {
  id: string;
  title: string;
  score: number;
  /** Those of its best `PAGES_PER_SPACE` pages, pages by their best section, sections best first. */
  sections: SectionHit[];
}

/** A matching section, its score, and its page's one-based rank among the pages of every page of results. */
export type SectionHit = SearchSectionTable & { score: number; rank: number };

/** A row of `searchStatement`: a shown section, or a shown space without one, or only the count. */
interface SearchRow extends Partial<SearchSectionTable> {
  total: number | string;
  shown_id: string | null;
  shown_title: string | null;
  best: number | string | null;
  score: number | string | null;
  rank: number | string | null;
}

/** The columns of `search_sections` (as `s`) that a result row shows. */
const sectionColumns = sql.raw(
  "s.space_id, s.page_id, s.position, s.page_title, s.page_path, s.page_description, s.page_ancestors, s.anchor, s.heading, s.body",
);

/**
 * One statement for a page of results, so that matching and ranking (most of a query's time) run
 * once: the best `MAX_SECTIONS` matching sections of the `readable` spaces (SQL selecting their
 * `id` and `title`); their spaces by best section, paged by `(best, id)` descending; the count of
 * such spaces; and the sections of the best pages of the spaces shown, with the rank of each page
 * among the best pages of every space (those any page of results shows), by best section, ties
 * broken as the spaces and their pages are ordered.
 */
function searchStatement(
  db: Db,
  readable: RawBuilder<unknown>,
  match: string,
  limit: number,
  cursor: readonly (string | number)[] | undefined,
) {
  const sqlite = isSqlite(db);
  const [best, id] = cursor ?? [];
  const afterCursor = cursor
    ? sql`where r.best < ${best} or (r.best = ${best} and r.space_id < ${id})`
    : sql``;
  return sql<SearchRow>`with readable as (${readable}),
    best as (${bestSections(sqlite, match, sql`select id from readable`, MAX_SECTIONS)}),
    hits as (
      select b.*, max(b.score) over (partition by b.space_id, b.page_id) as page_best from best b),
    ranked_hits as materialized (
      select h.*,
        dense_rank() over (partition by h.space_id order by h.page_best desc, h.page_id) as page_rank,
        max(h.score) over (partition by h.space_id) as space_best
      from hits h),
    kept_hits as (
      select h.*, dense_rank() over (order by h.page_best desc, h.space_id desc, h.page_rank) as rank
      from ranked_hits h where h.page_rank <= ${sql.lit(PAGES_PER_SPACE)}),
    ranked as (select distinct space_id, space_best as best from ranked_hits),
    shown as (
      select r.space_id, r.best from ranked r ${afterCursor}
      order by r.best desc, r.space_id desc limit ${limit})
    select t.total, shown.space_id as shown_id, readable.title as shown_title, shown.best,
      ${sectionColumns}, h.score, h.rank
    from (select count(*) as total from ranked) t
    left join shown on true
    left join readable on readable.id = shown.space_id
    left join kept_hits h on h.space_id = shown.space_id
    left join search_sections s
      on s.space_id = h.space_id and s.page_id = h.page_id and s.position = h.position
    order by shown.best desc, shown.space_id desc, h.page_rank, h.score desc, h.position`.execute(db);
}

/**
 * The spaces a search reads: those of an organization, not deleted, that the caller lists (members
 * who are not guests read them all, guests those granted to them), or the given spaces (a site's).
 */
export type SearchedSpaces = { organizationId: string; userId: string } | { spaceIds: readonly string[] };

const readableSpaces = grantAware(
  (withGrants) => (_db: Db, args: { organizationId: string; userId: string }) => {
    const grant = callerGrant(withGrants, args.userId, sql.ref("sp.id"), sql.ref("sp.parent_id"));
    return sql`select sp.id, sp.title from spaces sp
      where sp.organization_id = ${args.organizationId}
        and sp.deleted_at is null
        and ${listsContent(args.userId, args.organizationId, grant)}`;
  },
);

function readableSql(db: Db, spaces: SearchedSpaces): RawBuilder<unknown> {
  if ("organizationId" in spaces) return readableSpaces(db, spaces);
  // No space: a statement that reads none (`in ()` is not SQL).
  const ids = spaces.spaceIds.length > 0 ? sql.join(spaces.spaceIds.map((id) => sql`${id}`)) : sql`null`;
  return sql`select sp.id, sp.title from spaces sp where sp.id in (${ids}) and sp.deleted_at is null`;
}

/** Where a page of results starts: after the space of a previous page's `next.page` (a 400 if forged). */
export type SearchCursor = readonly [number, string] | undefined;

export function searchCursor(query: PageQuery): SearchCursor {
  return query.page === undefined
    ? undefined
    : (decodeCursor(query.page, ["number", "string"]) as [number, string]);
}

/**
 * The sections of a `searchSpaces` or `searchPages` result row, when it has one (a row of a space or
 * page without a matching section, or of the count alone, has none).
 */
function sectionOf(row: SearchRow): SectionHit | undefined {
  const { space_id, page_id, position, page_title, page_path, page_description, page_ancestors } = row;
  if (!space_id || !page_id || position === undefined || page_title === undefined) return undefined;
  return {
    space_id,
    page_id,
    position,
    page_title,
    page_path: page_path ?? "",
    page_description: page_description ?? "",
    page_ancestors: page_ancestors ?? toJson([]),
    anchor: row.anchor ?? "",
    heading: row.heading ?? "",
    body: row.body ?? "",
    score: Number(row.score),
    rank: Number(row.rank),
  };
}

/** A page of the `spaces` matching `match` (an `engineQuery`), best first. */
export async function searchSpaces(
  db: Db,
  args: { spaces: SearchedSpaces; match: string },
  query: { limit?: number; cursor: SearchCursor },
): Promise<{ count: number; spaces: SpaceHit[]; next?: { page: string } }> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const { rows } = await searchStatement(
    db,
    readableSql(db, args.spaces),
    args.match,
    limit + 1,
    query.cursor,
  );
  const spaces: SpaceHit[] = [];
  for (const row of rows) {
    if (row.shown_id === null) continue;
    let space = spaces.at(-1);
    if (space?.id !== row.shown_id) {
      space = { id: row.shown_id, title: row.shown_title ?? "", score: Number(row.best), sections: [] };
      spaces.push(space);
    }
    const section = sectionOf(row);
    if (section) space.sections.push(section);
  }
  const shown = spaces.slice(0, limit);
  const last = shown.at(-1);
  return {
    count: Number(rows[0]?.total ?? 0),
    spaces: shown,
    ...(spaces.length > limit && last && { next: { page: encodeCursor([last.score, last.id]) } }),
  };
}

/**
 * One statement for a page of results inside one space, as `searchStatement` for an organization:
 * the best `MAX_SECTIONS` matching sections; their pages by best section, paged by `(best, page_id)`
 * descending and ranked in that order; the count of such pages; and the best sections of the pages shown.
 */
function spaceSearchStatement(
  db: Db,
  spaceId: string,
  match: string,
  limit: number,
  cursor: readonly (string | number)[] | undefined,
) {
  const [best, id] = cursor ?? [];
  const afterCursor = cursor
    ? sql`where p.best < ${best} or (p.best = ${best} and p.page_id < ${id})`
    : sql``;
  return sql<SearchRow>`with best as (${bestSections(isSqlite(db), match, sql`select cast(${spaceId} as text)`, MAX_SECTIONS)}),
    pages as (
      select page_id, max(score) as best, row_number() over (order by max(score) desc, page_id desc) as rank
      from best group by page_id),
    shown as (
      select p.page_id, p.best, p.rank from pages p ${afterCursor}
      order by p.best desc, p.page_id desc limit ${limit}),
    ranked as (
      select b.*, row_number() over (partition by b.page_id order by b.score desc, b.position) as n
      from best b join shown on shown.page_id = b.page_id)
    select t.total, shown.page_id as shown_id, shown.best, ${sectionColumns}, r.score, shown.rank
    from (select count(*) as total from pages) t
    left join shown on true
    left join ranked r on r.page_id = shown.page_id and r.n <= ${sql.lit(SECTIONS_PER_PAGE + 1)}
    left join search_sections s
      on s.space_id = r.space_id and s.page_id = r.page_id and s.position = r.position
    order by shown.best desc, shown.page_id desc, r.score desc, r.position`.execute(db);
}

/**
 * A page of the pages of one space matching `match` (an `engineQuery`), best first: the best
 * sections of each (one more than are shown, as one may be left out), page by page.
 */
export async function searchPages(
  db: Db,
  args: { spaceId: string; match: string },
  query: { limit?: number; cursor: SearchCursor },
): Promise<{ count: number; sections: SectionHit[]; next?: { page: string } }> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const { rows } = await spaceSearchStatement(db, args.spaceId, args.match, limit + 1, query.cursor);
  const pages: { id: string; best: number }[] = [];
  const sections: SectionHit[] = [];
  let more = false;
  for (const row of rows) {
    if (row.shown_id === null) continue;
    if (pages.at(-1)?.id !== row.shown_id) {
      // The page past the last shown, asked for to know whether there is a next page of results.
      more = pages.length === limit;
      if (more) break;
      pages.push({ id: row.shown_id, best: Number(row.best) });
    }
    const section = sectionOf(row);
    if (section) sections.push(section);
  }
  const last = pages.at(-1);
  return {
    count: Number(rows[0]?.total ?? 0),
    sections,
    ...(more && last && { next: { page: encodeCursor([last.best, last.id]) } }),
  };
}
