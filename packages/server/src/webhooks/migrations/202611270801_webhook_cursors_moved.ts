import { type Kysely, sql } from "kysely";

/** The webhooks' places in the event stream, kept with the other consumers' in `event_cursors`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into event_cursors (consumer, organization_id, last_sequence)
    select 'webhooks', organization_id, last_sequence from webhook_cursors`.execute(db);
  await db.schema.dropTable("webhook_cursors").execute();
}
