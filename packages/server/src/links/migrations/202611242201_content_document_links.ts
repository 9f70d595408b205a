import type { Kysely } from "kysely";
import { saveDocumentLinks } from "../../content/links.js";
import { storedDocuments } from "../../content/stored-documents.js";

/**
 * The links of each stored page body (see src/content/tables.ts), extracted here once for the bodies
 * written before this table existed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("content_document_links")
    .addColumn("space_id", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("content_document_links_pk", ["space_id", "hash", "position"])
    .addForeignKeyConstraint(
      "content_document_links_document_fk",
      ["space_id", "hash"],
      "content_documents",
      ["space_id", "hash"],
      (fk) => fk.onDelete("cascade"),
    )
    .execute();

  for await (const rows of storedDocuments(db))
    for (const row of rows) await saveDocumentLinks(db, row.space_id, [[row.hash, row.markdown]]);
}
