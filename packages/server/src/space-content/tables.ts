/**
 * Row types of the tables of this area, joined into `Database` (src/db/schema.ts). Booleans are 0/1
 * integers and timestamps ISO 8601 text, as everywhere.
 *
 * Content is stored by its hash, once per space, and shared by every revision holding it: a page
 * body is a document, a revision's page tree is a hash trie of nodes (see src/content/trie.ts).
 * Both go with their space, by cascade.
 */
export interface SpaceContentTables {
  content_documents: ContentDocumentTable;
  content_nodes: ContentNodeTable;
}

/** A page body; `hash` is its id (`documentId`). */
export interface ContentDocumentTable {
  space_id: string;
  hash: string;
  markdown: string;
}

/** A node of a revision's page trie, as JSON; `hash` is the hash of `body`. */
export interface ContentNodeTable {
  space_id: string;
  hash: string;
  body: string;
}
