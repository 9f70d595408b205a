import type { Kysely } from "kysely";
import { saveDocumentLinks } from "../../content/links.js";

const BATCH = 200;

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

  type Document = { space_id: string; hash: string; markdown: string };
  const documents = db as unknown as Kysely<{ content_documents: Document }>;
  let after: { space_id: string; hash: string } | undefined;
  for (;;) {
    let query = documents
      .selectFrom("content_documents")
      .selectAll()
      .orderBy("space_id")
      .orderBy("hash")
      .limit(BATCH);
    if (after) {
      const { space_id, hash } = after;
      query = query.where((eb) =>
        eb.or([
          eb("space_id", ">", space_id),
          eb.and([eb("space_id", "=", space_id), eb("hash", ">", hash)]),
        ]),
      );
    }
    const rows = await query.execute();
    for (const row of rows) await saveDocumentLinks(db, row.space_id, [[row.hash, row.markdown]]);
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) break;
    after = last;
  }
}
