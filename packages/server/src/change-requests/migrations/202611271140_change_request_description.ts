import type { Kysely } from "kysely";

/** A change request's description (GitBook's JSON document) and its links to outside pages, as JSON. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("change_requests").addColumn("description", "text").execute();
  await db.schema.alterTable("change_requests").addColumn("links", "text").execute();
}
