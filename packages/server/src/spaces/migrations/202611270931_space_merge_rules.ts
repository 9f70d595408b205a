import type { Kysely } from "kysely";

/** A space's merge rules, as JSON; null: its organization's. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("spaces").addColumn("merge_rules", "text").execute();
}
