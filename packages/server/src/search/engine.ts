import { type Kysely, type RawBuilder, SqliteAdapter, sql } from "kysely";

/** Which full-text engine the database has: SQLite's FTS5 or PostgreSQL's text search. */
// biome-ignore lint/suspicious/noExplicitAny: the database of the app or of a migration
export function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** Most words of a query that are searched; the rest are ignored. */
const MAX_TERMS = 32;

/** The words of a text: runs of letters and digits, lower-cased, as both engines split text. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The words of a query (`MAX_TERMS` at most), so that a user's quotes, operators (`AND`, `-`, `:*`)
 * and punctuation never reach the engine's query language: only words do.
 */
export function termsOf(query: string): string[] {
  return wordsOf(query).slice(0, MAX_TERMS);
}

/**
 * Shortest last word searched as a prefix. Shorter ones match most of an index (every word that
 * starts with "a"), whose ranking alone outlasts a query's budget, and tell the reader little.
 */
export const MIN_PREFIX = 3;

/** Whether the engine's query matches the `i`th of `terms` as a prefix: the last one, if long enough. */
const asPrefix = (terms: readonly string[], i: number) =>
  i === terms.length - 1 && (terms[i] as string).length >= MIN_PREFIX;

/**
 * The engine's query for `terms` (not empty): every term must occur, the last one as a prefix (from
 * `MIN_PREFIX` characters) so that a query typed so far already finds its word.
 */
export function engineQuery(sqlite: boolean, terms: readonly string[]): string {
  return sqlite
    ? terms.map((term, i) => `"${term}"${asPrefix(terms, i) ? "*" : ""}`).join(" ")
    : terms.map((term, i) => `${term}${asPrefix(terms, i) ? ":*" : ""}`).join(" & ");
}

/**
 * Whether `text` holds every one of `terms` (not empty) as `engineQuery` matches them: each a word of
 * it, the last one the start of a word (from `MIN_PREFIX` characters). SQLite's tokenizer drops
 * diacritics (`remove_diacritics 2`), so there they are dropped on both sides; PostgreSQL keeps them.
 */
export function holdsTerms(sqlite: boolean, text: string, terms: readonly string[]): boolean {
  const fold = (word: string) => (sqlite ? word.normalize("NFD").replace(/\p{M}/gu, "") : word);
  const words = wordsOf(text).map(fold);
  return terms.every((term, i) =>
    asPrefix(terms, i) ? words.some((word) => word.startsWith(fold(term))) : words.includes(fold(term)),
  );
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
 * SQL: the keys (`space_id`, `page_id`, `position`) of the best `limit` sections matching `match`
 * (an `engineQuery`) in the spaces that `readable` selects (their `id`), with `score`, higher for a
 * better match. The weights are those of page title, heading and text.
 *
 * On SQLite bm25 is lower-is-better (negated in `score`), read through the `rank` column. FTS5 sorts
 * its matches by rank itself, and the `cross join` keeps it the outer loop, so that only the
 * sections taken are looked up in `search_sections` rather than every match (a common word's are
 * most of the index). Sections whose integer scores tie fall in either order, as before.
 *
 * On PostgreSQL the readable spaces are an array, so that the full-text index is scanned once, not
 * once per space as `in (select …)` planned it.
 */
export function bestSections(sqlite: boolean, match: unknown, readable: RawBuilder<unknown>, limit: number) {
  return sqlite
    ? sql`select s.space_id, s.page_id, s.position, cast(min(-f.rank, ${sql.lit(SQLITE_MAX)}) * ${sql.lit(SQLITE_SCALE)} as integer) as score
        from search_sections_fts f
        cross join search_sections s on s.rowid = f.rowid
        where f.search_sections_fts match ${match} and f.rank match 'bm25(10.0, 4.0, 1.0)'
          and s.space_id in (${readable})
        order by f.rank limit ${sql.lit(limit)}`
    : sql`select s.space_id, s.page_id, s.position, cast(ts_rank('{0.1, 0.2, 0.4, 1.0}', s.document, q.query) * ${sql.lit(POSTGRES_SCALE)} as integer) as score
        from search_sections s, to_tsquery('simple', ${match}) as q(query)
        where s.document @@ q.query and s.space_id = any(array(${readable}))
        order by score desc limit ${sql.lit(limit)}`;
}
