import type { Kysely } from "kysely";

/**
 * How many times each contributor changed a change request (created it, edited its content) and
 * when last; rows from before count one, at a time unknown (null).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("change_request_contributors")
    .addColumn("changes", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("change_request_contributors").addColumn("changed_at", "text").execute();
}
