import type { Kysely } from "kysely";

/** Where each consumer of the event stream (webhooks, integrations) is, per organization. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("event_cursors")
    .addColumn("consumer", "text", (c) => c.notNull())
    .addColumn("organization_id", "text", (c) =>
      c.notNull().references("organizations.id").onDelete("cascade"),
    )
    .addColumn("last_sequence", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("event_cursors_pk", ["consumer", "organization_id"])
    .execute();
}
