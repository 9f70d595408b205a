import type { Kysely } from "kysely";

/**
 * Who made each revision (`author_id`, a user id), so that a space's history says who changed what.
 * Revisions made before are left without one: nothing recorded who made them. The index serves the
 * history, newest first, and the cascade of a deleted space.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("revisions").addColumn("author_id", "text").execute();
  await db.schema.createIndex("revisions_by_space").on("revisions").columns(["space_id", "id"]).execute();
}
