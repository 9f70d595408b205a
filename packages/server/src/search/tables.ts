import type { JsonText } from "../db/codecs.js";

/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 *
 * The full-text index itself is the database's own: on SQLite the FTS5 table `search_sections_fts`
 * over `search_sections` (kept in step by triggers), on PostgreSQL the generated, GIN-indexed column
 * `document`, the weighted `tsvector` of each row (see migrations/). Neither is read through
 * Kysely's types.
 */
export interface SearchTables {
  /** One row per section of a page of a space's main content: the part under one heading. */
  search_sections: SearchSectionTable;
  /** Which revision of each space's main content `search_sections` holds. */
  search_spaces: SearchSpaceTable;
}

export interface SearchSectionTable {
  space_id: string;
  page_id: string;
  /** Index of the section in its page; 0 is the part before the first heading. */
  position: number;
  /** The page's title; the full-text index holds it for section 0 only, so that it matches once per page. */
  page_title: string;
  /** The page's path in its space (slugs joined by `/`). */
  page_path: string;
  /** The page's description: its front matter's `description`, "" when none. Not in the full-text index. */
  page_description: string;
  /** The titles of the pages above the page, from the top level down to its parent. */
  page_ancestors: JsonText<string[]>;
  /** The heading's anchor (github-slugger, one per page); "" for section 0. */
  anchor: string;
  /** The heading's text; "" for section 0. */
  heading: string;
  /** The section's plain text. */
  body: string;
}

export interface SearchSpaceTable {
  space_id: string;
  revision_id: string;
}

declare module "../db/schema.js" {
  interface Database extends SearchTables {}
}
