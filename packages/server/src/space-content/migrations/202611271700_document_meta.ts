import type { Kysely } from "kysely";
import { contentEngine } from "../../content/engine/index.js";
import { pageMetaOf } from "../../content/page-meta.js";
import { storedDocuments } from "../../content/stored-documents.js";

/**
 * Each page body's metadata from its front matter (description, icon, layout, hidden, noIndex,
 * noRobotsIndex), read once when the body is written (see `ContentStorage.flush`), and here for the
 * bodies written before. A body refused by today's content limits reads as one without.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("content_documents").addColumn("meta", "text").execute();
  const documents = db as unknown as Kysely<{
    content_documents: { space_id: string; hash: string; meta: string };
  }>;
  for await (const rows of storedDocuments(db)) {
    const analyses = await contentEngine().analyzeAll(
      rows.map((row) => row.markdown),
      { refusedAsEmpty: true },
    );
    for (const [i, row] of rows.entries()) {
      const meta = pageMetaOf(analyses[i]?.frontMatter);
      if (meta)
        await documents
          .updateTable("content_documents")
          .set({ meta: JSON.stringify(meta) })
          .where("space_id", "=", row.space_id)
          .where("hash", "=", row.hash)
          .execute();
    }
  }
}
