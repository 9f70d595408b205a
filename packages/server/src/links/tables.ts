/**
 * Row types of the tables of this area.
 *
 * Page bodies are content-addressed (`content_documents`), so their links are too: extracted once when a
 * document is first written (`ContentStorage.flush`), kept per document hash, and shared by every
 * revision holding that body. Listing links only reads these rows.
 */
export type LinksTables = {
  content_document_links: ContentDocumentLinkTable;
};

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
