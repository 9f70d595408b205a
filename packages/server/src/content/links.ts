import type { Kysely } from "kysely";
import type { Nodes } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import type { Db } from "../db/database.js";
import type { ContentDocumentLinkTable } from "./tables.js";

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * The URLs a Markdown page body links to or embeds, in document order: links, images, and the
 * definitions that reference-style links use (GFM autolinks included). Parsed, never matched by a
 * regular expression, so code spans and code blocks hold no links.
 */
export function extractLinks(markdown: string): string[] {
  const urls: string[] = [];
  const walk = (node: Nodes) => {
    if (
      (node.type === "link" || node.type === "image" || node.type === "definition") &&
      node.url.trim() !== ""
    )
      urls.push(node.url.trim());
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(parser.parse(markdown));
  return urls;
}

const CHUNK = 500;

/** The link rows of these documents, parsed from their bodies. */
function documentLinkRows(
  spaceId: string,
  documents: Iterable<readonly [hash: string, markdown: string]>,
): ContentDocumentLinkTable[] {
  const rows: ContentDocumentLinkTable[] = [];
  for (const [hash, markdown] of documents)
    for (const [position, url] of extractLinks(markdown).entries())
      rows.push({ space_id: spaceId, hash, position, url });
  return rows;
}

/**
 * Stores the links of newly written documents (inside the transaction that writes them). A document
 * written before keeps its rows: its hash is its body, so they are the same.
 */
export async function saveDocumentLinks(
  db: Db | Kysely<unknown>,
  spaceId: string,
  documents: Iterable<readonly [hash: string, markdown: string]>,
): Promise<void> {
  const rows = documentLinkRows(spaceId, documents);
  for (let i = 0; i < rows.length; i += CHUNK)
    await (db as Db)
      .insertInto("content_document_links")
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["space_id", "hash", "position"]).doNothing())
      .execute();
}
