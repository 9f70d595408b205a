import type { Kysely } from "kysely";
import type { Db } from "../db/database.js";
import type { Database } from "../db/schema.js";
import { extractLinks } from "./extract.js";
import type { ContentDocumentLinkTable, LinksTables } from "./tables.js";

type LinksDb = Kysely<Database & LinksTables>;
const withLinks = (db: Db | Kysely<unknown>): LinksDb => (db as Db).withTables<LinksTables>();

const CHUNK = 500;

/** The link rows of these documents, parsed from their bodies. */
export function documentLinkRows(
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
    await withLinks(db)
      .insertInto("content_document_links")
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["space_id", "hash", "position"]).doNothing())
      .execute();
}

/** The URLs each of these documents links to, in document order, by hash. */
export async function linksOfDocuments(db: Db, spaceId: string, hashes: Iterable<string>) {
  const links = new Map<string, string[]>();
  const all = [...new Set(hashes)];
  for (let i = 0; i < all.length; i += CHUNK) {
    const rows = await withLinks(db)
      .selectFrom("content_document_links")
      .select(["hash", "url"])
      .where("space_id", "=", spaceId)
      .where("hash", "in", all.slice(i, i + CHUNK))
      .orderBy("hash")
      .orderBy("position")
      .execute();
    for (const row of rows) {
      const urls = links.get(row.hash);
      if (urls) urls.push(row.url);
      else links.set(row.hash, [row.url]);
    }
  }
  return links;
}
