import type { JsonText } from "../db/codecs.js";
import type { PageMeta } from "./page-meta.js";

/**
 * Row types of the tables the content engine writes (storage, revisions). Booleans are 0/1 integers
 * and timestamps ISO 8601 text, as everywhere.
 *
 * Content is stored by its hash, once per space, and shared by every revision holding it: a page
 * body is a document, a revision's page tree is a hash trie of nodes (see trie.ts). Both go with their
 * space, by cascade. A document's links are extracted once, when it is first written
 * (`ContentStorage.flush`), and kept per document hash, so that listing links only reads these rows.
 */
export interface ContentTables {
  content_documents: ContentDocumentTable;
  content_nodes: ContentNodeTable;
  content_document_links: ContentDocumentLinkTable;
  revisions: RevisionTable;
}

/** A page body; `hash` is its id (`documentId`). */
export interface ContentDocumentTable {
  space_id: string;
  hash: string;
  markdown: string;
  /** The page metadata of its front matter (see `pageMetaOf`); null when it has none. */
  meta: JsonText<PageMeta> | null;
}

/** A node of a revision's page trie, as JSON; `hash` is the hash of `body`. */
export interface ContentNodeTable {
  space_id: string;
  hash: string;
  body: string;
}

/** One link or image of a page body, in the order they appear. */
export interface ContentDocumentLinkTable {
  space_id: string;
  /** The document's hash (`content_documents.hash`). */
  hash: string;
  /** 0, 1, 2… in document order. */
  position: number;
  /** The URL as written (a definition's URL for reference-style links). */
  url: string;
}

export type RevisionType = "edits" | "merge" | "update";

/** An immutable state of a space's content: main content or a change request's. */
export interface RevisionTable {
  id: string;
  space_id: string;
  /** The first parent: the previous revision of the same line (null for a space's first revision). */
  parent_id: string | null;
  /** The second parent of a merge or an update: the revision merged in. */
  merge_parent_id: string | null;
  type: RevisionType;
  /** Hash of the root node of the page trie (trie.ts); null when there are no pages. */
  root: string | null;
  /** Who made it (a user id); null for a space's first revision and for those made before authors were kept. */
  author_id: string | null;
  created_at: string;
}
