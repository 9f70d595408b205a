import { type Kysely, sql } from "kysely";

/**
 * Activity counters on the space row, so reading a space costs no grouped count: open comments of
 * the space itself (not of its change requests) and change requests in all and by status. Writers
 * move them in the same transaction as their cause (`adjustSpaceActivity`); existing rows are counted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    "open_comments",
    "change_requests",
    "open_change_requests",
    "draft_change_requests",
  ]) {
    await db.schema
      .alterTable("spaces")
      .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await sql`
    update spaces set
      open_comments = (select count(*) from comments c
        where c.space_id = spaces.id and c.change_request_id is null and c.status = 'open'),
      change_requests = (select count(*) from change_requests r where r.space_id = spaces.id),
      open_change_requests = (select count(*) from change_requests r
        where r.space_id = spaces.id and r.status = 'open'),
      draft_change_requests = (select count(*) from change_requests r
        where r.space_id = spaces.id and r.status = 'draft')
  `.execute(db);
}
