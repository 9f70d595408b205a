import { type Kysely, SqliteAdapter, sql } from "kysely";

/** Which full-text engine the database has: SQLite's FTS5 or PostgreSQL's text search. */
// biome-ignore lint/suspicious/noExplicitAny: the database of the app or of a migration
export function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Most words of a query that are searched; the rest are ignored. */
const MAX_TERMS = 32;

/**
 * The words of a query: runs of letters and digits, lower-cased. Both engines split text the same
 * way, so a user's quotes, operators (`AND`, `-`, `:*`) and punctuation never reach the engine's
 * query language: only words do.
 */
export function termsOf(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
}

/**
 * Shortest last word searched as a prefix. Shorter ones match most of an index (every word that
 * starts with "a"), whose ranking alone outlasts a query's budget, and tell the reader little.
 */
export const MIN_PREFIX = 3;

/**
 * The engine's query for `terms` (not empty): every term must occur, the last one as a prefix (from
 * `MIN_PREFIX` characters) so that a query typed so far already finds its word.
 */
export function engineQuery(sqlite: boolean, terms: readonly string[]): string {
  const prefix = (i: number) => i === terms.length - 1 && (terms[i] as string).length >= MIN_PREFIX;
  return sqlite
    ? terms.map((term, i) => `"${term}"${prefix(i) ? "*" : ""}`).join(" ")
    : terms.map((term, i) => `${term}${prefix(i) ? ":*" : ""}`).join(" & ");
}

/**
 * Scores are integers so that they can be keyset cursors; higher is better on both engines. bm25
 * gives a term found in most rows an IDF of only 1e-6, so SQLite's scale keeps such scores apart
 * (and is capped to stay a safe integer); `ts_rank` has no IDF and stays within an `integer`.
 */
const SQLITE_SCALE = 1e11;
const SQLITE_MAX = 50_000;
const POSTGRES_SCALE = 100_000;

/**
 * SQL: the keys (`space_id`, `page_id`, `position`) of the sections matching `match` (an
 * `engineQuery`), with `score`, higher for a better match. On SQLite bm25 is lower-is-better
 * (negated here), read through the `rank` column, since the function itself cannot be called once
 * SQLite flattens the subquery into an aggregate; the weights are those of page title, heading and
 * text.
 */
export function matchingSections(sqlite: boolean, match: unknown) {
  return sqlite
    ? sql`(select s.space_id, s.page_id, s.position, cast(min(-search_sections_fts.rank, ${sql.lit(SQLITE_MAX)}) * ${sql.lit(SQLITE_SCALE)} as integer) as score
        from search_sections_fts
        inner join search_sections s on s.rowid = search_sections_fts.rowid
        where search_sections_fts match ${match} and search_sections_fts.rank match 'bm25(10.0, 4.0, 1.0)')`
    : sql`(select s.space_id, s.page_id, s.position, cast(ts_rank('{0.1, 0.2, 0.4, 1.0}', s.document, q.query) * ${sql.lit(POSTGRES_SCALE)} as integer) as score
        from search_sections s, to_tsquery('simple', ${match}) as q(query)
        where s.document @@ q.query)`;
}
