import { type Kysely, sql } from "kysely";
import { isSqlite } from "../engine.js";

/**
 * PostgreSQL: the weighted document of a `search_sections` row, stored in its generated column
 * `document` (GIN-indexed), so that ranking reads it instead of parsing every matching text again.
 * The page title (section 0 only) weighs most, then the heading, then the text. `simple`: no
 * language's stemming or stop words, as pages may be in any language (FTS5's unicode61 tokenizer does
 * the same on SQLite).
 */
const POSTGRES_DOCUMENT = sql`setweight(to_tsvector('simple'::regconfig, case when position = 0 then page_title else '' end), 'A')
  || setweight(to_tsvector('simple'::regconfig, heading), 'B')
  || setweight(to_tsvector('simple'::regconfig, body), 'D')`;

/**
 * The search index: sections of the pages of each space's main content, and the full-text index of
 * the database over them. Spaces that have content already are not indexed here but on the first
 * search that reaches them (see `indexStaleSpaces`): a migration that parses every page of every
 * space would hold up start-up for as long as that takes, and the search must handle a space whose
 * index is behind anyway.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("search_sections")
    .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade"))
    .addColumn("page_id", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("page_title", "text", (c) => c.notNull())
    .addColumn("page_path", "text", (c) => c.notNull())
    .addColumn("anchor", "text", (c) => c.notNull())
    .addColumn("heading", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("search_sections_pk", ["space_id", "page_id", "position"])
    .execute();
  await db.schema
    .createTable("search_spaces")
    .addColumn("space_id", "text", (c) =>
      c.primaryKey().notNull().references("spaces.id").onDelete("cascade"),
    )
    .addColumn("revision_id", "text", (c) => c.notNull())
    .execute();

  if (isSqlite(db)) {
    // An external-content FTS5 table: the text lives once, in search_sections; triggers keep the
    // index in step (rows are only inserted and deleted, never updated). Prefixes of 3 characters
    // (engine.ts `MIN_PREFIX`) are indexed, as those queries would scan every word's entry otherwise. The page title is indexed
    // on section 0 only, so that it matches once per page (as on PostgreSQL).
    await sql`create virtual table search_sections_fts using fts5(
      page_title, heading, body,
      content='search_sections', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2',
      prefix='3')`.execute(db);
    await sql`create trigger search_sections_insert after insert on search_sections begin
      insert into search_sections_fts(rowid, page_title, heading, body)
        values (new.rowid, case when new.position = 0 then new.page_title else '' end, new.heading, new.body);
      end`.execute(db);
    await sql`create trigger search_sections_delete after delete on search_sections begin
      insert into search_sections_fts(search_sections_fts, rowid, page_title, heading, body)
        values ('delete', old.rowid, case when old.position = 0 then old.page_title else '' end, old.heading, old.body);
      end`.execute(db);
  } else {
    await sql`alter table search_sections add column document tsvector generated always as (${POSTGRES_DOCUMENT}) stored`.execute(
      db,
    );
    await sql`create index search_sections_document on search_sections using gin (document)`.execute(db);
  }
}
