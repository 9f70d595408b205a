import type { Kysely } from "kysely";

/** The redirects of a connected repository's `.gitbook.yaml`, each source to the page its file holds. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("git_sync_connections")
    .addColumn("redirects", "text", (c) => c.notNull().defaultTo("{}"))
    .execute();
}
