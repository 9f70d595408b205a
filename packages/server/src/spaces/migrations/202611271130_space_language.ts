import type { Kysely } from "kysely";

/** The language of a space's content; null: not set. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("spaces").addColumn("language", "text").execute();
}
