import type { Kysely } from "kysely";

/** An organization's merge rules, as JSON; null: none (change requests merge without review). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("organizations").addColumn("merge_rules", "text").execute();
}
