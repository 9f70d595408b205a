import type { Kysely } from "kysely";

/** Whether an organization requires its members to have a second factor; existing ones do not. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("organizations")
    .addColumn("require_second_factor", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
