import type { Kysely } from "kysely";

/** A stored page body, as migrations that read every body see it. */
export interface StoredDocument {
  space_id: string;
  hash: string;
  markdown: string;
}

/**
 * Every stored page body, in batches of `size` (keyset order by space and hash), for migrations that
 * derive something from each body once: the schema they run on is not yet the code's.
 */
export async function* storedDocuments(db: Kysely<unknown>, size = 200): AsyncGenerator<StoredDocument[]> {
  const documents = db as unknown as Kysely<{ content_documents: StoredDocument }>;
  let after: StoredDocument | undefined;
  for (;;) {
    let query = documents
      .selectFrom("content_documents")
      .select(["space_id", "hash", "markdown"])
      .orderBy("space_id")
      .orderBy("hash")
      .limit(size);
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
    if (rows.length > 0) yield rows;
    after = rows.at(-1);
    if (!after || rows.length < size) return;
  }
}
