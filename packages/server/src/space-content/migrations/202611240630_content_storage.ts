import type { Kysely } from "kysely";

/**
 * Content-addressed storage of page bodies and page-trie nodes, per space: a row is written once and
 * shared by every revision that holds it, and goes with its space (also when a deleted space is purged).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of [
    ["content_documents", "markdown"],
    ["content_nodes", "body"],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn("space_id", "text", (c) => c.notNull().references("spaces.id").onDelete("cascade"))
      .addColumn("hash", "text", (c) => c.notNull())
      .addColumn(column, "text", (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ["space_id", "hash"])
      .execute();
  }
}
