import type { Kysely } from "kysely";
import type { Db } from "../db/database.js";
import { type Analysis, contentEngine } from "./engine/index.js";
import type { ContentDocumentLinkTable } from "./tables.js";

const CHUNK = 500;

/**
 * Stores the links of newly written documents (inside the transaction that writes them), as the content
 * engine reads them, or as `analyses` (of `documents`, in their order) already say. A document written
 * before keeps its rows: its hash is its body, so they are the same.
 */
export async function saveDocumentLinks(
  db: Db | Kysely<unknown>,
  spaceId: string,
  documents: Iterable<readonly [hash: string, markdown: string]>,
  analyses?: readonly Analysis[],
): Promise<void> {
  const entries = [...documents];
  const hashes = entries.map(([hash]) => hash);
  analyses ??= await contentEngine().analyzeAll(entries.map(([, markdown]) => markdown));
  const rows: ContentDocumentLinkTable[] = analyses.flatMap(({ links }, i) =>
    links.map((url, position) => ({ space_id: spaceId, hash: hashes[i] as string, position, url })),
  );
  for (let i = 0; i < rows.length; i += CHUNK)
    await (db as Db)
      .insertInto("content_document_links")
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(["space_id", "hash", "position"]).doNothing())
      .execute();
}
